import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git } from '../helpers/git';
import { expectNullableShape } from '../helpers/issue-shape';
import { as, cloneWork, commitFile, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// merge_when_checks_succeed: scheduled (201), merged by the scheduler when a status, an
// approval or a push completes the checks; cancelled by DELETE. Stale approvals on push.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;
let work: Work;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/repos/alice/proj/${p}`, { method, auth: as(who), json: body });
const open = async (branch: string, files: Record<string, string>) => {
  const head = await work.branch(branch, files);
  const pr = await ok(await api('pulls', 'POST', { head: branch, base: 'main', title: `Pull ${branch}` }), 201);
  return { head, number: pr.number as number };
};
const timelineTypes = async (n: number) => (await ok(await api(`issues/${n}/timeline`))).map((e: { type: string }) => e.type);
/** Scheduled merges run from the job queue, after the answer. */
const merged = (n: number) => eventually(async () => (await api(`pulls/${n}/merge`)).status === 204, 10_000, `pull ${n} merged`);
const protect = (rule: Record<string, unknown>) => api('branch_protections/main', 'PATCH', rule);

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await ok(await api('collaborators/bob', 'PUT', { permission: 'write' }), 204);
  await ok(await api('collaborators/carol', 'PUT', { permission: 'write' }), 204);
  await ok(await api('branch_protections', 'POST', { rule_name: 'main', enable_status_check: true, status_check_contexts: ['ci'] }), 201);
  work = await cloneWork(s, 'alice', 'proj', alice);
});
afterAll(async () => { await s.stop(); });

describe('merge when checks succeed', () => {
  it('schedules (201) and merges as the scheduler when the required status succeeds', async () => {
    const { head, number } = await open('auto-status', { 'auto.txt': 'auto\n' });
    await ok(await api(`pulls/${number}/merge`, 'POST', { Do: 'squash', merge_when_checks_succeed: true, MergeTitleField: 'Scheduled squash' }, bob), 201);
    expect((await api(`pulls/${number}/merge`)).status).toBe(404);
    expect(await timelineTypes(number)).toContain('pull_scheduled_merge');
    await ok(await api(`statuses/${head}`, 'POST', { state: 'pending', context: 'ci' }), 201);
    expect((await api(`pulls/${number}/merge`)).status).toBe(404);
    await ok(await api(`statuses/${head}`, 'POST', { state: 'success', context: 'ci' }), 201);
    await merged(number);
    const pr = await ok(await api(`pulls/${number}`));
    expectNullableShape(pr, 'PullRequest');
    expect(pr).toMatchObject({ merged: true, state: 'closed' });
    expect(pr.merged_by.login).toBe('bob');
    const commit = await ok(await api(`git/commits/${pr.merge_commit_sha}`));
    expect(commit.commit.message).toMatch(/^Scheduled squash/);
  });

  it('refuses a second schedule (409); only the scheduler or an admin cancels (403), leaving a timeline event', async () => {
    const { number } = await open('auto-cancel', { 'cancel.txt': 'c\n' });
    await ok(await api(`pulls/${number}/merge`, 'POST', { Do: 'merge', merge_when_checks_succeed: true }, bob), 201);
    expect((await api(`pulls/${number}/merge`, 'POST', { Do: 'merge', merge_when_checks_succeed: true }, bob)).status).toBe(409);
    expect((await api(`pulls/${number}/merge`, 'DELETE', undefined, carol)).status).toBe(403);
    await ok(await api(`pulls/${number}/merge`, 'DELETE', undefined, bob), 204);
    expect((await api(`pulls/${number}/merge`, 'DELETE', undefined, bob)).status).toBe(404);
    expect(await timelineTypes(number)).toEqual(expect.arrayContaining(['pull_scheduled_merge', 'pull_cancel_scheduled_merge']));
    // The owner (admin) may cancel someone else's schedule.
    await ok(await api(`pulls/${number}/merge`, 'POST', { Do: 'merge', merge_when_checks_succeed: true }, bob), 201);
    await ok(await api(`pulls/${number}/merge`, 'DELETE'), 204);
  });

  it('still refuses what no check can fix: drafts, disallowed styles, users outside the merge whitelist', async () => {
    const { number } = await open('auto-refused', { 'refused.txt': 'r\n' });
    await ok(await api(`pulls/${number}`, 'PATCH', { title: 'WIP: not yet' }), 201);
    expect((await api(`pulls/${number}/merge`, 'POST', { Do: 'merge', merge_when_checks_succeed: true })).status).toBe(405);
    await ok(await api(`pulls/${number}`, 'PATCH', { title: 'ready' }), 201);
    await ok(await protect({ enable_merge_whitelist: true, merge_whitelist_usernames: ['alice'] }), 200);
    expect((await api(`pulls/${number}/merge`, 'POST', { Do: 'merge', merge_when_checks_succeed: true }, bob)).status).toBe(405);
    await ok(await protect({ enable_merge_whitelist: false }), 200);
    await ok(await api('', 'PATCH', { allow_rebase: false }), 200);
    expect((await api(`pulls/${number}/merge`, 'POST', { Do: 'rebase', merge_when_checks_succeed: true })).status).toBe(405);
    await ok(await api('', 'PATCH', { allow_rebase: true }), 200);
  });

  it('merges when an approval completes the checks, and after a push whose head passes', async () => {
    await ok(await protect({ required_approvals: 1 }), 200);
    const { head, number } = await open('auto-review', { 'review.txt': 'one\n' });
    await ok(await api(`statuses/${head}`, 'POST', { state: 'success', context: 'ci' }), 201);
    await ok(await api(`pulls/${number}/merge`, 'POST', { Do: 'merge', merge_when_checks_succeed: true, delete_branch_after_merge: true }), 201);
    expect((await api(`pulls/${number}/merge`)).status).toBe(404);
    await ok(await api(`pulls/${number}/reviews`, 'POST', { event: 'APPROVED', body: 'ok' }, bob));
    await merged(number);
    expect((await api('branches/auto-review')).status).toBe(404);

    // A push: CI already passed the new head on another branch, so the push itself completes the checks.
    const second = await open('auto-push', { 'push.txt': 'one\n' });
    await ok(await api(`pulls/${second.number}/reviews`, 'POST', { event: 'APPROVED', body: 'ok' }, bob));
    await ok(await api(`pulls/${second.number}/merge`, 'POST', { Do: 'merge', merge_when_checks_succeed: true }), 201);
    const next = await commitFile(work.dir, 'push.txt', 'two\n');
    await git(work.dir, 'push', '-q', 'origin', 'HEAD:refs/heads/ci-scratch');
    await ok(await api(`statuses/${next}`, 'POST', { state: 'success', context: 'ci' }), 201);
    expect((await api(`pulls/${second.number}/merge`)).status).toBe(404);
    await git(work.dir, 'push', '-q', 'origin', 'HEAD:refs/heads/auto-push');
    await merged(second.number);
    expect((await ok(await api(`pulls/${second.number}`))).head.sha).toBe(next);
    await ok(await protect({ required_approvals: 0 }), 200);
  });

  it('answers 201 before merging when nothing blocks, then merges from the job queue (bug: Renovate found the head branch gone)', async () => {
    await ok(await protect({ enable_status_check: false }), 200);
    const { head, number } = await open('auto-now', { 'now.txt': 'now\n' });
    await ok(await api(`pulls/${number}/merge`, 'POST', { Do: 'merge', merge_when_checks_succeed: true, delete_branch_after_merge: true }), 201);
    // What Renovate reads right after the 201: the pull still open, its head branch and statuses there.
    expect((await api(`pulls/${number}/merge`)).status).toBe(404);
    expect((await api('branches/auto-now')).status).toBe(200);
    expect((await api(`commits/${head}/statuses`)).status).toBe(200);
    await merged(number);
    expect((await api('branches/auto-now')).status).toBe(404);
    const issue = await ok(await api(`issues/${number}`));
    expect(issue.pull_request).toMatchObject({ merged: true });
    expect(issue.pull_request.merged_at).toMatch(/^\d{4}-/);
    await ok(await protect({ enable_status_check: true, status_check_contexts: ['ci'] }), 200);
  });
});

describe('stale approvals', () => {
  it('dismisses approvals on a push when the rule says so, and only marks them stale otherwise', async () => {
    const { number } = await open('stale', { 'stale.txt': 'one\n' });
    const kept = await ok(await api(`pulls/${number}/reviews`, 'POST', { event: 'APPROVED', body: 'ok' }, bob));
    await work.pushTo('stale', 'stale.txt', 'two\n');
    expect(await ok(await api(`pulls/${number}/reviews/${kept.id}`))).toMatchObject({ stale: true, dismissed: false });
    await ok(await protect({ dismiss_stale_approvals: true }), 200);
    const again = await ok(await api(`pulls/${number}/reviews`, 'POST', { event: 'APPROVED', body: 'again' }, carol));
    expect(again).toMatchObject({ stale: false, dismissed: false });
    await work.pushTo('stale', 'stale.txt', 'three\n');
    expect(await ok(await api(`pulls/${number}/reviews/${again.id}`))).toMatchObject({ stale: true, dismissed: true });
    await ok(await protect({ dismiss_stale_approvals: false }), 200);
  });

  it('a commit through the contents API moves the pull request like a push (reviews stale at once)', async () => {
    const { number } = await open('api-commit', { 'api.txt': 'one\n' });
    const review = await ok(await api(`pulls/${number}/reviews`, 'POST', { event: 'APPROVED', body: 'ok' }, bob));
    const file = await ok(await api('contents/api.txt?ref=api-commit'));
    await ok(await api('contents/api.txt', 'PUT', { content: Buffer.from('two\n').toString('base64'), sha: file.sha, branch: 'api-commit' }), 200);
    expect(await ok(await api(`pulls/${number}/reviews/${review.id}`))).toMatchObject({ stale: true });
  });
});
