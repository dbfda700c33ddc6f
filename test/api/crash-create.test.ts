import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deleteBranchRows } from '../../src/models/branch';
import { updateRepo } from '../../src/models/repo';
import { recoverRepoCreate } from '../../src/services/recovery/repo-create-recovery';
import { crashTmp, killedBy, startCrashable, stopAndDoctor } from '../helpers/crash';
import { basicHeader, createUser, ok, startTestServer } from '../helpers/server';

// Repository creation (create, fork, generate) killed between its steps (SIGKILL at a crash
// point, as a power loss would stop it): the next start removes a directory whose row never
// committed, or syncs a committed repository the database did not yet show as filled.

/** alice's credentials: she forks. */
const aliceAuth = basicHeader('alice', 'alice-password');

/** The request the crash point stops: an answer means the crash point was not reached. */
describe('repository creation cut short by a crash', () => {
  it('frees the name of a create killed before its row committed, and start clears cut-short uploads (regression: a directory without a row, 409 "repository files already exist" for good)', async () => {
    const data = crashTmp('hearth-crash-create-');
    const first = await startCrashable(data, 'repo-create.before-commit');
    await killedBy(first, first.call('user/repos', 'POST', { name: 'proj', auto_init: true, license: 'MIT' }));
    const dir = path.join(data, 'repositories', 'root', 'proj.git');
    expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);
    // An attachment upload the same kill cut short.
    const uploads = path.join(data, 'tmp', 'uploads');
    fs.mkdirSync(uploads, { recursive: true });
    fs.writeFileSync(path.join(uploads, '0f1e2d3c4b5a69788796a5b4c3d2e1f0'), Buffer.alloc(64 * 1024));
    // And the node directory (uploads, push handshakes) of the killed run.
    const killedRun = path.join(data, 'tmp', 'node-killed-run');
    fs.mkdirSync(path.join(killedRun, 'push-abc'), { recursive: true });
    fs.writeFileSync(path.join(killedRun, 'spooled'), 'partial');

    const server = await startCrashable(data);
    try {
      expect(server.out()).toContain('recovered work a crash interrupted');
      expect(fs.existsSync(dir)).toBe(false);
      expect(fs.readdirSync(uploads)).toEqual([]);
      expect(fs.existsSync(killedRun)).toBe(false);
      expect((await server.call('repos/root/proj')).status).toBe(404);
      const repo = await ok(await server.call('user/repos', 'POST', { name: 'proj', auto_init: true, license: 'MIT' }), 201);
      expect(repo.empty).toBe(false);
      expect((await ok(await server.call('repos/root/proj/branches'))).map((b: { name: string }) => b.name)).toEqual(['main']);
      await stopAndDoctor(server, data);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('shows the branch and first commit of a create killed after its row committed (regression: empty, no branches, /commits 409 until a push)', async () => {
    const data = crashTmp('hearth-crash-create-');
    const first = await startCrashable(data, 'repo-create.after-commit');
    await killedBy(first, first.call('user/repos', 'POST', { name: 'proj', auto_init: true, license: 'MIT' }));

    const server = await startCrashable(data);
    try {
      const repo = await ok(await server.call('repos/root/proj'));
      expect(repo.empty).toBe(false);
      expect(repo.licenses).toEqual(['MIT']);
      const branches = await ok(await server.call('repos/root/proj/branches'));
      expect(branches.map((b: { name: string }) => b.name)).toEqual(['main']);
      const commits = await ok(await server.call('repos/root/proj/commits'));
      expect(commits.map((c: { commit: { message: string } }) => c.commit.message.trim())).toEqual(['Initial commit']);
      expect(commits[0].sha).toBe(branches[0].commit.id);
      await ok(await server.call('repos/root/proj/contents/README.md'));
      // The event the request never sent: the feed shows the creation.
      const feed = await ok(await server.call('users/root/activities/feeds?only-performed-by=true'));
      expect(feed.some((a: { op_type: string }) => a.op_type === 'create_repo')).toBe(true);
      await stopAndDoctor(server, data);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('lets a fork killed mid-copy be tried again (regression: the fork\'s directory stayed without a row, every retry 409)', async () => {
    const data = crashTmp('hearth-crash-fork-');
    const first = await startCrashable(data, 'repo-fork.before-commit');
    await ok(await first.call('user/repos', 'POST', { name: 'proj', auto_init: true }), 201);
    await ok(await first.call('admin/users', 'POST', { username: 'alice', email: 'alice@example.com', password: 'alice-password', must_change_password: false }), 201);
    await killedBy(first, first.call('repos/root/proj/forks', 'POST', {}, aliceAuth));
    const dir = path.join(data, 'repositories', 'alice', 'proj.git');
    expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);

    const server = await startCrashable(data);
    try {
      expect(fs.existsSync(dir)).toBe(false);
      expect((await server.call('repos/alice/proj')).status).toBe(404);
      expect((await ok(await server.call('repos/root/proj'))).forks_count).toBe(0);
      const fork = await ok(await server.call('repos/root/proj/forks', 'POST', {}, aliceAuth), 202);
      expect(fork.full_name).toBe('alice/proj');
      expect(fork.empty).toBe(false);
      expect((await ok(await server.call('repos/alice/proj/branches', 'GET', undefined, aliceAuth))).map((b: { name: string }) => b.name)).toEqual(['main']);
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
      const kept = await recoverRepoCreate(s.hearth, { step: 'files', ownerId: alice.id, ownerName: 'alice', name: 'proj', dir });
      expect(kept).toMatch(/^kept /);
      expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);
      // A 'sync' intent: the database as a crash before the sync left it.
      await deleteBranchRows(db, repo.id, ['main']);
      await updateRepo(db, repo.id, { is_empty: 1 });
      const intent = { step: 'sync' as const, repoId: repo.id, doerId: alice.id, forkOf: null };
      await recoverRepoCreate(s.hearth, intent);
      await recoverRepoCreate(s.hearth, intent);
      const after = await ok(await s.request('api/v1/repos/alice/proj', { auth }));
      expect(after.empty).toBe(false);
      const branches = await ok(await s.request('api/v1/repos/alice/proj/branches', { auth }));
      expect(branches.map((b: { name: string }) => b.name)).toEqual(['main']);
      // Nothing left to undo: a 'files' intent whose directory never came to be.
      const none = await recoverRepoCreate(s.hearth, { step: 'files', ownerId: alice.id, ownerName: 'alice', name: 'other', dir: path.join(path.dirname(dir), 'other.git') });
      expect(none).toMatch(/^nothing made/);
    } finally {
      await s.stop();
    }
  });
});
