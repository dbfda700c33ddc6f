import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { createUser, json, startTestServer, type Auth, type TestServer } from '../helpers/server';

// The code pages of a repository: src (file and directory), commit, history, branches, tags,
// compare; the redirects of Gitea's older URL forms; the 404 page.

let s: TestServer;
let alice: { username: string; password: string; id: number };
const asAlice = (): Auth => ({ basic: [alice.username, alice.password] });
let first = '';
let second = '';

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'code');
  const wt = await workTree({ 'README.md': '# Code\n\nSee [the guide](docs/guide.md).\n', 'docs/guide.md': '## Guide\n\n*emphasis*\n', 'src/app.js': 'const a = "<b>";\nconsole.log(a);\n' });
  first = (await git(wt, 'rev-parse', 'HEAD')).trim();
  fs.writeFileSync(path.join(wt, 'src/app.js'), 'const a = "<i>";\nconsole.log(a);\n');
  await git(wt, 'commit', '-q', '-am', 'Use <i> instead\n\nA longer body.');
  second = (await git(wt, 'rev-parse', 'HEAD')).trim();
  await git(wt, 'tag', 'v1');
  await git(wt, 'checkout', '-q', '-b', 'topic/one');
  fs.writeFileSync(path.join(wt, 'topic.txt'), 'topic\n');
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '-m', 'Add topic');
  await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'code', alice.username, alice.password), 'main', 'topic/one', 'v1');
});
afterAll(async () => { await s.stop(); });

const page = async (p: string, auth?: Auth) => {
  const res = await s.request(p, { auth, redirect: 'manual' });
  return { res, html: await res.text() };
};
const root = () => s.hearth.config.server.root_url;

describe('src pages', () => {
  it('shows a text file with numbered, escaped lines', async () => {
    const { res, html } = await page('alice/code/src/branch/main/src/app.js');
    expect(res.status).toBe(200);
    // Highlighted, and still escaped.
    expect(html).toContain('<tr id="L1"><td class="num"><a href="#L1">1</a></td><td><span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;&lt;i&gt;&quot;</span>;</td></tr>');
    expect(html).toContain(`href="${root()}alice/code/raw/branch/main/src/app.js"`);
  });

  it('renders markdown files and READMEs of directories', async () => {
    const file = await page('alice/code/src/branch/main/docs/guide.md');
    expect(file.html).toContain('<em>emphasis</em>');
    const home = await page('alice/code');
    expect(home.html).toContain('id="readme"');
    expect(home.html).toMatch(/<a href="[^"]*docs\/guide\.md"[^>]*>the guide<\/a>/);
  });

  it('lists a directory at a tag and at a commit', async () => {
    const tag = await page('alice/code/src/tag/v1/src');
    expect(tag.res.status).toBe(200);
    expect(tag.html).toContain(`href="${root()}alice/code/src/tag/v1/src/app.js">app.js</a>`);
    const commit = await page(`alice/code/src/commit/${first}/src/app.js`);
    expect(commit.html).toContain('&lt;b&gt;');
  });

  it('redirects the older src/{ref}/{path} form to the typed one', async () => {
    const branch = await page('alice/code/src/topic/one/topic.txt');
    expect(branch.res.status).toBe(302);
    expect(branch.res.headers.get('location')).toBe(`${root()}alice/code/src/branch/topic/one/topic.txt`);
    const tag = await page('alice/code/src/v1');
    expect(tag.res.headers.get('location')).toBe(`${root()}alice/code/src/tag/v1`);
  });

  it('every html_url of the contents API answers', async () => {
    const listing = await json(await s.request('api/v1/repos/alice/code/contents/src?ref=topic/one'));
    for (const item of listing) {
      expect((await s.request(item.html_url.replace(root(), ''))).status, item.html_url).toBe(200);
      expect((await s.request(item.download_url.replace(root(), ''))).status, item.download_url).toBe(200);
    }
  });
});

describe('commits', () => {
  it('shows a commit with its message, files and diff', async () => {
    const { res, html } = await page(`alice/code/commit/${second}`);
    expect(res.status).toBe(200);
    expect(html).toContain('Use &lt;i&gt; instead');
    expect(html).toContain('A longer body.');
    expect(html).toContain('<tr class="del"><td class="num">1</td><td class="num"></td><td class="sign">-</td><td><span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;&lt;b&gt;&quot;</span>;</td></tr>');
    expect(html).toContain('<tr class="add"><td class="num"></td><td class="num">1</td><td class="sign">+</td><td><span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;&lt;i&gt;&quot;</span>;</td></tr>');
    expect(html).toContain(`href="${root()}alice/code/commit/${first}"`);
  });

  it('serves a commit as .diff and .patch', async () => {
    const diff = await page(`alice/code/commit/${second}.diff`);
    expect(diff.res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(diff.html).toMatch(/^diff --git a\/src\/app\.js b\/src\/app\.js/);
    const patch = await page(`alice/code/commit/${second}.patch`);
    expect(patch.html).toContain('Subject: [PATCH] Use <i> instead');
  });

  it('the html_url of a commit from the API answers', async () => {
    const commits = await json(await s.request('api/v1/repos/alice/code/commits?sha=topic/one'));
    expect(commits.length).toBe(3);
    for (const c of commits) expect((await s.request(c.html_url.replace(root(), ''))).status).toBe(200);
  });

  it('lists the history of a branch and of a path', async () => {
    const all = await page('alice/code/commits/branch/topic/one');
    expect(all.res.status).toBe(200);
    expect(all.html).toContain('Add topic');
    expect(all.html).toContain('Use &lt;i&gt; instead');
    const file = await page('alice/code/commits/branch/main/docs/guide.md');
    expect(file.html).not.toContain('Use &lt;i&gt; instead');
    expect((await page('alice/code/commits/branch/nope')).res.status).toBe(404);
  });

  it('answers 404 for an unknown commit', async () => {
    expect((await page('alice/code/commit/0123456789abcdef0123456789abcdef01234567')).res.status).toBe(404);
  });
});

describe('branches, tags, compare', () => {
  it('lists branches and tags', async () => {
    const branches = await page('alice/code/branches');
    expect(branches.html).toContain(`href="${root()}alice/code/src/branch/topic/one"><strong>topic/one</strong></a>`);
    const tags = await page('alice/code/tags');
    expect(tags.html).toContain(`href="${root()}alice/code/archive/v1.zip"`);
  });

  it('compares two refs', async () => {
    const { res, html } = await page('alice/code/compare/main...topic/one');
    expect(res.status).toBe(200);
    expect(html).toContain('Add topic');
    expect(html).not.toContain('Use &lt;i&gt; instead');
    expect(html).toContain('<td class="sign">+</td><td>topic</td></tr>');
  });
});

describe('URL forms and the 404 page', () => {
  it('redirects /{owner}/{repo}.git to the repository page', async () => {
    const { res } = await page('alice/code.git');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${root()}alice/code`);
  });

  it('answers unknown paths with an HTML 404 page', async () => {
    for (const p of ['alice/code/nothing', 'alice/code/src', 'a/b/c/d/e', 'alice/code/commits/foo']) {
      const { res, html } = await page(p, asAlice());
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(html).toContain('Page Not Found');
    }
  });

  it('serves the stylesheet and script the layout links, at hashed URLs kept a year', async () => {
    const page = await (await s.request('')).text();
    for (const [re, type] of [[/<link rel="stylesheet" href="([^"]+)"/, /^text\/css/], [/<script src="([^"]+)" defer>/, /^text\/javascript/]] as const) {
      const url = re.exec(page)?.[1] ?? '';
      expect(url).toMatch(/\/assets\/hearth\.[0-9a-f]{12}\.(css|js)$/);
      const res = await fetch(url, { headers: { 'Accept-Encoding': 'br' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-encoding')).toBe('br');
      // Another hash is not this file: 404, never a stale copy under a name kept a year.
      expect((await s.request(new URL(url).pathname.slice(1).replace(/\.[0-9a-f]{12}\./, '.000000000000.'))).status).toBe(404);
    }
  });
});
