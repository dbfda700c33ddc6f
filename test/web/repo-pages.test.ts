import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { createToken, createUser, startTestServer, type Auth, type TestServer } from '../helpers/server';

let s: TestServer;
let alice: { username: string; password: string; id: number };
let bob: { username: string; password: string; id: number };
const asAlice = { basic: ['alice', 'pw-alice-secret'] as [string, string] };

// A name no browser may take as markup: every special HTML character is escaped in the page.
const NASTY = '<img src=x onerror="alert(\'x&y\')">.txt';

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'public-repo', { auto_init: true, description: '<b>bold</b> & co' });
  await createRepo(s, alice, 'private-repo', { auto_init: true, private: true });
  await createRepo(s, alice, 'empty-repo');
  await createRepo(s, alice, 'pushed');
  const wt = await workTree({ 'src/main.c': 'int main(){}\n', [NASTY]: 'x\n', 'README.md': '# hi\n' });
  await git(wt, 'checkout', '-q', '-b', 'feature/deep/name');
  await git(wt, 'commit', '-q', '--allow-empty', '-m', 'feature');
  await git(wt, 'rm', '-q', 'README.md');
  await git(wt, 'commit', '-q', '-m', 'drop readme');
  const url = remoteUrl(s, 'alice', 'pushed', alice.username, alice.password);
  await git(wt, 'push', '-q', url, 'main', 'feature/deep/name');
});
afterAll(async () => { await s.stop(); });

const root = () => s.hearth.config.server.root_url;
const page = async (path: string, auth?: Auth) => {
  const res = await s.request(path, { auth, redirect: 'manual' });
  return { res, html: await res.text() };
};

describe('web pages: /{owner}/{repo} and /{owner}/{repo}/src/branch/{branch}', () => {
  it('GET /{owner}/{repo} lists the default branch tree as HTML', async () => {
    const { res, html } = await page('alice/public-repo');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toMatch(/<a href="http:\/\/[^"]+\/alice\/public-repo\/src\/branch\/main\/README\.md">README\.md<\/a>/);
    // The branch switcher has the default branch chosen.
    expect(html).toContain('<option value="branch/main" selected>main</option>');
    expect(html).toContain('id="readme"');
  });

  it('GET /{owner}/{repo}/src/branch/{branch} lists that branch', async () => {
    const { res, html } = await page('alice/public-repo/src/branch/main');
    expect(res.status).toBe(200);
    expect(html).toContain('README.md');
  });

  it('takes branch names with slashes, and lists directories first', async () => {
    const { res, html } = await page('alice/pushed/src/branch/feature/deep/name');
    expect(res.status).toBe(200);
    expect(html).toContain('<option value="branch/feature/deep/name" selected>feature/deep/name</option>');
    expect(html).not.toContain('README.md');
    expect(html).toContain('src/branch/feature/deep/name/src">src/</a>');
    expect(html.indexOf('>src/</a>')).toBeLessThan(html.indexOf('.txt</a>'));
    const main = await page('alice/pushed/src/branch/main');
    expect(main.html).toContain('README.md');
  });

  it('escapes file names and descriptions', async () => {
    const { html } = await page('alice/pushed');
    expect(html).not.toContain('<img');
    expect(html).toContain('>&lt;img src=x onerror=&quot;alert(&#39;x&amp;y&#39;)&quot;&gt;.txt</a>');
    const pub = await page('alice/public-repo');
    // The description is text (the README made from it may hold the HTML markdown allows).
    expect(pub.html).toContain('<p class="description">&lt;b&gt;bold&lt;/b&gt; &amp; co</p>');
  });

  it('sends a restrictive Content-Security-Policy', async () => {
    const { res } = await page('alice/public-repo');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('says an empty repository is empty (200)', async () => {
    const { res, html } = await page('alice/empty-repo');
    expect(res.status).toBe(200);
    expect(html).toContain('This repository is empty</h2>');
  });

  it.each([
    'alice/no-such-repo',
    'nobody/public-repo',
    'alice/public-repo/src/branch/no-such-branch',
    'alice/empty-repo/src/branch/main',
    'alice/public-repo/src/branch/..%2F..',
    'alice/public-repo/src/branch/-h',
  ])('answers an HTML 404 page for %s', async (path) => {
    const { res, html } = await page(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('Page Not Found');
  });

  it('hides private repositories from anonymous visitors and other users (404)', async () => {
    expect((await page('alice/private-repo')).res.status).toBe(404);
    expect((await page('alice/private-repo/src/branch/main')).res.status).toBe(404);
    expect((await page('alice/private-repo', { basic: [bob.username, bob.password] })).res.status).toBe(404);
  });

  it('shows private repositories to their owner with Basic credentials', async () => {
    const { res, html } = await page('alice/private-repo', asAlice);
    expect(res.status).toBe(200);
    expect(html).toContain('README.md');
    expect((await page('alice/private-repo/src/branch/main', asAlice)).res.status).toBe(200);
  });

  it('shows private repositories to a token only with repository read scope', async () => {
    const readRepo = await createToken(s, alice, ['read:repository']);
    const readUser = await createToken(s, alice, ['read:user']);
    expect((await page('alice/private-repo', { token: readRepo })).res.status).toBe(200);
    expect((await page('alice/private-repo', { token: readUser })).res.status).toBe(404);
  });

  it('answers 401 with a Basic challenge for wrong credentials', async () => {
    const { res } = await page('alice/public-repo', { basic: ['alice', 'wrong'] });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('redirects the old name of a renamed repository', async () => {
    await createRepo(s, alice, 'old-name', { auto_init: true });
    const patch = await s.request('api/v1/repos/alice/old-name', { method: 'PATCH', auth: asAlice, json: { name: 'new-name' } });
    expect(patch.status).toBe(200);
    const { res } = await page('alice/old-name/src/branch/main');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe(`${root()}alice/new-name/src/branch/main`);
    expect((await page('alice/old-name')).res.headers.get('location')).toBe(`${root()}alice/new-name`);
  });
});

describe('web pages shadow none of the other routes', () => {
  it('leaves the API, swagger, healthz and avatars alone', async () => {
    expect((await s.request('api/v1/version')).status).toBe(200);
    const unknown = await s.request('api/v1/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/json/);
    expect((await s.request('api/swagger')).status).toBe(200);
    expect((await s.request('swagger.v1.json')).status).toBe(200);
    expect((await s.request('api/healthz')).status).toBe(200);
    const avatar = await s.request('avatars/0123456789abcdef');
    expect(avatar.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
  });

  it('leaves git smart HTTP alone', async () => {
    const res = await s.request('alice/public-repo.git/info/refs?service=git-upload-pack');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    const bare = await s.request('alice/public-repo/info/refs?service=git-upload-pack');
    expect(bare.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
  });
});
