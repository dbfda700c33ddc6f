import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_wiki_test.go. repo1's wiki pages are Gitea's fixture
// ones, written through the API by user2 with the fixture's commit messages; their authors and
// dates are user2's and today's, not the fixture's (the API sets neither).

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const b64 = (text: string) => Buffer.from(text).toString('base64');
const PAGES: [string, string, string][] = [
  ['Home', '# Home page\n\nThis is the home page!\n', 'Add Home.md'],
  ['Page With Image', 'An image: ![](jpeg.jpg)\n', 'Add jpeg.jpg and page with image'],
  ['Page With Spaced Name', 'A page with a spaced name\n', 'Add page with spaced name'],
  ['Unescaped File', 'Not escaped\n', 'add unescaped file'],
];

type Commit = { sha: string; author: { name: string; email: string; date: string }; committer: { name: string }; message: string };
type Meta = { title: string; html_url: string; sub_url: string; last_commit: Commit };

function wiki() {
  return once(g, 'wiki', async () => {
    await repo(g, 'user2', 'repo1');
    const auth = await g.basic('user2');
    for (const [title, text, message] of PAGES) {
      await g.call('repos/user2/repo1/wiki/new', { method: 'POST', auth, json: { title, content_base64: b64(text), message } }, 201);
    }
  });
}

/** The commit as Gitea's fixture would show it, but for who (user2, by its git name) and when. */
const commitOf = (message: string) => ({
  sha: expect.stringMatching(/^[0-9a-f]{40}$/), message: `${message}\n`,
  author: { name: expect.stringMatching(/\S/), email: 'user2@example.com', date: expect.any(String) },
  commiter: { name: expect.stringMatching(/\S/), email: 'user2@example.com', date: expect.any(String) },
});

describe('api_wiki_test', () => {
  it('TestAPIGetWikiPage', async () => {
    await wiki();
    const page = await g.call('repos/user2/repo1/wiki/page/Home', { auth: await g.basic('user2') });
    expect(page).toEqual({
      title: 'Home', html_url: page.html_url, sub_url: 'Home', last_commit: commitOf('Add Home.md'),
      content_base64: b64('# Home page\n\nThis is the home page!\n'), commit_count: 1, sidebar: '', footer: '',
    });
  });

  it('TestAPIListWikiPages', async () => {
    await wiki();
    const meta = (await g.call('repos/user2/repo1/wiki/pages', { auth: await g.basic('user2') })) as Meta[];
    expect(meta).toEqual(PAGES.map(([title, , message], i) => ({
      title, html_url: meta[i]!.html_url, sub_url: title.replace(/ /g, '-'), last_commit: commitOf(message),
    })));
  });

  for (const title of ['New page', '&&&&']) {
    it(`TestAPINewWikiPage/${title}`, async () => {
      await wiki();
      const made = await g.call('repos/user2/repo1/wiki/new', {
        method: 'POST', auth: await g.tokenAuth('user2', 'all'), json: { title, content_base64: b64('Wiki page content for API unit tests'), message: '' },
      }, 201);
      expect(made.title).toBe(title);
    });
  }

  it('TestAPIEditWikiPage', async () => {
    await wiki();
    await g.call('repos/user2/repo1/wiki/new', {
      method: 'POST', auth: await g.basic('user2'), json: { title: 'To Edit', content_base64: b64('before\n'), message: 'Add a page to edit' },
    }, 201);
    const edited = await g.call('repos/user2/repo1/wiki/page/To-Edit', {
      method: 'PATCH', auth: await g.tokenAuth('user2', 'all'),
      json: { title: 'edited title', content_base64: b64('Edited wiki page content for API unit tests'), message: '' },
    });
    expect(edited.title).toBe('edited title');
  });

  it('TestAPIListPageRevisions', async () => {
    await wiki();
    const revisions = await g.call('repos/user2/repo1/wiki/revisions/Home', { auth: await g.basic('user2') });
    expect(revisions).toEqual({ commits: [commitOf('Add Home.md')], count: 1 });
  });
});
