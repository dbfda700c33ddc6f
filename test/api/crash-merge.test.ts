import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git } from '../helpers/git';
import { crashTmp, killedBy, startCrashable, stopAndDoctor, type CrashCall, type Crashable } from '../helpers/crash';
import { as, cloneWork, ok } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { addPendingOp } from '../../src/models/pending-op';
import type { MergeIntent } from '../../src/services/pull/pull-merge-land';
import { recoverMerge } from '../../src/services/recovery/merge-recovery';

// A pull request merge killed (SIGKILL at a crash point, as a power loss would stop it) after
// the base branch moved and before the database recorded the merge: the next start finishes
// the bookkeeping, so the pull request reads merged and a retry cannot merge it a second time.

/** Commits `file` on `branch` (made from main when new) through the contents API. */
async function commitFile(call: CrashCall, branch: string, file: string, fresh: boolean): Promise<void> {
  const body = { content: Buffer.from(`${file} on ${branch}\n`).toString('base64'), message: `Add ${file}`, ...(fresh ? { branch: 'main', new_branch: branch } : { branch }) };
  await ok(await call(`repos/root/proj/contents/${file}`, 'POST', body), 201);
}

/** A merge request whose answer never comes: the server kills itself at the crash point. */
const mergeUntilKilled = (server: Crashable, index: number, body: object): Promise<void> =>
  killedBy(server, server.call(`repos/root/proj/pulls/${index}/merge`, 'POST', body));

/** Recovered at start: merged by root at the commit main now holds; a retry is refused as for any merged pull request. */
async function expectRecoveredMerge(server: Crashable, bare: string, index: number, style: string): Promise<string> {
  expect(server.out()).toContain('recovered work a crash interrupted');
  const tip = (await git(bare, 'rev-parse', 'main')).trim();
  const pr = await ok(await server.call(`repos/root/proj/pulls/${index}`), 200);
  expect([pr.merged, pr.state, pr.merged_by?.login, pr.merge_commit_sha]).toEqual([true, 'closed', 'root', tip]);
  expect((await server.call(`repos/root/proj/pulls/${index}/merge`)).status).toBe(204);
  const retry = await server.call(`repos/root/proj/pulls/${index}/merge`, 'POST', { Do: style });
  expect(retry.status, await retry.text()).toBe(405);
  expect((await git(bare, 'rev-parse', 'main')).trim()).toBe(tip);
  const timeline = await ok(await server.call(`repos/root/proj/issues/${index}/timeline`), 200) as { type: string }[];
  expect(timeline.filter((e) => e.type === 'merge_pull')).toHaveLength(1);
  const branch = await ok(await server.call('repos/root/proj/branches/main'), 200);
  expect(branch.commit.id).toBe(tip);
  return tip;
}

describe('a pull request merge cut short by a crash', () => {
  it('is finished at the next start, squash and merge (regression: main held the merge, the pull request read open and a retry merged it twice)', async () => {
    const data = crashTmp('hearth-crash-merge-');
    const bare = path.join(data, 'repositories', 'root', 'proj.git');
    let server = await startCrashable(data, 'merge.after-ref');
    await ok(await server.call('user/repos', 'POST', { name: 'proj', auto_init: true }), 201);
    await commitFile(server.call, 'topic-a', 'a.txt', true);
    await commitFile(server.call, 'topic-b', 'b.txt', true);
    await ok(await server.call('repos/root/proj/pulls', 'POST', { title: 'A', head: 'topic-a', base: 'main' }), 201);
    await ok(await server.call('repos/root/proj/pulls', 'POST', { title: 'B', head: 'topic-b', base: 'main' }), 201);
    const before = (await git(bare, 'rev-parse', 'main')).trim();
    const headB = (await git(bare, 'rev-parse', 'topic-b')).trim();
    await mergeUntilKilled(server, 1, { Do: 'squash' });

    server = await startCrashable(data, 'merge.after-ref');
    try {
      const squashed = await expectRecoveredMerge(server, bare, 1, 'squash');
      // Exactly one squash commit on the old base.
      expect((await git(bare, 'rev-parse', 'main~1')).trim()).toBe(before);
      await mergeUntilKilled(server, 2, { Do: 'merge', delete_branch_after_merge: true });

      server = await startCrashable(data);
      const merged = await expectRecoveredMerge(server, bare, 2, 'merge');
      // One merge commit, of the squash and the head; the head branch deleted as asked.
      expect((await git(bare, 'rev-list', '--parents', '-n', '1', merged)).trim()).toBe(`${merged} ${squashed} ${headB}`);
      expect((await git(bare, 'rev-list', '--merges', 'main')).trim().split('\n')).toEqual([merged]);
      expect((await server.call('repos/root/proj/branches/topic-b')).status).toBe(404);
      await stopAndDoctor(server, data);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('announces the base push once when killed after the refs sync (regression: the merge and its events were lost)', async () => {
    const data = crashTmp('hearth-crash-merge-sync-');
    const bare = path.join(data, 'repositories', 'root', 'proj.git');
    let server = await startCrashable(data, 'merge.after-sync');
    await ok(await server.call('user/repos', 'POST', { name: 'proj', auto_init: true }), 201);
    await commitFile(server.call, 'topic-c', 'c.txt', true);
    await commitFile(server.call, 'topic-c', 'd.txt', false);
    await ok(await server.call('repos/root/proj/pulls', 'POST', { title: 'C', head: 'topic-c', base: 'main' }), 201);
    const before = (await git(bare, 'rev-parse', 'main')).trim();
    await mergeUntilKilled(server, 1, { Do: 'rebase' });

    server = await startCrashable(data);
    try {
      await expectRecoveredMerge(server, bare, 1, 'rebase');
      expect((await git(bare, 'rev-parse', 'main~2')).trim()).toBe(before);
      const feed = await ok(await server.call('repos/root/proj/activities/feeds'), 200) as { op_type: string; ref_name: string }[];
      expect(feed.filter((a) => a.op_type === 'commit_repo' && a.ref_name === 'refs/heads/main')).toHaveLength(1);
      expect(feed.filter((a) => a.op_type === 'merge_pull_request')).toHaveLength(1);
      await stopAndDoctor(server, data);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('recoverMerge', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer(); });
  afterAll(async () => { await s.stop(); });

  /** `owner`/proj (a user of its own) with a pull request of `topic` (two commits) into main, and the intent of merging its first commit. */
  async function pullWithIntent(owner: string) {
    const alice = await createUser(s, owner);
    const name = 'proj';
    await createRepo(s, alice, name, { auto_init: true, default_branch: 'main' });
    const work = await cloneWork(s, owner, name, alice);
    const head = await work.branch('topic', { 'x.txt': 'x\n', 'y.txt': 'y\n' });
    const api = (p: string, method = 'GET', body?: unknown) => s.request(`api/v1/repos/${owner}/${name}/${p}`, { method, auth: as(alice), json: body });
    const pr = await ok(await api('pulls', 'POST', { head: 'topic', base: 'main', title: 'Topic' }), 201);
    const issue = await ok(await api(`issues/${pr.number}`));
    const bare = path.join(s.hearth.config.repository.root, owner, `${name}.git`);
    const before = (await git(bare, 'rev-parse', 'main')).trim();
    const landed = (await git(bare, 'rev-parse', `${head}~1`)).trim();
    const user = await ok(await s.request('api/v1/user', { auth: as(alice) }));
    const intent: MergeIntent = {
      repoId: pr.base.repo_id, issueId: issue.id, index: pr.number, baseBranch: 'main',
      oldSha: before, commit: landed, doerId: user.id, auto: false, deleteBranch: true,
    };
    const mergeEvents = async () => ((await ok(await api(`issues/${pr.number}/timeline`))) as { type: string }[]).filter((e) => e.type === 'merge_pull');
    return { api, pr, bare, before, head, landed, intent, mergeEvents };
  }

  it('finishes a merge whose base holds the commit, leaves one whose base never moved, and runs again harmlessly', async () => {
    const { api, pr, bare, before, head, landed, intent, mergeEvents } = await pullWithIntent('alice');
    expect(await recoverMerge(s.hearth, intent)).toContain('never moved');
    expect((await ok(await api(`pulls/${pr.number}`))).merged).toBe(false);
    // The base moved past the merge (it contains it): finished, as the merge would have.
    await git(bare, 'update-ref', 'refs/heads/main', head, before);
    expect(await recoverMerge(s.hearth, intent)).toContain('finished');
    const merged = await ok(await api(`pulls/${pr.number}`));
    expect([merged.merged, merged.merged_by.login, merged.merge_commit_sha]).toEqual([true, 'alice', landed]);
    expect((await ok(await api('branches/main'))).commit.id).toBe(head);
    expect((await api('branches/topic')).status).toBe(404);
    expect(await recoverMerge(s.hearth, intent)).toBe('already merged');
    expect(await mergeEvents()).toHaveLength(1);
  });

  it('records the merge once when two nodes finish it at once (regression: both passed the merged check, two merge events)', async () => {
    const { api, pr, bare, before, head, intent, mergeEvents } = await pullWithIntent('twice');
    await git(bare, 'update-ref', 'refs/heads/main', head, before);
    const outcomes = await Promise.all([recoverMerge(s.hearth, intent), recoverMerge(s.hearth, intent)]);
    expect(outcomes.filter((o) => o.startsWith('finished'))).toHaveLength(1);
    expect(outcomes).toContain('already merged');
    expect(await mergeEvents()).toHaveLength(1);
    expect((await ok(await api(`pulls/${pr.number}`))).merged).toBe(true);
  });

  it('a merge retried while the intent of a landed merge is left finishes that one (regression: merged a second time)', async () => {
    const { api, pr, bare, before, landed, intent, mergeEvents } = await pullWithIntent('retry');
    // A node moved main to the merge, recorded its intent, and died before the bookkeeping.
    await git(bare, 'update-ref', 'refs/heads/main', landed, before);
    await addPendingOp(s.hearth.db, 'pull.merge', intent, 'a-dead-node');
    const retry = await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge' });
    expect(retry.status, await retry.text()).toBe(405);
    expect((await git(bare, 'rev-parse', 'main')).trim()).toBe(landed);
    const merged = await ok(await api(`pulls/${pr.number}`));
    expect([merged.merged, merged.merge_commit_sha]).toEqual([true, landed]);
    expect(await mergeEvents()).toHaveLength(1);
    expect(await s.hearth.db.selectFrom('pending_op').select('id').where('kind', '=', 'pull.merge').execute()).toEqual([]);
  });

  it('an API commit while the intent of a landed merge is left finishes that merge first (regression: its push was never announced)', async () => {
    const { api, pr, bare, before, landed, intent, mergeEvents } = await pullWithIntent('carol');
    await git(bare, 'update-ref', 'refs/heads/main', landed, before);
    await addPendingOp(s.hearth.db, 'pull.merge', intent, 'a-dead-node');
    const body = await ok(await api('contents/later.txt', 'POST', { branch: 'main', content: Buffer.from('later\n').toString('base64') }), 201);
    expect((await git(bare, 'rev-parse', 'main^')).trim()).toBe(landed);
    expect((await ok(await api(`pulls/${pr.number}`))).merge_commit_sha).toBe(landed);
    expect(await mergeEvents()).toHaveLength(1);
    // Two pushes in the feed, in order: the merge's (from the old base), then the commit's.
    const feed = await ok(await api('activities/feeds')) as { op_type: string; content: string }[];
    const heads = feed.filter((a) => a.op_type === 'commit_repo').map((a) => JSON.parse(a.content).HeadCommit.Sha1);
    expect(heads.slice(0, 2)).toEqual([body.commit.sha, landed]);
  });
});
