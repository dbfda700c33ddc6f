import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPendingOp } from '../../src/models/pending-op';
import { recoverPush } from '../../src/services/repo/ref-intent';
import { crashTmp, killedBy, startCrashable, stopAndDoctor } from '../helpers/crash';
import { createRepo, git } from '../helpers/git';
import { startReceiver } from '../helpers/receiver';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Ref moves killed after git moved the refs and before the database followed: the next start
// syncs and announces what landed (pushes and API commits have intents), and after an unclean
// stop the branch rows of moves without one are resynced in the background.

const env = { HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' };
type Hook = { ref: string; after: string; pusher: { login: string } };

describe('ref moves cut short by a crash', () => {
  it('are synced and their webhooks sent at the next start (regression: the push landed, its events were lost for good)', async () => {
    const rx = await startReceiver();
    const hooks = () => rx.requests.map((r) => JSON.parse(r.body) as Hook);
    const data = crashTmp('hearth-crash-push-');
    let server = await startCrashable(data, undefined, env);
    try {
      await ok(await server.call('user/repos', 'POST', { name: 'proj', auto_init: true }), 201);
      await ok(await server.call('repos/root/proj/hooks', 'POST', { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['push'] }), 201);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      // A push of two branches, killed after git took it and before the database followed.
      server = await startCrashable(data, 'push.before-sync', env);
      const work = crashTmp('hearth-crash-push-wt-');
      await git(work, 'clone', '-q', `${server.url.replace('://', `://root:${server.password}@`)}/root/proj.git`, 'c');
      const wt = path.join(work, 'c');
      fs.writeFileSync(path.join(wt, 'new.txt'), 'pushed before the crash\n');
      await git(wt, 'add', '.');
      await git(wt, '-c', 'user.name=Root', '-c', 'user.email=root@example.com', 'commit', '-q', '-m', 'Landed');
      await git(wt, 'checkout', '-q', '-b', 'topic');
      await killedBy(server, git(wt, 'push', '-q', 'origin', 'main', 'topic'));
      const landed = (await git(wt, 'rev-parse', 'HEAD')).trim();
      server = await startCrashable(data, undefined, env);
      expect(server.out()).toContain('recovered work a crash interrupted');
      const branches = await ok(await server.call('repos/root/proj/branches')) as { name: string; commit: { id: string } }[];
      expect(branches.map((b) => [b.name, b.commit.id]).sort()).toEqual([['main', landed], ['topic', landed]]);
      // One delivery job per branch: they need not arrive in order.
      await eventually(async () => hooks().some((h) => h.after === landed && h.ref === 'refs/heads/main')
        && hooks().some((h) => h.ref === 'refs/heads/topic'), 15_000, 'push webhooks of both branches');
      expect(hooks().find((h) => h.ref === 'refs/heads/main')!.pusher.login).toBe('root');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      // A commit through the contents API, killed after the branch moved.
      server = await startCrashable(data, 'refs.after-move', env);
      await killedBy(server, server.call('repos/root/proj/contents/api.txt', 'POST', { content: Buffer.from('via the API\n').toString('base64'), message: 'API commit' }));
      server = await startCrashable(data, undefined, env);
      const main = await ok(await server.call('repos/root/proj/branches/main')) as { commit: { id: string; message: string } };
      expect(main.commit.message.trim()).toBe('API commit');
      await eventually(async () => hooks().some((h) => h.after === main.commit.id), 15_000, 'webhook of the API commit');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      // A branch deleted through the API (no intent), killed after git: the start after an
      // unclean stop resyncs the branch rows in the background.
      // The lock a git killed with the server leaves (as receive-pack or update-ref would): the
      // start after an unclean stop removes it, or main could never move again (409 for good).
      server = await startCrashable(data, 'branch.after-delete', env);
      await killedBy(server, server.call('repos/root/proj/branches/topic', 'DELETE'));
      fs.writeFileSync(path.join(data, 'repositories', 'root', 'proj.git', 'refs', 'heads', 'main.lock'), '');
      server = await startCrashable(data, undefined, env);
      expect(server.out()).toContain('removed git lock files a killed process left');
      await eventually(async () => /branch rows checked against git after an unclean stop/.test(server.out()), 15_000, 'resync after the unclean stop');
      expect((await server.call('repos/root/proj/branches/topic')).status).toBe(404);
      await ok(await server.call('repos/root/proj/contents/after.txt', 'POST', { content: Buffer.from('after\n').toString('base64'), message: 'After' }), 201);
      await stopAndDoctor(server, data);
    } finally {
      server.child.kill('SIGKILL');
      await rx.close();
    }
  }, 120_000);
});

describe('an API commit left half-recorded by a dead node', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer(); });
  afterAll(async () => { await s.stop(); });

  it('is announced before the next commit moves main on, and its recovery still counts it landed (regression: its push was lost)', async () => {
    const dora = await createUser(s, 'dora');
    await createRepo(s, dora, 'proj', { auto_init: true, default_branch: 'main' });
    const api = (p: string, method = 'GET', body?: unknown) => s.request(`api/v1/repos/dora/proj/${p}`, { method, auth: as(dora), json: body });
    const bare = path.join(s.hearth.config.repository.root, 'dora', 'proj.git');
    // What a node killed at refs.after-move leaves: main on a commit nobody announced, the intent.
    const before = (await git(bare, 'rev-parse', 'main')).trim();
    const left = (await git(bare, 'commit-tree', '-p', before, '-m', 'Left behind', `${before}^{tree}`)).trim();
    await git(bare, 'update-ref', 'refs/heads/main', left, before);
    const update = { ref: 'refs/heads/main', oldId: before, newId: left };
    const intent = { repoId: (await ok(await api(''))).id as number, doerId: dora.id, updates: [update], source: 'commit' as const };
    await addPendingOp(s.hearth.db, 'push', intent, 'a-dead-node');

    const next = await ok(await api('contents/next.txt', 'POST', { branch: 'main', content: Buffer.from('next\n').toString('base64') }), 201);
    expect((await git(bare, 'rev-parse', 'main^')).trim()).toBe(left);
    const feed = await ok(await api('activities/feeds')) as { op_type: string; content: string }[];
    const heads = feed.filter((a) => a.op_type === 'commit_repo').map((a) => JSON.parse(a.content).HeadCommit.Sha1);
    expect(heads.slice(0, 2)).toEqual([next.commit.sha, left]);
    expect(await s.hearth.db.selectFrom('pending_op').select('id').execute()).toEqual([]);
    // Adopted after main moved on, the recovery still finds it landed (under the newer commit).
    expect(await recoverPush(s.hearth, intent)).toContain('synced 1 of 1');
  });
});
