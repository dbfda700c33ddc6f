import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteBranchRows } from '../../src/models/branch';
import { updateRepo } from '../../src/models/repo';
import { recoverRepoCreate } from '../../src/services/recovery/repo-create-recovery';
import { runHearth, startHearthProcess, type HearthProcess } from '../helpers/process';
import { basicHeader, createUser, ok, startTestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Repository creation (create, fork, generate) killed between its steps (SIGKILL at a crash
// point, as a power loss would stop it): the next start removes a directory whose row never
// committed, or syncs a committed repository the database did not yet show as filled.

const dirs: string[] = [];
const tmp = (prefix: string) => { const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix)); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

type Api = (p: string, method?: string, json?: unknown, user?: string) => Promise<Response>;

/** The first start: the first admin's password, usable at once, and a caller for any server. */
async function firstStart(data: string, crashAt: string): Promise<{ server: HearthProcess; api: (s: HearthProcess) => Api }> {
  const server = await startHearthProcess(data, { HEARTH_TEST_CRASH_AT: crashAt });
  await eventually(async () => /password:\s+\S+/.test(server.out()), 10_000, 'first admin printed');
  const password = /password:\s+(\S+)/.exec(server.out())![1]!;
  const auths: Record<string, string> = { root: basicHeader('root', password), alice: basicHeader('alice', 'alice-password') };
  const api = (s: HearthProcess): Api => (p, method = 'GET', json, user = 'root') => fetch(`${s.url}/api/v1/${p}`, {
    method, headers: { Authorization: auths[user]!, 'Content-Type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json),
  });
  await ok(await api(server)('admin/users/root', 'PATCH', { login_name: 'root', source_id: 0, must_change_password: false }));
  return { server, api };
}

/** The request the crash point stops: the connection drops, the process is gone. */
async function killedBy(server: HearthProcess, request: Promise<Response>): Promise<void> {
  await request.then(() => { throw new Error('the request answered: the crash point was not reached'); }, () => undefined);
  expect(await server.exited).not.toBe(0);
}

async function stopAndDoctor(server: HearthProcess, data: string): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  const doctor = await runHearth(['doctor', '--data', data]);
  expect(doctor.code, doctor.out + doctor.err).toBe(0);
}

describe('repository creation cut short by a crash', () => {
  it('frees the name of a create killed before its row committed, and start clears cut-short uploads (regression: a directory without a row, 409 "repository files already exist" for good)', async () => {
    const data = tmp('hearth-crash-create-');
    const { server: first, api } = await firstStart(data, 'repo-create.before-commit');
    await killedBy(first, api(first)('user/repos', 'POST', { name: 'proj', auto_init: true, license: 'MIT' }));
    const dir = path.join(data, 'repositories', 'root', 'proj.git');
    expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);
    // An attachment upload the same kill cut short.
    const uploads = path.join(data, 'tmp', 'uploads');
    fs.mkdirSync(uploads, { recursive: true });
    fs.writeFileSync(path.join(uploads, '0f1e2d3c4b5a69788796a5b4c3d2e1f0'), Buffer.alloc(64 * 1024));

    const server = await startHearthProcess(data);
    try {
      expect(server.out()).toContain('recovered work a crash interrupted');
      expect(fs.existsSync(dir)).toBe(false);
      expect(fs.readdirSync(uploads)).toEqual([]);
      const call = api(server);
      expect((await call('repos/root/proj')).status).toBe(404);
      const repo = await ok(await call('user/repos', 'POST', { name: 'proj', auto_init: true, license: 'MIT' }), 201);
      expect(repo.empty).toBe(false);
      expect((await ok(await call('repos/root/proj/branches'))).map((b: { name: string }) => b.name)).toEqual(['main']);
      await stopAndDoctor(server, data);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('shows the branch and first commit of a create killed after its row committed (regression: empty, no branches, /commits 409 until a push)', async () => {
    const data = tmp('hearth-crash-create-');
    const { server: first, api } = await firstStart(data, 'repo-create.after-commit');
    await killedBy(first, api(first)('user/repos', 'POST', { name: 'proj', auto_init: true, license: 'MIT' }));

    const server = await startHearthProcess(data);
    try {
      const call = api(server);
      const repo = await ok(await call('repos/root/proj'));
      expect(repo.empty).toBe(false);
      expect(repo.licenses).toEqual(['MIT']);
      const branches = await ok(await call('repos/root/proj/branches'));
      expect(branches.map((b: { name: string }) => b.name)).toEqual(['main']);
      const commits = await ok(await call('repos/root/proj/commits'));
      expect(commits.map((c: { commit: { message: string } }) => c.commit.message.trim())).toEqual(['Initial commit']);
      expect(commits[0].sha).toBe(branches[0].commit.id);
      await ok(await call('repos/root/proj/contents/README.md'));
      // The event the request never sent: the feed shows the creation.
      const feed = await ok(await call('users/root/activities/feeds?only-performed-by=true'));
      expect(feed.some((a: { op_type: string }) => a.op_type === 'create_repo')).toBe(true);
      await stopAndDoctor(server, data);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('lets a fork killed mid-copy be tried again (regression: the fork\'s directory stayed without a row, every retry 409)', async () => {
    const data = tmp('hearth-crash-fork-');
    const { server: first, api } = await firstStart(data, 'repo-fork.before-commit');
    const before = api(first);
    await ok(await before('user/repos', 'POST', { name: 'proj', auto_init: true }), 201);
    await ok(await before('admin/users', 'POST', { username: 'alice', email: 'alice@example.com', password: 'alice-password', must_change_password: false }), 201);
    await killedBy(first, before('repos/root/proj/forks', 'POST', {}, 'alice'));
    const dir = path.join(data, 'repositories', 'alice', 'proj.git');
    expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);

    const server = await startHearthProcess(data);
    try {
      const call = api(server);
      expect(fs.existsSync(dir)).toBe(false);
      expect((await call('repos/alice/proj')).status).toBe(404);
      expect((await ok(await call('repos/root/proj'))).forks_count).toBe(0);
      const fork = await ok(await call('repos/root/proj/forks', 'POST', {}, 'alice'), 202);
      expect(fork.full_name).toBe('alice/proj');
      expect(fork.empty).toBe(false);
      expect((await ok(await call('repos/alice/proj/branches', 'GET', undefined, 'alice'))).map((b: { name: string }) => b.name)).toEqual(['main']);
      await stopAndDoctor(server, data);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('recoverRepoCreate', () => {
  it('keeps a directory a repository took since, and syncs a committed one (twice as once)', async () => {
    const s = await startTestServer();
    try {
      const { db, config } = s.hearth;
      const alice = await createUser(s, 'alice');
      const auth = { basic: [alice.username, alice.password] as [string, string] };
      const repo = await ok(await s.request('api/v1/user/repos', { method: 'POST', auth, json: { name: 'proj', auto_init: true } }), 201);
      const dir = path.join(config.repository.root, 'alice', 'proj.git');
      // A 'files' intent left from before: the name is a live repository's now, its files stay.
      const kept = await recoverRepoCreate(db, config, { step: 'files', ownerId: alice.id, ownerName: 'alice', name: 'proj', dir });
      expect(kept).toMatch(/^kept /);
      expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);
      // A 'sync' intent: the database as a crash before the sync left it.
      await deleteBranchRows(db, repo.id, ['main']);
      await updateRepo(db, repo.id, { is_empty: 1 });
      const intent = { step: 'sync' as const, repoId: repo.id, doerId: alice.id, forkOf: null };
      await recoverRepoCreate(db, config, intent);
      await recoverRepoCreate(db, config, intent);
      const after = await ok(await s.request('api/v1/repos/alice/proj', { auth }));
      expect(after.empty).toBe(false);
      const branches = await ok(await s.request('api/v1/repos/alice/proj/branches', { auth }));
      expect(branches.map((b: { name: string }) => b.name)).toEqual(['main']);
      // Nothing left to undo: a 'files' intent whose directory never came to be.
      const none = await recoverRepoCreate(db, config, { step: 'files', ownerId: alice.id, ownerName: 'alice', name: 'other', dir: path.join(path.dirname(dir), 'other.git') });
      expect(none).toMatch(/^nothing made/);
    } finally {
      await s.stop();
    }
  });
});
