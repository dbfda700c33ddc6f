import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { expectNullableShape } from '../helpers/issue-shape';
import { as, cloneWork, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';

// The activity feed follows issues, pull requests, reviews, releases, renames, transfers and
// forks, with Gitea's op types and `index|text` contents (they were missing from the feed).

let s: TestServer;
let alice: Creds;
let bob: Creds;
let work: Work;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) => s.request(`api/v1/${p}`, { method, auth: as(who), json: body });
type Act = { op_type: string; content: string; act_user: { login: string }; comment_id: number; ref_name: string; comment?: { id: number; body: string } };
async function feed(path: string): Promise<Act[]> {
  const body = await ok(await api(`${path}?limit=50`));
  expectNullableShape(body, '[Activity]');
  return body;
}
const ops = (acts: Act[]) => acts.map((a) => a.op_type);

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await ok(await api('repos/alice/proj/collaborators/bob', 'PUT', { permission: 'write' }), 204);
  work = await cloneWork(s, 'alice', 'proj', alice);
});
afterAll(async () => { await s.stop(); });

describe('activity of issues and pull requests', () => {
  it('records issue creation, comments, closing and reopening', async () => {
    const issue = await ok(await api('repos/alice/proj/issues', 'POST', { title: 'Broken' }), 201);
    const comment = await ok(await api(`repos/alice/proj/issues/${issue.number}/comments`, 'POST', { body: 'seen it' }, bob), 201);
    await ok(await api(`repos/alice/proj/issues/${issue.number}`, 'PATCH', { state: 'closed' }), 201);
    await ok(await api(`repos/alice/proj/issues/${issue.number}`, 'PATCH', { state: 'open' }), 201);
    const acts = await feed('repos/alice/proj/activities/feeds');
    expect(ops(acts).slice(0, 4)).toEqual(['reopen_issue', 'close_issue', 'comment_issue', 'create_issue']);
    expect(acts.find((a) => a.op_type === 'create_issue')).toMatchObject({ content: `${issue.number}|Broken`, act_user: { login: 'alice' } });
    expect(acts.find((a) => a.op_type === 'comment_issue')).toMatchObject({ content: `${issue.number}|seen it`, comment_id: comment.id, act_user: { login: 'bob' } });
  });

  it('carries the comment object, and drops the activity with its comment (activities lacked the comment)', async () => {
    const issue = await ok(await api('repos/alice/proj/issues', 'POST', { title: 'Talk' }), 201);
    const comment = await ok(await api(`repos/alice/proj/issues/${issue.number}/comments`, 'POST', { body: 'first words' }, bob), 201);
    const act = (await feed('repos/alice/proj/activities/feeds')).find((a) => a.comment_id === comment.id);
    expect(act?.comment).toMatchObject({ id: comment.id, body: 'first words', user: { login: 'bob' }, html_url: comment.html_url });
    // Activities without a comment have neither (Gitea's ToActivity).
    const created = (await feed('repos/alice/proj/activities/feeds')).find((a) => a.op_type === 'create_issue');
    expect(created).toMatchObject({ comment_id: 0 });
    expect(created).not.toHaveProperty('comment');
    await ok(await api(`repos/alice/proj/issues/comments/${comment.id}`, 'DELETE', undefined, bob), 204);
    expect((await feed('repos/alice/proj/activities/feeds')).some((a) => a.comment_id === comment.id || a.content === `${issue.number}|first words`)).toBe(false);
  });

  it('records a pull request, its review and its merge', async () => {
    await work.branch('feat', { 'feat.txt': 'f\n' });
    const pr = await ok(await api('repos/alice/proj/pulls', 'POST', { head: 'feat', base: 'main', title: 'Feature' }), 201);
    await ok(await api(`repos/alice/proj/pulls/${pr.number}/reviews`, 'POST', { event: 'APPROVED', body: 'ship it\nreally' }, bob));
    await ok(await api(`repos/alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }), 200);
    const acts = await feed('repos/alice/proj/activities/feeds');
    // As Gitea: the merge pushes to main (commit_repo), then the merge itself.
    expect(ops(acts).slice(0, 4)).toEqual(['merge_pull_request', 'commit_repo', 'approve_pull_request', 'create_pull_request']);
    expect(acts[0]).toMatchObject({ content: `${pr.number}|Feature`, act_user: { login: 'alice' } });
    expect(acts[1]).toMatchObject({ ref_name: 'refs/heads/main', act_user: { login: 'alice' } });
    expect(JSON.parse(acts[1]!.content).Len).toBe(2);
    expect(acts[2]).toMatchObject({ content: `${pr.number}|ship it`, act_user: { login: 'bob' }, comment: { body: 'ship it\nreally' } });
    expect(acts[2]!.comment_id).toBeGreaterThan(0);
    // Bob's own feed shows what he did.
    expect(ops(await feed('users/bob/activities/feeds')).slice(0, 1)).toEqual(['approve_pull_request']);
  });

  it('records ref changes made through the API: files, branches and tags', async () => {
    await ok(await api('repos/alice/proj/contents/api.txt', 'POST', { content: Buffer.from('x').toString('base64'), message: 'add api.txt' }), 201);
    await ok(await api('repos/alice/proj/branches', 'POST', { new_branch_name: 'side' }), 201);
    await ok(await api('repos/alice/proj/tags', 'POST', { tag_name: 't1', target: 'main' }), 201);
    await ok(await api('repos/alice/proj/tags/t1', 'DELETE'), 204);
    await ok(await api('repos/alice/proj/branches/side', 'DELETE'), 204);
    const acts = await feed('repos/alice/proj/activities/feeds');
    expect(acts.slice(0, 5).map((a) => [a.op_type, a.ref_name])).toEqual([
      ['delete_branch', 'refs/heads/side'], ['delete_tag', 'refs/tags/t1'], ['push_tag', 'refs/tags/t1'],
      ['commit_repo', 'refs/heads/side'], ['commit_repo', 'refs/heads/main'],
    ]);
    expect(JSON.parse(acts[4]!.content).HeadCommit.Message).toMatch(/^add api.txt/);
  });

  it('records published releases, not drafts until published', async () => {
    const draft = await ok(await api('repos/alice/proj/releases', 'POST', { tag_name: 'v1', name: 'One', draft: true }), 201);
    expect(ops(await feed('repos/alice/proj/activities/feeds'))[0]).not.toBe('publish_release');
    await ok(await api(`repos/alice/proj/releases/${draft.id}`, 'PATCH', { draft: false }), 200);
    const acts = await feed('repos/alice/proj/activities/feeds');
    expect(acts[0]).toMatchObject({ op_type: 'publish_release', content: 'One', ref_name: 'refs/tags/v1' });
  });

  it('records renames, transfers and forks', async () => {
    await ok(await api('repos/alice/proj', 'PATCH', { name: 'renamed' }), 200);
    expect((await feed('repos/alice/renamed/activities/feeds'))[0]).toMatchObject({ op_type: 'rename_repo', content: 'proj' });
    await ok(await api('repos/alice/renamed/forks', 'POST', { name: 'bobs-fork' }, bob), 202);
    expect((await feed('users/bob/activities/feeds'))[0]).toMatchObject({ op_type: 'create_repo', act_user: { login: 'bob' } });
    await ok(await api('repos/alice/renamed/transfer', 'POST', { new_owner: 'bob' }), 201);
    await ok(await api('repos/alice/renamed/transfer/accept', 'POST', undefined, bob), 202);
    expect((await feed('repos/bob/renamed/activities/feeds'))[0]).toMatchObject({ op_type: 'transfer_repo', content: 'alice/renamed' });
  });
});
