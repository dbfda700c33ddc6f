import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// Daily code work in the browser, at the HTTP level: the repository home (clone box, switcher,
// about box, last commits, README), the file view, blame, commits with unified or split diffs
// and whitespace options, branches with ahead/behind, delete and restore; and who may do what.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds; // owns alice/proj
let bob: Creds; // reads alice/proj
let eve: Creds; // an outsider
let first = '';
let second = '';
let third = '';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const BIG = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';

const api = (p: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${p}`, init);
const root = () => s.hearth.config.server.root_url;
const page = async (p: string, who?: Creds | null) => {
  const res = await s.request(p, { auth: who ? as(who) : undefined, redirect: 'manual' });
  return { status: res.status, html: await res.text(), res };
};

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  eve = await createUser(s, 'eve');
  await createRepo(s, alice, 'proj', { description: 'Project <one>' });
  await createRepo(s, alice, 'hidden', { private: true });
  await createRepo(s, alice, 'blank');
  const wt = await workTree({
    'README.md': '# Proj\n\nRead **me**.\n', 'docs/guide.md': '# Guide\n\n*emphasis*\n', 'src/app.js': 'const a = 1;\n/* one\n two */\nlet b = 2;\n',
    'logo.png': '', 'data.bin': '', 'old-name.txt': 'moved\n', 'big.txt': BIG(10, 'old'),
  });
  fs.writeFileSync(path.join(wt, 'logo.png'), PNG);
  fs.writeFileSync(path.join(wt, 'data.bin'), Buffer.from([0, 1, 2, 0, 3]));
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '--amend', '-m', 'First commit');
  first = (await git(wt, 'rev-parse', 'HEAD')).trim();
  fs.writeFileSync(path.join(wt, 'src/app.js'), 'const a = 10;\n/* one\n two */\nlet b = 2;   \n');
  await git(wt, 'mv', 'old-name.txt', 'new-name.txt');
  fs.writeFileSync(path.join(wt, 'big.txt'), BIG(600, 'new'));
  await git(wt, 'commit', '-q', '-am', 'Second <commit>\n\nWith a body.');
  second = (await git(wt, 'rev-parse', 'HEAD')).trim();
  fs.writeFileSync(path.join(wt, 'src/app.js'), 'const a = 10;\n/* one\n two */\n  let b = 2;\n');
  await git(wt, 'commit', '-q', '-am', 'Only whitespace');
  third = (await git(wt, 'rev-parse', 'HEAD')).trim();
  await git(wt, 'tag', 'v1');
  await git(wt, 'checkout', '-q', '-b', 'topic/one');
  fs.writeFileSync(path.join(wt, 'topic.txt'), 'topic\n');
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '-m', 'Add topic');
  await git(wt, 'checkout', '-q', '-b', 'stale', first);
  await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'proj', alice.username, alice.password), 'main', 'topic/one', 'stale', 'v1');
  await ok(await api('repos/alice/proj/topics', { method: 'PUT', auth: as(alice), json: { topics: ['forge', 'web'] } }), 204);
  await ok(await api('repos/alice/proj/releases', { method: 'POST', auth: as(alice), json: { tag_name: 'v1', name: 'One point oh' } }), 201);
  await ok(await api('repos/alice/proj/collaborators/bob', { method: 'PUT', auth: as(alice), json: { permission: 'read' } }), 204);
});
afterAll(async () => { await s.stop(); });

describe('the repository home', () => {
  it('has the clone box, the switcher, the last commit of each entry, the README and the about box', async () => {
    const { status, html } = await page('alice/proj', bob);
    expect(status).toBe(200);
    expect(html).toContain(`value="${root()}alice/proj.git"`);
    expect(html).toMatch(/id="clone-ssh" type="text" readonly value="git@[^"]+:alice\/proj\.git"/);
    expect(html).toContain('data-copy-from="clone-https"');
    expect(html).toContain('<option value="branch/topic/one">topic/one</option>');
    expect(html).toContain('<option value="tag/v1">v1</option>');
    // Each entry's last commit message: docs/ last changed in the first commit, src/ in the third.
    expect(html).toMatch(/src\/branch\/main\/docs">docs\/<\/a><\/td><td class="last"><a class="message" href="[^"]+\/commit\/[0-9a-f]{40}">First commit<\/a>/);
    expect(html).toMatch(/src\/branch\/main\/src">src\/<\/a><\/td><td class="last"><a class="message" href="[^"]+">Only whitespace<\/a>/);
    expect(html).toContain('Read <strong>me</strong>.');
    expect(html).toContain('<p>Project &lt;one&gt;</p>');
    expect(html).toContain('>forge</a>');
    expect(html).toContain(`href="${root()}alice/proj/releases/tag/v1">One point oh</a>`);
    expect(html).toMatch(/<li>JavaScript <span class="meta">[\d.]+%<\/span><\/li>/);
  });

  it('shows an empty repository how to push to it, over HTTPS and SSH', async () => {
    const { status, html } = await page('alice/blank', alice);
    expect(status).toBe(200);
    expect(html).toContain('This repository is empty</h2>');
    expect(html).toContain(`git remote add origin ${root()}alice/blank.git\ngit push -u origin main`);
    expect(html).toMatch(/git remote add origin git@[^:]+:alice\/blank\.git/);
    // Its owner may start it in the browser.
    expect(html).toContain(`href="${root()}alice/blank/_new/main"`);
    expect((await page('alice/blank', bob)).html).not.toContain('/_new/');
  });

  it('switches branch with the GET form, keeping the path', async () => {
    const { res } = await page('alice/proj/src/branch/main/src?switch=branch%2Ftopic%2Fone');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}alice/proj/src/branch/topic/one/src`);
    const tag = await page('alice/proj/commits/branch/main?switch=tag%2Fv1');
    expect(tag.res.headers.get('location')).toBe(`${root()}alice/proj/commits/tag/v1`);
    // An unknown ref is not followed.
    expect((await page('alice/proj/src/branch/main?switch=branch%2Fnope')).status).toBe(200);
  });
});

describe('the file view', () => {
  it('numbers and highlights lines, each its own anchor, with Raw, Permalink, Blame and History', async () => {
    const { status, html } = await page('alice/proj/src/branch/main/src/app.js', bob);
    expect(status).toBe(200);
    expect(html).toContain('<tr id="L1"><td class="num"><a href="#L1">1</a></td><td><span class="hljs-keyword">const</span> a = <span class="hljs-number">10</span>;</td></tr>');
    // A comment over two lines is coloured on both.
    expect(html).toContain('<tr id="L3"><td class="num"><a href="#L3">3</a></td><td><span class="hljs-comment"> two */</span></td></tr>');
    expect(html).toContain(`href="${root()}alice/proj/raw/branch/main/src/app.js">Raw</a>`);
    expect(html).toContain(`href="${root()}alice/proj/src/commit/${third}/src/app.js">Permalink</a>`);
    expect(html).toContain(`href="${root()}alice/proj/blame/branch/main/src/app.js">Blame</a>`);
    expect(html).toContain(`href="${root()}alice/proj/commits/branch/main/src/app.js">History</a>`);
    // A reader sees no edit links; the owner does.
    expect(html).not.toContain('/_edit/');
    const mine = await page('alice/proj/src/branch/main/src/app.js', alice);
    expect(mine.html).toContain(`href="${root()}alice/proj/_edit/main/src/app.js">Edit</a>`);
    expect(mine.html).toContain(`href="${root()}alice/proj/_delete/main/src/app.js">Delete</a>`);
    // Not on a tag: edits go to branches.
    expect((await page('alice/proj/src/tag/v1/src/app.js', alice)).html).not.toContain('/_edit/');
  });

  it('shows a large file at once, highlighted from the next view on at the latest', async () => {
    const body = Array.from({ length: 3000 }, (_, i) => `const v${i} = ${i}; // line ${i}`).join('\n') + '\n';
    await ok(await api('repos/alice/proj/contents/large.js', { method: 'POST', auth: as(alice), json: { content: Buffer.from(body).toString('base64'), new_branch: 'large' } }), 201);
    const first = await page('alice/proj/src/branch/large/large.js');
    expect(first.status).toBe(200);
    expect(first.html).toContain('<tr id="L3000"><td class="num"><a href="#L3000">3000</a></td>');
    let html = first.html;
    for (let i = 0; i < 50 && !html.includes('<span class="hljs-keyword">const</span> v2999'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      html = (await page('alice/proj/src/branch/large/large.js')).html;
    }
    expect(html).toContain('<span class="hljs-keyword">const</span> v2999 = <span class="hljs-number">2999</span>;');
  });

  it('renders markdown, with its source one link away', async () => {
    const rendered = await page('alice/proj/src/branch/main/docs/guide.md');
    expect(rendered.html).toContain('<em>emphasis</em>');
    expect(rendered.html).toContain(`href="${root()}alice/proj/src/branch/main/docs/guide.md?display=source">Source</a>`);
    const source = await page('alice/proj/src/branch/main/docs/guide.md?display=source');
    expect(source.html).toContain('<tr id="L3"><td class="num"><a href="#L3">3</a></td><td><span class="hljs-emphasis">*emphasis*</span></td></tr>');
    expect(source.html).toContain(`href="${root()}alice/proj/src/branch/main/docs/guide.md">Rendered</a>`);
  });

  it('shows images as images and binary files as a download', async () => {
    const image = await page('alice/proj/src/branch/main/logo.png');
    expect(image.html).toContain(`<img src="${root()}alice/proj/raw/branch/main/logo.png" alt="logo.png">`);
    const binary = await page('alice/proj/src/branch/main/data.bin');
    expect(binary.html).toContain(`This file is binary. <a href="${root()}alice/proj/raw/branch/main/data.bin">Download it</a>`);
  });
});

describe('blame', () => {
  it('groups lines by the commit that last changed them', async () => {
    const { status, html } = await page('alice/proj/blame/branch/main/src/app.js', bob);
    expect(status).toBe(200);
    // Line 1 from the second commit, 2-3 from the first, 4 from the third: three runs.
    expect(html.match(/class="hunk-start"/g)).toHaveLength(3);
    expect(html).toContain('<td class="blame-info" rowspan="2">');
    expect(html).toContain('>Second &lt;commit&gt;</a>');
    expect(html).toContain('<tr id="L2" class="hunk-start"><td class="blame-info" rowspan="2">');
    expect(html).toContain(`href="${root()}alice/proj/blame/commit/${first}/src/app.js"`);
    expect((await page('alice/proj/blame/branch/main/nope.txt')).status).toBe(404);
    expect((await page('alice/proj/blame/branch/main/src')).status).toBe(404);
  });
});

describe('commits', () => {
  it('lists changed files with counts, renames, and a unified diff with both line numbers', async () => {
    const { html } = await page(`alice/proj/commit/${second}`);
    expect(html).toContain('<pre class="commit-body">With a body.</pre>');
    expect(html).toMatch(/<a href="#diff-[0-9a-f]{40}">src\/app\.js<\/a> <span class="counts"><span class="plus">\+2<\/span> <span class="minus">−2<\/span><\/span>/);
    expect(html).toContain('<span class="meta">old-name.txt →</span> new-name.txt');
    expect(html).toContain('<tr class="del"><td class="num">1</td><td class="num"></td><td class="sign">-</td>');
    expect(html).toContain('<table class="code diff unified">');
  });

  it('shows split diffs by ?style= or by the user\'s setting', async () => {
    expect((await page(`alice/proj/commit/${second}?style=split`)).html).toContain('<table class="code diff split">');
    const c = new WebClient(s);
    await c.signIn(eve.username, eve.password);
    await ok(await api('user/settings', { method: 'PATCH', auth: as(eve), json: { diff_view_style: 'split' } }));
    const split = await (await c.get(`alice/proj/commit/${second}`)).text();
    expect(split).toContain('<table class="code diff split">');
    expect(split).toContain(`href="${root()}alice/proj/commit/${second}?style=unified">Unified view</a>`);
    expect(await (await c.get(`alice/proj/commit/${second}?style=unified`)).text()).toContain('<table class="code diff unified">');
  });

  it('shows a root commit against nothing', async () => {
    const { status, html } = await page(`alice/proj/commit/${first}`);
    expect(status).toBe(200);
    expect(html).toContain('<span class="badge">added</span> <a href="');
    expect(html).toMatch(/<a href="#diff-[0-9a-f]{40}">README\.md<\/a> <span class="counts"><span class="plus">\+3<\/span>/);
  });

  it('ignores whitespace when asked', async () => {
    const shown = await page(`alice/proj/commit/${third}`);
    expect(shown.html).toContain('<td class="sign">+</td>');
    const ignored = await page(`alice/proj/commit/${third}?whitespace=ignore-all`);
    expect(ignored.html).toContain('Only whitespace changed.');
    expect(ignored.html).not.toContain('<td class="sign">+</td>');
    expect(ignored.html).toContain(`?whitespace=show-all">Show whitespace changes</a>`);
  });

  it('collapses a large file behind a link that loads it alone', async () => {
    const { html } = await page(`alice/proj/commit/${second}`);
    const m = /This file's diff is large\. <a href="([^"]+)">Load the diff<\/a>/.exec(html);
    expect(m).not.toBeNull();
    expect(html).not.toContain('new line 599');
    const loaded = await page(m![1]!.replaceAll('&amp;', '&').replace(root(), '').replace(/#.*/, ''));
    expect(loaded.html).toContain('new line 599');
    expect(loaded.html).not.toContain('src/app.js</a>');
  });

  it('pages a history with the switcher', async () => {
    const { html } = await page('alice/proj/commits/branch/main');
    expect(html).toContain('>Only whitespace</a>');
    expect(html).toContain('<option value="branch/main" selected>main</option>');
  });
});

describe('branches', () => {
  it('shows ahead and behind, and a New pull request link for branches ahead', async () => {
    const { html } = await page('alice/proj/branches', bob);
    expect(html).toMatch(/<strong>topic\/one<\/strong><\/a> <span class="meta">1 ahead · 0 behind<\/span>/);
    expect(html).toMatch(/<strong>stale<\/strong><\/a> <span class="meta">0 ahead · 2 behind<\/span>/);
    expect(html).toContain(`href="${root()}alice/proj/compare/main...topic/one">New pull request</a>`);
    expect(html).not.toContain('/branches/delete');
  });

  it('deletes a branch after a confirmation page, and restores it', async () => {
    await createRepo(s, alice, 'twigs', { auto_init: true });
    await ok(await api('repos/alice/twigs/branches', { method: 'POST', auth: as(alice), json: { new_branch_name: 'leaf' } }), 201);
    const c = new WebClient(s);
    await c.signIn(alice.username, alice.password);
    const confirm = await (await c.get('alice/twigs/branches/delete?name=leaf')).text();
    expect(confirm).toContain('<button type="submit" class="danger">Delete branch</button>');
    const del = await c.post('alice/twigs/branches/delete?name=leaf', {}, { from: 'alice/twigs/branches/delete?name=leaf' });
    expect(del.status).toBe(303);
    expect(del.headers.get('location')).toBe(`${root()}alice/twigs/branches`);
    expect((await api('repos/alice/twigs/branches/leaf', { auth: as(alice) })).status).toBe(404);
    const listed = await (await c.get('alice/twigs/branches')).text();
    expect(listed).toContain('<del>leaf</del> <span class="meta">deleted by alice');
    const id = /name="branch_id" value="(\d+)"/.exec(listed)![1]!;
    const back = await c.post('alice/twigs/branches/restore', { branch_id: id, name: 'leaf' }, { from: 'alice/twigs/branches' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`${root()}alice/twigs/src/branch/leaf`);
    expect((await api('repos/alice/twigs/branches/leaf', { auth: as(alice) })).status).toBe(200);
    expect(await (await c.get('alice/twigs/branches')).text()).not.toContain('<del>leaf</del>');
  });

  it('refuses a reader\'s forged delete, and the default branch', async () => {
    await createRepo(s, alice, 'guarded', { auto_init: true });
    await ok(await api('repos/alice/guarded/branches', { method: 'POST', auth: as(alice), json: { new_branch_name: 'keep' } }), 201);
    await ok(await api('repos/alice/guarded/collaborators/bob', { method: 'PUT', auth: as(alice), json: { permission: 'read' } }), 204);
    const reader = new WebClient(s);
    await reader.signIn(bob.username, bob.password);
    const token = await reader.csrfOf('alice/guarded/branches');
    const forged = await reader.post('alice/guarded/branches/delete?name=keep', {}, { csrf: token });
    expect(forged.status).toBe(403);
    expect((await api('repos/alice/guarded/branches/keep', { auth: as(alice) })).status).toBe(200);
    const owner = new WebClient(s);
    await owner.signIn(alice.username, alice.password);
    const main = await owner.post('alice/guarded/branches/delete?name=main', {}, { from: 'alice/guarded/branches' });
    expect(main.status).toBe(403);
    expect(await main.text()).toContain('can not delete default branch');
  });
});

describe('who may see', () => {
  it('answers a private repository\'s code pages with the 404 of a missing one', async () => {
    for (const p of ['alice/hidden', 'alice/hidden/branches', 'alice/hidden/blame/branch/main/README.md', 'alice/hidden/commits/branch/main']) {
      const other = await page(p, eve);
      expect(other.status, p).toBe(404);
      const main = (h: string) => h.slice(h.indexOf('<main'), h.indexOf('</main>'));
      expect(main(other.html)).toBe(main((await page(p.replace('hidden', 'missing'), eve)).html));
    }
  });
});
