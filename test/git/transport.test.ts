import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, gitTry, remoteUrl, tempDir, workTree } from '../helpers/git';
import { createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let alice: { username: string; password: string; id: number };
let bob: { username: string; password: string; id: number };
const asAlice = () => ({ auth: { basic: [alice.username, alice.password] as [string, string] } });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'public-repo', { auto_init: true });
  await createRepo(s, alice, 'private-repo', { auto_init: true, private: true });
});
afterAll(async () => { await s.stop(); });

const aliceUrl = (repo: string) => remoteUrl(s, 'alice', repo, alice.username, alice.password);

describe('git smart HTTP: clone and fetch', () => {
  it('clones a public repository anonymously', async () => {
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'public-repo'), 'c');
    expect(fs.readFileSync(path.join(dir, 'c', 'README.md'), 'utf8')).toContain('# public-repo');
  });

  it('clones without the .git suffix too', async () => {
    const dir = tempDir();
    const url = remoteUrl(s, 'alice', 'public-repo').replace(/\.git$/, '');
    await git(dir, 'clone', '-q', url, 'c');
    expect(fs.existsSync(path.join(dir, 'c', 'README.md'))).toBe(true);
  });

  it('asks anonymous callers of a private repository for credentials (401 + WWW-Authenticate)', async () => {
    const res = await s.request('alice/private-repo.git/info/refs?service=git-upload-pack');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    const r = await gitTry(tempDir(), 'clone', '-q', remoteUrl(s, 'alice', 'private-repo'), 'c');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/could not read Username|Authentication failed/);
  });

  it('clones a private repository with the password, and with a token as the password', async () => {
    const dir = tempDir();
    await git(dir, 'clone', '-q', aliceUrl('private-repo'), 'a');
    const token = await createToken(s, alice, ['read:repository']);
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'private-repo', alice.username, token), 'b');
    expect(fs.existsSync(path.join(dir, 'b', 'README.md'))).toBe(true);
  });

  it('routes smart HTTP paths in any letter case, as the other routes are (only git paths reach the git router)', async () => {
    const res = await s.request('alice/public-repo.git/INFO/Refs?service=git-upload-pack');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    // A page beside it is still the page.
    expect((await s.request('alice/public-repo/branches')).headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('answers 404 to a signed-in user without access', async () => {
    const res = await s.request('alice/private-repo.git/info/refs?service=git-upload-pack', { auth: { basic: [bob.username, bob.password] } });
    expect(res.status).toBe(404);
    const r = await gitTry(tempDir(), 'clone', '-q', remoteUrl(s, 'alice', 'private-repo', bob.username, bob.password), 'c');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/not found|404/i);
  });

  it('refuses wrong credentials with 401', async () => {
    const r = await gitTry(tempDir(), 'clone', '-q', remoteUrl(s, 'alice', 'private-repo', alice.username, 'wrong-password'), 'c');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Authentication failed|401/);
  });

  it('serves protocol v2 and v0 alike', async () => {
    const dir = tempDir();
    await git(dir, '-c', 'protocol.version=2', 'clone', '-q', remoteUrl(s, 'alice', 'public-repo'), 'v2');
    await git(dir, '-c', 'protocol.version=0', 'clone', '-q', remoteUrl(s, 'alice', 'public-repo'), 'v0');
    const v2 = await git(path.join(dir, 'v2'), 'rev-parse', 'HEAD');
    expect(await git(path.join(dir, 'v0'), 'rev-parse', 'HEAD')).toBe(v2);
    const adv = await s.request('alice/public-repo.git/info/refs?service=git-upload-pack', { headers: { 'Git-Protocol': 'version=2' } });
    expect(adv.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(await adv.text()).toContain('version 2');
  });

  it('makes shallow clones and fetches new commits', async () => {
    const src = await workTree({ 'a.txt': '1' });
    await createRepo(s, alice, 'shallow');
    await git(src, 'push', '-q', aliceUrl('shallow'), 'main');
    for (let i = 2; i <= 4; i++) {
      fs.writeFileSync(path.join(src, 'a.txt'), String(i));
      await git(src, 'commit', '-qam', `c${i}`);
    }
    await git(src, 'push', '-q', aliceUrl('shallow'), 'main');
    const dir = tempDir();
    await git(dir, 'clone', '-q', '--depth', '1', aliceUrl('shallow'), 'c');
    expect((await git(path.join(dir, 'c'), 'rev-list', '--count', 'HEAD')).trim()).toBe('1');
    fs.writeFileSync(path.join(src, 'a.txt'), '5');
    await git(src, 'commit', '-qam', 'c5');
    await git(src, 'push', '-q', aliceUrl('shallow'), 'main');
    await git(path.join(dir, 'c'), 'fetch', '-q', '--unshallow');
    expect((await git(path.join(dir, 'c'), 'rev-list', '--count', 'origin/main')).trim()).toBe('5');
  });
});

describe('git smart HTTP: push', () => {
  it('a first push to an empty repository sets its default branch and fills the metadata', async () => {
    await createRepo(s, alice, 'empty-one', { default_branch: 'main' });
    const src = await workTree({ 'x.txt': 'x' }, 'trunk');
    await git(src, 'push', '-q', aliceUrl('empty-one'), 'trunk');
    const repo = await json(await s.request('api/v1/repos/alice/empty-one', asAlice()));
    expect(repo.empty).toBe(false);
    expect(repo.default_branch).toBe('trunk');
    const dir = tempDir();
    await git(dir, 'clone', '-q', aliceUrl('empty-one'), 'c');
    expect((await git(path.join(dir, 'c'), 'branch', '--show-current')).trim()).toBe('trunk');
  });

  it('pushes branches and tags, force-pushes, and deletes a branch by push', async () => {
    await createRepo(s, alice, 'pushy');
    const src = await workTree({ 'a.txt': 'a' });
    const url = aliceUrl('pushy');
    await git(src, 'push', '-q', url, 'main', 'main:feature');
    await git(src, 'tag', '-a', 'v1.0', '-m', 'one');
    await git(src, 'tag', 'light');
    await git(src, 'push', '-q', url, '--tags');
    const refs = await git(src, 'ls-remote', url);
    expect(refs).toMatch(/refs\/heads\/feature/);
    expect(refs).toMatch(/refs\/tags\/v1\.0\^\{\}/);
    expect(refs).toMatch(/refs\/tags\/light/);

    await git(src, 'commit', '-q', '--amend', '-m', 'rewritten');
    expect((await gitTry(src, 'push', '-q', url, 'main:feature')).code).not.toBe(0);
    await git(src, 'push', '-q', '--force', url, 'main:feature');
    const local = (await git(src, 'rev-parse', 'HEAD')).trim();
    expect(await git(src, 'ls-remote', url, 'refs/heads/feature')).toContain(local);

    await git(src, 'push', '-q', url, ':feature');
    expect(await git(src, 'ls-remote', url, 'refs/heads/feature')).toBe('');
  });

  it('refuses to delete the default branch by push', async () => {
    await createRepo(s, alice, 'keep-default', { auto_init: true });
    const r = await gitTry(await workTree({ 'e.txt': 'e' }), 'push', aliceUrl('keep-default'), ':main');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('default branch');
  });

  it('needs write access: anonymous 401, readers 403, non-collaborators 404 on private', async () => {
    const src = await workTree({ 'b.txt': 'b' }, 'other');
    const anon = await gitTry(src, 'push', remoteUrl(s, 'alice', 'public-repo'), 'other');
    expect(anon.code).not.toBe(0);
    expect(anon.stderr).toMatch(/could not read Username|Authentication failed/);
    const reader = await gitTry(src, 'push', remoteUrl(s, 'alice', 'public-repo', bob.username, bob.password), 'other');
    expect(reader.code).not.toBe(0);
    expect(reader.stderr).toMatch(/403/);
    const res = await s.request('alice/public-repo.git/info/refs?service=git-receive-pack', { auth: { basic: [bob.username, bob.password] } });
    expect(res.status).toBe(403);
  });

  it('refuses a push with a read-only token', async () => {
    const token = await createToken(s, alice, ['read:repository']);
    const src = await workTree({ 'c.txt': 'c' }, 'tok');
    const r = await gitTry(src, 'push', remoteUrl(s, 'alice', 'public-repo', alice.username, token), 'tok');
    expect(r.code).not.toBe(0);
    const write = await createToken(s, alice, ['write:repository']);
    await git(src, 'push', '-q', remoteUrl(s, 'alice', 'public-repo', alice.username, write), 'tok');
  });

  it('refuses pushes to an archived repository', async () => {
    await createRepo(s, alice, 'frozen', { auto_init: true });
    const patched = await s.request('api/v1/repos/alice/frozen', { method: 'PATCH', ...asAlice(), json: { archived: true } });
    expect(patched.status).toBe(200);
    const src = await workTree({ 'd.txt': 'd' }, 'new');
    const r = await gitTry(src, 'push', aliceUrl('frozen'), 'new');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/403|archived/);
    const dir = tempDir();
    await git(dir, 'clone', '-q', aliceUrl('frozen'), 'c');
  });

  it('accepts gzip-compressed request bodies', async () => {
    const adv = await s.request('alice/public-repo.git/info/refs?service=git-upload-pack');
    const head = /([0-9a-f]{40}) HEAD/.exec(await adv.text())![1];
    const { gzipSync } = await import('node:zlib');
    const pkt = (l: string) => `${(l.length + 4).toString(16).padStart(4, '0')}${l}`;
    const body = gzipSync(Buffer.from(`${pkt(`want ${head}\n`)}0000${pkt('done\n')}`));
    const res = await s.request('alice/public-repo.git/git-upload-pack', {
      method: 'POST', body, headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Content-Encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    const out = Buffer.from(await res.arrayBuffer());
    expect(out.includes(Buffer.from('PACK'))).toBe(true);
  });

  it('follows a renamed repository', async () => {
    await createRepo(s, alice, 'old-name', { auto_init: true });
    const patched = await s.request('api/v1/repos/alice/old-name', { method: 'PATCH', ...asAlice(), json: { name: 'new-name' } });
    expect(patched.status).toBe(200);
    const dir = tempDir();
    await git(dir, 'clone', '-q', aliceUrl('old-name'), 'c');
    expect(fs.existsSync(path.join(dir, 'c', 'README.md'))).toBe(true);
  });
});
