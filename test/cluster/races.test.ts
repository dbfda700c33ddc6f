import { afterEach, expect, it } from 'vitest';
import { startClusterPair, type ClusterPair } from '../helpers/cluster-pair';
import { withPostgres } from '../helpers/postgres';
import {
  answer, b64, bareOf, expectBranchRowsEqualGit, expectCountersMatchRows, expectMergedOnce, makeRepo, openPull,
  mergesOf, reachable, seedFiles, tipOf,
} from './races-fixtures';
import { killedBy } from '../helpers/crash';
import { git } from '../helpers/git';
import { eventually } from '../helpers/wait';

// Merges and API commits racing across two nodes (issue 35): every request goes through the
// round-robin proxy, so neighbours in one burst land on different nodes and meet only in the
// cluster's key lock, git's ref lock and the database. Nothing may be lost: each merged head
// and each commit answered 2xx is on main, a file sha that does not match is refused with
// Gitea's 422 (and only such a one), the branch rows say what git says, the counters what the rows count.

let pair: ClusterPair | undefined;
afterEach(async () => { await pair?.stop(); pair = undefined; });

const PULLS = 4;

withPostgres('merges and API commits racing across two nodes', () => {
  it('no commit lost, 422 only for a stale sha, counters equal counts, each pull merged once', async () => {
    pair = await startClusterPair();
    const { call, db } = pair;
    const repoId = await makeRepo(call, 'races');
    const sha = await seedFiles(call, 'races', { 'keep-0.txt': '0\n', 'keep-1.txt': '1\n', 'keep-2.txt': '2\n', 'gone.txt': 'x\n', 'twin.txt': 't\n', 'stale.txt': 'v1\n' });
    // stale.txt moves on once: its first sha is stale from here.
    const v2 = await answer(call('repos/root/races/contents/stale.txt', { method: 'PUT', json: { branch: 'main', content: b64('v2\n'), sha: sha['stale.txt'] } }));
    expect(v2.status).toBe(200);
    // The pull requests are opened at once too (the repository's pull counters race).
    const pulls = await Promise.all(Array.from({ length: PULLS }, (_, i) => openPull(call, 'races', i)));
    const issues = await Promise.all([0, 1, 2].map((i) => answer(call('repos/root/races/issues', { method: 'POST', json: { title: `issue ${i}` } }))));
    expect(issues.map((i) => i.status)).toEqual([201, 201, 201]);

    const sentBefore = [...pair.proxy.sent];
    const put = (p: string, content: string, fileSha: string) =>
      answer(call(`repos/root/races/contents/${p}`, { method: 'PUT', json: { branch: 'main', content: b64(content), sha: fileSha } }));
    const burst = {
      merges: pulls.map((p) => answer(call(`repos/root/races/pulls/${p.index}/merge`, { method: 'POST', json: { Do: 'merge' } }))),
      creates: [0, 1, 2].map((i) => answer(call(`repos/root/races/contents/new-${i}.txt`, { method: 'POST', json: { branch: 'main', content: b64(`new ${i}\n`) } }))),
      updates: [0, 1, 2].map((i) => put(`keep-${i}.txt`, `${i} changed\n`, sha[`keep-${i}.txt`]!)),
      deleted: answer(call('repos/root/races/contents/gone.txt', { method: 'DELETE', json: { branch: 'main', sha: sha['gone.txt'] } })),
      several: answer(call('repos/root/races/contents', { method: 'POST', json: { branch: 'main', files: [
        { operation: 'create', path: 'multi/a.txt', content: b64('a\n') }, { operation: 'create', path: 'multi/b.txt', content: b64('b\n') },
      ] } })),
      // Both carry the sha twin.txt has now: one lands, the other then names a sha the file no longer has.
      twins: [put('twin.txt', 'twin A\n', sha['twin.txt']!), put('twin.txt', 'twin B\n', sha['twin.txt']!)],
      // The issue counters race too: two closed, two more opened, on both nodes.
      closed: issues.slice(0, 2).map((i) => answer(call(`repos/root/races/issues/${i.body.number}`, { method: 'PATCH', json: { state: 'closed' } }))),
      opened: [3, 4].map((i) => answer(call('repos/root/races/issues', { method: 'POST', json: { title: `issue ${i}` } }))),
      stale: [put('stale.txt', 'stale\n', sha['stale.txt']!),
        answer(call('repos/root/races/contents/stale.txt', { method: 'DELETE', json: { branch: 'main', sha: sha['stale.txt'] } }))],
    };
    const merges = await Promise.all(burst.merges);
    const creates = await Promise.all(burst.creates);
    const updates = await Promise.all(burst.updates);
    const [deleted, several] = await Promise.all([burst.deleted, burst.several]);
    const twins = await Promise.all(burst.twins);
    const stale = await Promise.all(burst.stale);
    const closed = await Promise.all(burst.closed);
    const opened = await Promise.all(burst.opened);
    // The burst was shared out between both nodes.
    expect(pair.proxy.sent.every((n, i) => n - sentBefore[i]! >= 5), JSON.stringify(pair.proxy.sent)).toBe(true);

    expect(merges.map((m) => m.status), JSON.stringify(merges)).toEqual(pulls.map(() => 200));
    expect(creates.map((c) => c.status), JSON.stringify(creates)).toEqual([201, 201, 201]);
    expect(updates.map((c) => c.status), JSON.stringify(updates)).toEqual([200, 200, 200]);
    expect([deleted.status, several.status], JSON.stringify([deleted, several])).toEqual([200, 201]);
    expect(twins.map((t) => t.status).sort(), JSON.stringify(twins)).toEqual([200, 422]);
    expect(stale.map((s) => s.status), JSON.stringify(stale)).toEqual([422, 422]);
    expect([...closed, ...opened].map((i) => i.status)).toEqual([201, 201, 201, 201]);

    const bare = bareOf(pair.dataDir, 'races');
    const tip = await tipOf(bare);
    const landed = [...creates, ...updates, deleted, several, ...twins.filter((t) => t.status === 200)];
    for (const c of landed) expect(await reachable(bare, c.body.commit.sha, tip), `commit ${c.body.commit.sha} on main`).toBe(true);
    for (const p of pulls) await expectMergedOnce(call, db, bare, 'races', p);
    expect(await git(bare, 'show', `${tip}:twin.txt`)).toBe(twins[0]!.status === 200 ? 'twin A\n' : 'twin B\n');
    expect(await git(bare, 'show', `${tip}:stale.txt`)).toBe('v2\n');
    expect(await git(bare, 'ls-tree', '--name-only', tip, 'gone.txt')).toBe('');
    await expectBranchRowsEqualGit(db, repoId, bare);
    await expectCountersMatchRows(db);
    const repo = await answer(call('repos/root/races'));
    expect([repo.body.open_pr_counter, repo.body.open_issues_count]).toEqual([0, 3]);
  }, 240_000);
});

const merge = (pair: ClusterPair, index: number, node?: number) =>
  pair.call(`repos/root/crashed/pulls/${index}/merge`, { method: 'POST', json: { Do: 'merge' }, node });

/** Feed rows of root announcing a push to main whose head is `commit`. */
async function pushesOf(pair: ClusterPair, repoId: number, commit: string): Promise<number> {
  const rows = await pair.db.selectFrom('action').innerJoin('user', 'user.id', 'action.user_id').select('action.content')
    .where('action.repo_id', '=', repoId).where('action.op_type', '=', 5).where('user.name', '=', 'root').execute();
  return rows.filter((r) => (JSON.parse(r.content) as { HeadCommit?: { Sha1?: string } }).HeadCommit?.Sha1 === commit).length;
}

withPostgres('a node killed mid-merge while the other goes on', () => {
  // after-ref: main moved, nothing recorded; after-sync: the branch row and push event in, the
  // pull request still open. The other node finishes it, whichever way comes first: the client
  // retrying the merge it got no answer for (with other merges and a commit racing it), or the
  // adoption of the dead node's intent.
  it.each([
    { point: 'merge.after-ref', retry: true },
    { point: 'merge.after-sync', retry: false },
  ])('killed at $point (retried at once: $retry): merged once, nothing lost, rows equal git', async ({ point, retry }) => {
    pair = await startClusterPair({ envOf: (i): Record<string, string> => (i === 0 ? { HEARTH_TEST_CRASH_AT: point } : {}), nodeTimeout: 3 });
    const { call, db } = pair;
    const repoId = await makeRepo(call, 'crashed');
    const pulls = await Promise.all([0, 1, 2].map((i) => openPull(call, 'crashed', i)));
    const bare = bareOf(pair.dataDir, 'crashed');
    const before = await tipOf(bare);
    await killedBy(pair.nodes[0]!, merge(pair, pulls[0]!.index, 0));
    pair.proxy.pin(1);
    // The merge the dead node built is on main.
    const [landed] = await mergesOf(bare, pulls[0]!.head);
    expect(landed && (await git(bare, 'rev-parse', `${landed}^1`)).trim()).toBe(before);
    if (!retry) await eventually(async () => (await answer(call(`repos/root/crashed/pulls/${pulls[0]!.index}`))).body.merged === true, 60_000, 'the intent adopted');
    const [again, m1, m2, commit] = await Promise.all([
      answer(merge(pair, pulls[0]!.index)), answer(merge(pair, pulls[1]!.index)), answer(merge(pair, pulls[2]!.index)),
      answer(call('repos/root/crashed/contents/after.txt', { method: 'POST', json: { branch: 'main', content: b64('after\n') } })),
    ]);
    // The retry finds the pull request merged (the left merge finished first), as Gitea answers for a merged one.
    expect([again.status, m1.status, m2.status, commit.status], JSON.stringify([again, m1, m2, commit])).toEqual([405, 200, 200, 201]);
    for (const p of pulls) await expectMergedOnce(call, db, bare, 'crashed', p);
    const pr0 = await answer(call(`repos/root/crashed/pulls/${pulls[0]!.index}`));
    expect(pr0.body.merge_commit_sha).toBe(landed);
    expect(await reachable(bare, commit.body.commit.sha, await tipOf(bare))).toBe(true);
    // The dead node's merge announced once (its push in the feed), even with later moves synced first.
    await eventually(async () => (await pushesOf(pair!, repoId, landed!)) >= 1, 20_000, 'the merge push in the feed');
    expect(await pushesOf(pair, repoId, landed!)).toBe(1);
    await eventually(async () => (await db.selectFrom('pending_op').select('id').execute()).length === 0, 20_000, 'no intent left');
    await expectBranchRowsEqualGit(db, repoId, bare);
    await expectCountersMatchRows(db);
  }, 240_000);

  it('an API commit killed at refs.after-move: the other node commits on top, both announced once, rows equal git', async () => {
    pair = await startClusterPair({ envOf: (i): Record<string, string> => (i === 0 ? { HEARTH_TEST_CRASH_AT: 'refs.after-move' } : {}), nodeTimeout: 3 });
    const { call, db } = pair;
    const repoId = await makeRepo(call, 'crashed');
    const bare = bareOf(pair.dataDir, 'crashed');
    const create = (p: string, node: number) =>
      call(`repos/root/crashed/contents/${p}`, { method: 'POST', json: { branch: 'main', content: b64(`${p}\n`) }, node });
    await killedBy(pair.nodes[0]!, create('dead.txt', 0));
    pair.proxy.pin(1);
    const left = await tipOf(bare);
    expect(await git(bare, 'show', `${left}:dead.txt`)).toBe('dead.txt\n');
    const [next, again] = await Promise.all([answer(create('next.txt', 1)), answer(create('dead.txt', 1))]);
    // The retry of the commit that got no answer finds its file there (Gitea's 422), the other lands on top.
    expect([next.status, again.status], JSON.stringify([next, again])).toEqual([201, 422]);
    expect((await git(bare, 'rev-parse', `${next.body.commit.sha}^`)).trim()).toBe(left);
    for (const c of [left, next.body.commit.sha]) {
      await eventually(async () => (await pushesOf(pair!, repoId, c)) >= 1, 20_000, `the push of ${c} in the feed`);
    }
    await eventually(async () => (await db.selectFrom('pending_op').select('id').execute()).length === 0, 20_000, 'no intent left');
    expect([await pushesOf(pair, repoId, left), await pushesOf(pair, repoId, next.body.commit.sha)]).toEqual([1, 1]);
    await expectBranchRowsEqualGit(db, repoId, bare);
  }, 240_000);
});
