import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../../src/db/dialect';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { expectRepoShape } from '../helpers/repo-shape';
import { as, createToken, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';

// POST /repos/migrate with service git: the source is another repository of the same server,
// reached over HTTP (loopback, so the server allows local networks).

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;
let srcHead: string;

const migrate = (who: Creds, body: Record<string, unknown>) =>
  s.request('api/v1/repos/migrate', { method: 'POST', auth: as(who), json: body });
const onDisk = (owner: string, name: string) => fs.existsSync(path.join(s.hearth.config.repository.root, owner, `${name}.git`));
// AUTOINCREMENT (an identity's sequence on PostgreSQL) never reuses an id: the sequence tells
// that a row was made (and removed again).
const repoSeq = async () => (await (dialectOf(s.hearth.db).engine === 'postgres'
  ? sql<{ seq: number }>`SELECT last_value AS seq FROM repository_id_seq`
  : sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'repository'`).execute(s.hearth.db)).rows[0]!.seq;
const names = (list: Array<{ name: string }>) => list.map((x) => x.name).sort();

/**
 * An HTTP source in front of the test server that forwards everything but the pack request
 * (the fetch), which it fails with a 500 or leaves hanging: a source that dies mid-migration.
 */
async function sourceProxy(mode: 'fail' | 'hang'): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(s.hearth.config.server.root_url);
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const raw = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body;
      if (/command=fetch|want [0-9a-f]{40}/.test(raw.toString('latin1'))) {
        if (mode === 'fail') res.writeHead(500).end('boom');
        return;
      }
      const fwd = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.end(body);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  const port = (proxy.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/alice/src.git`,
    close: () => new Promise<void>((r) => { proxy.closeAllConnections(); proxy.close(() => r()); }),
  };
}

beforeAll(async () => {
  s = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'src', { description: 'the source' });
  await createRepo(s, alice, 'secret-src', { private: true });
  const wt = await workTree({ 'README.md': '# src\n' }, 'trunk');
  await git(wt, 'checkout', '-q', '-b', 'dev');
  fs.writeFileSync(path.join(wt, 'dev.txt'), 'dev\n');
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '-m', 'dev work');
  await git(wt, 'checkout', '-q', 'trunk');
  await git(wt, 'tag', 'v1.0');
  srcHead = (await git(wt, 'rev-parse', 'trunk')).trim();
  await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'src', alice.username, alice.password), 'trunk', 'dev', 'v1.0');
  await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'secret-src', alice.username, alice.password), 'trunk', 'dev');
  // The first push made `dev` the default (the first name); the migration must follow the source's.
  for (const name of ['src', 'secret-src']) {
    await ok(await s.request(`api/v1/repos/alice/${name}`, { method: 'PATCH', auth: as(alice), json: { default_branch: 'trunk' } }));
  }
});
afterAll(async () => { await s.stop(); });

describe('POST /repos/migrate (service git)', () => {
  it('clones every branch and tag, keeps the remote default branch and answers the Repository', async () => {
    const res = await migrate(bob, { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'copy', service: 'git', description: 'mine' });
    const body = await ok(res, 201);
    expectRepoShape(body);
    expect(body).toMatchObject({
      full_name: 'bob/copy', empty: false, mirror: false, default_branch: 'trunk', description: 'mine',
      permissions: { admin: true, push: true, pull: true }, mirror_interval: '',
    });
    expect(body.original_url).toBe(remoteUrl(s, 'alice', 'src'));
    expect(names(await ok(await s.request('api/v1/repos/bob/copy/branches', { auth: as(bob) })))).toEqual(['dev', 'trunk']);
    expect(names(await ok(await s.request('api/v1/repos/bob/copy/tags', { auth: as(bob) })))).toEqual(['v1.0']);
    const branch = await ok(await s.request('api/v1/repos/bob/copy/branches/trunk', { auth: as(bob) }));
    expect(branch.commit.id).toBe(srcHead);
    expect(body.size).toBeGreaterThanOrEqual(0);
  });

  it('migrates a private source with auth_username and auth_password, and never shows them', async () => {
    const res = await migrate(bob, {
      clone_addr: remoteUrl(s, 'alice', 'secret-src'), repo_name: 'secret-copy', private: true,
      auth_username: alice.username, auth_password: alice.password,
    });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect(text).not.toContain(alice.password);
    expect(JSON.parse(text)).toMatchObject({ private: true, default_branch: 'trunk', empty: false });
    const dir = path.join(s.hearth.config.repository.root, 'bob', 'secret-copy.git');
    expect(fs.readFileSync(path.join(dir, 'config'), 'utf8')).not.toContain(alice.password);
  });

  it('a wrong password answers 422 without the password and leaves no repository', async () => {
    const res = await migrate(bob, {
      clone_addr: remoteUrl(s, 'alice', 'secret-src'), repo_name: 'nope', auth_username: alice.username, auth_password: 'wrong-pass-123',
    });
    const text = await res.text();
    expect(res.status, text).toBe(422);
    expect(JSON.parse(text).message).toMatch(/Authentication failed|Migration failed/);
    expect(text).not.toContain('wrong-pass-123');
    expect((await s.request('api/v1/repos/bob/nope', { auth: as(bob) })).status).toBe(404);
    expect(onDisk('bob', 'nope')).toBe(false);
  });

  it('a source that dies during the fetch leaves no repository row and no directory', async () => {
    const proxy = await sourceProxy('fail');
    try {
      const seq = await repoSeq();
      const res = await migrate(bob, { clone_addr: proxy.url, repo_name: 'dies' });
      const text = await res.text();
      expect(res.status, text).toBe(422);
      expect(JSON.parse(text).message).toMatch(/^Migration failed/);
      expect((await s.request('api/v1/repos/bob/dies', { auth: as(bob) })).status).toBe(404);
      expect(onDisk('bob', 'dies')).toBe(false);
      expect(await repoSeq()).toBe(seq + 1);
      // The name is free again.
      await ok(await migrate(bob, { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'dies' }), 201);
    } finally {
      await proxy.close();
    }
  });

  it('a source that hangs past [migrations] TIMEOUT is abandoned and leaves nothing', async () => {
    const proxy = await sourceProxy('hang');
    const before = s.hearth.config.migrations.timeout;
    s.hearth.config.migrations.timeout = '1s';
    try {
      const seq = await repoSeq();
      const res = await migrate(bob, { clone_addr: proxy.url, repo_name: 'hangs' });
      const text = await res.text();
      expect(res.status, text).toBe(422);
      expect(JSON.parse(text).message).toMatch(/timed out/);
      expect((await s.request('api/v1/repos/bob/hangs', { auth: as(bob) })).status).toBe(404);
      expect(onDisk('bob', 'hangs')).toBe(false);
      expect(await repoSeq()).toBe(seq + 1);
    } finally {
      s.hearth.config.migrations.timeout = before;
      await proxy.close();
    }
  });

  it('service gitea also imports the selected items through the source API (wiring smoke test)', async () => {
    await ok(await s.request('api/v1/repos/alice/src/labels', { method: 'POST', auth: as(alice), json: { name: 'bug', color: '#ff0000' } }), 201);
    await ok(await s.request('api/v1/repos/alice/src/issues', { method: 'POST', auth: as(alice), json: { title: 'first issue' } }), 201);
    const token = await createToken(s, alice, ['read:repository', 'read:issue', 'read:user']);
    const body = await ok(await migrate(bob, {
      clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'imported', service: 'gitea', auth_token: token, labels: true, issues: true,
    }), 201);
    expect(body).toMatchObject({ full_name: 'bob/imported', default_branch: 'trunk', empty: false });
    const issues = await ok(await s.request('api/v1/repos/bob/imported/issues?state=all', { auth: as(bob) }));
    expect(issues.map((i: { title: string }) => i.title)).toContain('first issue');
    const labels = await ok(await s.request('api/v1/repos/bob/imported/labels', { auth: as(bob) }));
    expect(labels.map((l: { name: string }) => l.name)).toContain('bug');
  });

  it('answers 409 when the name exists', async () => {
    const res = await migrate(bob, { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'copy' });
    expect(res.status).toBe(409);
    expect((await json(res)).message).toBe('The repository with the same name already exists.');
  });

  it('answers 403 for an organization the caller may not create in, 201 for one they own', async () => {
    await ok(await s.request('api/v1/orgs', { method: 'POST', auth: as(alice), json: { username: 'acme' } }), 201);
    const denied = await migrate(bob, { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'x', repo_owner: 'acme' });
    expect(denied.status).toBe(403);
    expect((await s.request('api/v1/repos/acme/x', { auth: as(alice) })).status).toBe(404);
    const other = await migrate(bob, { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'x', repo_owner: 'alice' });
    expect(other.status).toBe(403);
    const body = await ok(await migrate(alice, { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'x', repo_owner: 'acme' }), 201);
    expect(body.full_name).toBe('acme/x');
    const byUid = await ok(await migrate(alice, { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'y', uid: alice.id }), 201);
    expect(byUid.full_name).toBe('alice/y');
  });

  it('answers 422 for unsupported services, bad addresses and missing fields', async () => {
    const svn = await migrate(bob, { clone_addr: 'https://example.com/svn/trunk', repo_name: 'g', service: 'subversion' });
    expect(svn.status).toBe(422);
    expect((await json(svn)).message).toMatch(/not supported/);
    // A forge's address its API cannot be read from, and CodeCommit without its keys: refused up front.
    for (const [service, addr, why] of [
      ['github', 'http://127.0.0.1:9/onlyowner', /Invalid Url/], ['gitlab', 'http://127.0.0.1:9/proj', /Invalid Url/],
      ['codebase', 'http://127.0.0.1:9/a/b/c.git', /Invalid Url/], ['codecommit', 'http://127.0.0.1:9/v1/repos/app', /aws_access_key_id/],
    ] as const) {
      const res = await migrate(bob, { clone_addr: addr, repo_name: `bad-${service}`, service, issues: true });
      expect(res.status, service).toBe(422);
      expect((await json(res)).message).toMatch(why);
    }
    for (const clone_addr of ['not a url', 'ftp://example.com/x.git', '/etc']) {
      const res = await migrate(bob, { clone_addr, repo_name: 'bad' });
      expect(res.status, clone_addr).toBe(422);
    }
    expect((await migrate(bob, { repo_name: 'bad' })).status).toBe(422);
    expect((await migrate(bob, { clone_addr: remoteUrl(s, 'alice', 'src') })).status).toBe(422);
    expect((await migrate(bob, { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'bad name!' })).status).toBe(422);
    expect(onDisk('bob', 'bad')).toBe(false);
  });

  it('answers 401 without credentials', async () => {
    const res = await s.request('api/v1/repos/migrate', { method: 'POST', json: { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'anon' } });
    expect(res.status).toBe(401);
  });
});

describe('POST /repos/migrate with the default [migrations]', () => {
  let plain: TestServer;
  beforeAll(async () => { plain = await startTestServer(); });
  afterAll(async () => { await plain.stop(); });

  it('refuses a loopback source with 422', async () => {
    const carol = await createUser(plain, 'carol');
    const res = await plain.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(carol), json: { clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'copy' },
    });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toBe('You can not import from disallowed hosts.');
    expect((await plain.request('api/v1/repos/carol/copy', { auth: as(carol) })).status).toBe(404);
  });
});
