import { describe, expect, it } from 'vitest';
import {
  gitPathToWebPath, userTitleToWebPath, webPathFromRequest, webPathSegments, webPathToGitPath, webPathToUserTitle,
} from '../../src/lib/wiki-path';

// The cases of Gitea's services/wiki/wiki_path_test.go.

describe('wiki names as Gitea maps them', () => {
  it('segments, titles to web paths, web paths to titles', () => {
    expect(webPathSegments('a%2Fa/b+c/d-e/f-g.-')).toEqual(['a/a', 'b c', 'd e', 'f-g']);
    const toWeb: [string, string][] = [
      ['unnamed', ''], ['unnamed', '.'], ['unnamed', '..'], ['wiki-name', 'wiki name'], ['title.md.-', 'title.md'],
      ['wiki-name.-', 'wiki-name'], ['the+wiki-name.-', 'the wiki-name'], ['a%2Fb', 'a/b'], ['a%25b', 'a%b'],
    ];
    for (const [web, title] of toWeb) expect(userTitleToWebPath('', title), title).toBe(web);
    const toTitle: [string, string][] = [
      ['wiki name', 'wiki-name'], ['wiki-name', 'wiki-name.-'], ['name with / slash', 'name-with %2F slash'],
      ['name with % percent', 'name-with %25 percent'], ['2000-01-02 meeting', '2000-01-02+meeting.-.md'], ['a b', 'a%20b.md'],
    ];
    for (const [title, web] of toTitle) expect(webPathToUserTitle(web), web).toBe(title);
  });

  it('web paths to git paths and back', () => {
    const toGit: [string, string][] = [
      ['wiki-name.md', 'wiki%20name'], ['wiki-name.md', 'wiki+name'], ['wiki name.md', 'wiki%20name.md'],
      ['wiki%20name.md', 'wiki%2520name.md'], ['2000-01-02-meeting.md', '2000-01-02+meeting'],
      ['2000-01-02 meeting.-.md', '2000-01-02%20meeting.-'],
    ];
    for (const [file, web] of toGit) expect(webPathToGitPath(web), web).toBe(file);
    const toWeb: [string, string][] = [
      ['hello-world', 'hello-world.md'], ['hello-world', 'hello world.md'], ['hello-world.-', 'hello-world.-.md'],
      ['hello+world.-', 'hello world.-.md'], ['symbols-%2F', 'symbols %2F.md'],
    ];
    for (const [web, file] of toWeb) expect(gitPathToWebPath(file), file).toBe(web);
    for (const bad of ['nofileextension', 'wrongfileextension.txt', 'badescaping%%.md']) expect(gitPathToWebPath(bad)).toBeNull();
  });

  it('title -> web path -> git path -> web path -> title is stable for any printable title', () => {
    for (let i = 0; i < 1000; i++) {
      const len = Math.floor(Math.random() * 20);
      const title = Array.from({ length: len }, () => String.fromCharCode(0x20 + Math.floor(Math.random() * 0x60))).join('').trim();
      if (title === '' || title === '.' || title === '..') continue;
      const web = userTitleToWebPath('', title);
      const git = webPathToGitPath(web);
      const web1 = gitPathToWebPath(git)!;
      expect([webPathToUserTitle(web1), web1, webPathToGitPath(web1)], JSON.stringify(title)).toEqual([title, web, git]);
    }
  });

  it('names from the request', () => {
    expect(webPathFromRequest('a/b')).toBe('a%2Fb');
    expect(webPathFromRequest('a')).toBe('a');
    expect(webPathFromRequest('a/../b')).toBe('b');
  });
});
