import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectNullableShape as expectShape } from '../helpers/issue-shape';

// Every merge style end to end with the real git CLI: push a branch, open the pull request,
// merge it, clone and look at the history the base branch got.

type Creds = { username: string; password: string };

let s: TestServer;
let alice: Creds;
let work: string;

const api = (p: string, method = 'GET', body?: unknown) => s.request(`api/v1/repos/alice/styles/${p}`, { method, auth: as(alice), json: body });


async function commitFile(dir: string, file: string, content: string, msg = `change ${file}`): Promise<string> {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', msg);
  return (await git(dir, 'rev-parse', 'HEAD')).trim();
}

/** A branch off main with `n` commits, pushed; returns its tip. */
async function pushBranch(branch: string, n: number, file = branch): Promise<string> {
  await git(work, 'fetch', '-q', 'origin');
  await git(work, 'checkout', '-q', '-B', branch, 'origin/main');
  for (let i = 0; i < n; i++) await commitFile(work, `${file}/f${i}.txt`, `${branch} ${i}\n`, `${branch} commit ${i}`);
  await git(work, 'push', '-q', 'origin', `${branch}:${branch}`);
  return (await git(work, 'rev-parse', 'HEAD')).trim();
}

/** Moves main forward so the pull request's base is behind. */
async function advanceMain(file: string): Promise<string> {
  await git(work, 'fetch', '-q', 'origin');
  await git(work, 'checkout', '-q', '-B', 'main', 'origin/main');
  const sha = await commitFile(work, file, 'main moved\n');
  await git(work, 'push', '-q', 'origin', 'main:main');
  return sha;
}

async function openPull(head: string, title = `pull ${head}`) {
  const pr = await ok(await api('pulls', 'POST', { head, base: 'main', title }), 201);
  expectShape(pr, 'PullRequest');
  return pr;
}

/** main's history as `git log --format=%H %P|%s` lines in a fresh clone. */
async function mainHistory(): Promise<{ sha: string; parents: string[]; subject: string; author: string }[]> {
  const dir = tempDir();
  await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'styles', alice.username, alice.password), 'c');
  const out = await git(path.join(dir, 'c'), 'log', '--first-parent', '--format=%H|%P|%s|%an', 'main');
  return out.trim().split('\n').map((l) => {
    const [sha, parents, subject, author] = l.split('|') as [string, string, string, string];
    return { sha, parents: parents ? parents.split(' ') : [], subject, author };
  });
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'styles', { auto_init: true, default_branch: 'main' });
  work = path.join(tempDir(), 'w');
  await git(path.dirname(work), 'clone', '-q', remoteUrl(s, 'alice', 'styles', alice.username, alice.password), 'w');
});
afterAll(async () => { await s.stop(); });

describe('merge styles', () => {
  it('merge: a merge commit with the base and the head as parents', async () => {
    const head = await pushBranch('f-merge', 2);
    const base = await advanceMain('base-1.txt');
    const pr = await openPull('f-merge');
    expect(pr.mergeable).toBe(true);
    expect(pr.commits ?? 2).toBe(2);
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }), 200);
    const [tip] = await mainHistory();
    expect(tip!.parents).toEqual([base, head]);
    expect(tip!.subject).toBe(`Merge pull request 'pull f-merge' (#${pr.number}) from f-merge into main`);
    const after = await ok(await api(`pulls/${pr.number}`));
    expectShape(after, 'PullRequest');
    expect(after.merged).toBe(true);
    expect(after.merge_commit_sha).toBe(tip!.sha);
    expect(after.state).toBe('closed');
    expect(after.merged_by.login).toBe('alice');
    await ok(await api(`pulls/${pr.number}/merge`), 204);
    const again = await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge' });
    expect(again.status).toBe(405);
  });

  it('squash: one commit on the base, authored by the poster', async () => {
    await pushBranch('f-squash', 3);
    const base = await advanceMain('base-2.txt');
    const pr = await openPull('f-squash', 'Squash me');
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'squash', MergeMessageField: 'all three' }), 200);
    const [tip, prev] = await mainHistory();
    expect(tip!.parents).toEqual([base]);
    expect(prev!.sha).toBe(base);
    expect(tip!.subject).toBe(`Squash me (#${pr.number})`);
    const files = await git(work, 'ls-remote', 'origin', 'refs/heads/main');
    expect(files).toContain(tip!.sha);
  });

  it('rebase: the commits replayed linearly on the base, authors kept', async () => {
    await pushBranch('f-rebase', 3);
    const base = await advanceMain('base-3.txt');
    const pr = await openPull('f-rebase');
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'rebase' }), 200);
    const hist = await mainHistory();
    expect(hist.slice(0, 3).map((c) => c.subject)).toEqual(['f-rebase commit 2', 'f-rebase commit 1', 'f-rebase commit 0']);
    expect(hist.slice(0, 3).every((c) => c.parents.length === 1 && c.author === 'Tester')).toBe(true);
    expect(hist[3]!.sha).toBe(base);
  });

  it('rebase-merge: rebased commits joined by a merge commit', async () => {
    await pushBranch('f-rm', 2);
    const base = await advanceMain('base-4.txt');
    const pr = await openPull('f-rm');
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'rebase-merge' }), 200);
    const [tip] = await mainHistory();
    expect(tip!.parents).toHaveLength(2);
    expect(tip!.parents[0]).toBe(base);
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'styles', alice.username, alice.password), 'c');
    // The second parent is the rebased head: its two commits sit right on the old base.
    expect((await git(path.join(dir, 'c'), 'log', '--format=%s', '-1', tip!.parents[1]!)).trim()).toBe('f-rm commit 1');
    expect((await git(path.join(dir, 'c'), 'rev-parse', `${tip!.parents[1]}~2`)).trim()).toBe(base);
  });

  it('fast-forward-only: the base becomes the head commit; diverged is refused', async () => {
    const head = await pushBranch('f-ff', 2);
    const pr = await openPull('f-ff');
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'fast-forward-only' }), 200);
    const [tip] = await mainHistory();
    expect(tip!.sha).toBe(head);

    await pushBranch('f-ff2', 1);
    await advanceMain('base-5.txt');
    const pr2 = await openPull('f-ff2');
    expect((await api(`pulls/${pr2.number}/merge`, 'POST', { Do: 'fast-forward-only' })).status).toBe(405);
  });

  it('manually-merged: marks merged with the given commit on the base', async () => {
    const head = await pushBranch('f-manual', 1);
    const pr = await openPull('f-manual');
    // Merged outside hearth: the head lands on main by a plain push.
    await git(work, 'push', '-q', 'origin', 'f-manual:main');
    expect((await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'manually-merged', MergeCommitID: head })).status).toBe(405);
    await ok(await s.request('api/v1/repos/alice/styles', { method: 'PATCH', auth: as(alice), json: { allow_manual_merge: true } }), 200);
    expect((await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'manually-merged', MergeCommitID: 'deadbeef' })).status).toBe(422);
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'manually-merged', MergeCommitID: head }), 200);
    const after = await ok(await api(`pulls/${pr.number}`));
    expect(after.merged).toBe(true);
    expect(after.merge_commit_sha).toBe(head);
  });

  it('autodetect_manual_merge: pushing the head into the base marks it merged', async () => {
    await ok(await s.request('api/v1/repos/alice/styles', { method: 'PATCH', auth: as(alice), json: { autodetect_manual_merge: true } }), 200);
    const head = await pushBranch('f-auto', 2);
    const pr = await openPull('f-auto');
    await git(work, 'push', '-q', 'origin', 'f-auto:main');
    const after = await ok(await api(`pulls/${pr.number}`));
    expect(after).toMatchObject({ merged: true, merge_commit_sha: head, state: 'closed' });
    await ok(await s.request('api/v1/repos/alice/styles', { method: 'PATCH', auth: as(alice), json: { autodetect_manual_merge: false } }), 200);
  });

  it('merging a pull request that carries another one\'s head marks that one merged (autodetect after an API merge)', async () => {
    await ok(await s.request('api/v1/repos/alice/styles', { method: 'PATCH', auth: as(alice), json: { autodetect_manual_merge: true } }), 200);
    const inner = await pushBranch('f-inner', 1);
    await commitFile(work, 'f-outer/extra.txt', 'on top\n');
    await git(work, 'push', '-q', 'origin', 'f-inner:f-outer');
    const innerPr = await openPull('f-inner');
    const outerPr = await openPull('f-outer');
    await ok(await api(`pulls/${outerPr.number}/merge`, 'POST', { Do: 'merge' }), 200);
    // Gitea tests the base's other pull requests after a merge push; the inner one is now in main.
    const after = await ok(await api(`pulls/${innerPr.number}`));
    expect(after).toMatchObject({ merged: true, state: 'closed' });
    expect(after.merge_commit_sha).not.toBe(inner);
    await ok(await s.request('api/v1/repos/alice/styles', { method: 'PATCH', auth: as(alice), json: { autodetect_manual_merge: false } }), 200);
  });

  it('two merges of one pull request at once: one lands, the other is refused, the base moves once', async () => {
    await pushBranch('f-race', 1);
    await advanceMain('base-race.txt');
    const pr = await openPull('f-race');
    const before = (await mainHistory())[0]!.sha;
    const answers = await Promise.all([
      api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }),
      api(`pulls/${pr.number}/merge`, 'POST', { Do: 'squash' }),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([405, 409]).toContain(statuses[1]);
    const history = await mainHistory();
    expect(history[1]!.sha).toBe(before);
    const after = await ok(await api(`pulls/${pr.number}`));
    expect(after.merge_commit_sha).toBe(history[0]!.sha);
    const events = await ok(await s.request(`api/v1/repos/alice/styles/issues/${pr.number}/timeline`, { auth: as(alice) }));
    expect(events.filter((e: { type: string }) => e.type === 'merge_pull').length).toBe(1);
  });

  it('two pull requests merged into one base at once both land (the second answered 409 when they raced)', async () => {
    await pushBranch('f-para-a', 1);
    await pushBranch('f-para-b', 1);
    const a = await openPull('f-para-a');
    const b = await openPull('f-para-b');
    const answers = await Promise.all([
      api(`pulls/${a.number}/merge`, 'POST', { Do: 'merge' }),
      api(`pulls/${b.number}/merge`, 'POST', { Do: 'merge' }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const history = await mainHistory();
    const subjects = history.slice(0, 2).map((c) => c.subject).sort();
    expect(subjects).toEqual([
      `Merge pull request 'pull f-para-a' (#${a.number}) from f-para-a into main`,
      `Merge pull request 'pull f-para-b' (#${b.number}) from f-para-b into main`,
    ]);
  });

  it('respects the repository allow_* switches (405)', async () => {
    await pushBranch('f-noallow', 1);
    const pr = await openPull('f-noallow');
    await ok(await s.request('api/v1/repos/alice/styles', { method: 'PATCH', auth: as(alice), json: { allow_squash_merge: false } }), 200);
    expect((await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'squash' })).status).toBe(405);
    expect((await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'bogus' })).status).toBe(422);
    const stale = await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge', head_commit_id: '0'.repeat(40) });
    expect(stale.status).toBe(409);
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge', delete_branch_after_merge: true }), 200);
    expect((await api('branches/f-noallow')).status).toBe(404);
  });

  it('a conflict: mergeable false, conflicted, merge refused with 409', async () => {
    await git(work, 'fetch', '-q', 'origin');
    await git(work, 'checkout', '-q', '-B', 'f-conflict', 'origin/main');
    await commitFile(work, 'shared.txt', 'from the branch\n');
    await git(work, 'push', '-q', 'origin', 'f-conflict:f-conflict');
    await advanceMain('shared.txt');
    const pr = await openPull('f-conflict');
    expect(pr.mergeable).toBe(false);
    const res = await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge' });
    expect(res.status).toBe(409);
    expect((await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'rebase' })).status).toBe(409);
    await ok(await api(`pulls/${pr.number}/merge`), 404);
  });
});
