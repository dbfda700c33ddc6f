import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git } from '../helpers/git';
import { as, cloneWork, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { startReceiver, type Received, type Receiver } from '../helpers/receiver';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Webhook deliveries end to end: each event type delivered once with Gitea's headers, a valid
// signature and the payload fields; form bodies; branch filters; retries with the same UUID;
// delivery history and redelivery; the test delivery. (Restarts and the allowlist: webhook-durability.test.ts.)

let s: TestServer;
let alice: Creds;
let bob: Creds;
let rx: Receiver;
let work: Work;
let hookId = 0;
const SECRET = 'hook-s3cret';

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/repos/alice/proj/${p}`, { method, auth: as(who), json: body });
const hmac = (body: string) => crypto.createHmac('sha256', SECRET).update(body).digest('hex');
const body = (r: Received) => JSON.parse(r.body) as Record<string, any>;
const arrived = async (type: string, n = 1) => {
  await eventually(async () => rx.of(type).length >= n, 10_000, `${n} ${type} deliveries`);
  return rx.of(type);
};

beforeAll(async () => {
  s = await startTestServer({ HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback', HEARTH__WEBHOOK__RETRY_BACKOFF: '0.05' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  rx = await startReceiver();
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await ok(await api('collaborators/bob', 'PUT', { permission: 'write' }), 204);
  const hook = await ok(await api('hooks', 'POST', {
    type: 'gitea', active: true, authorization_header: 'Bearer to-receiver',
    config: { url: rx.url, content_type: 'json', secret: SECRET },
    events: ['create', 'delete', 'fork', 'push', 'issues', 'issue_comment', 'pull_request', 'release', 'repository', 'status'],
  }), 201);
  hookId = hook.id;
  work = await cloneWork(s, 'alice', 'proj', alice);
});
afterAll(async () => {
  await s.stop();
  await rx.close();
});

describe('deliveries', () => {
  it('a push delivers create and push with Gitea\'s headers, a valid signature and the payload', async () => {
    const head = await work.branch('feature', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const [push] = await arrived('push');
    const [create] = await arrived('create');
    const h = push!.headers;
    expect(h['x-gitea-event']).toBe('push');
    expect(h['x-gitea-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(h['x-gogs-delivery']).toBe(h['x-gitea-delivery']);
    expect(h['x-github-event']).toBe('push');
    expect(h['x-gitea-signature']).toBe(hmac(push!.body));
    expect(h['x-hub-signature-256']).toBe(`sha256=${hmac(push!.body)}`);
    expect(h['x-hub-signature']).toBe(`sha1=${crypto.createHmac('sha1', SECRET).update(push!.body).digest('hex')}`);
    expect(h.authorization).toBe('Bearer to-receiver');
    expect(h['content-type']).toBe('application/json');
    const p = body(push!);
    expect(p).toMatchObject({ ref: 'refs/heads/feature', after: head, total_commits: 3, repository: { full_name: 'alice/proj' }, pusher: { login: 'alice' }, sender: { login: 'alice' } });
    expect(p.before).toMatch(/^0{40}$/);
    expect(p.head_commit).toMatchObject({ id: head, added: ['b.txt'] });
    expect(p.commits.map((c: { id: string }) => c.id)[0]).toBe(head);
    expect(body(create!)).toMatchObject({ ref: 'feature', ref_type: 'branch', sha: head });
  });

  it('an update of a branch lists its new commits and a compare URL', async () => {
    const before = (await git(work.dir, 'rev-parse', 'HEAD')).trim();
    const after = await work.pushTo('feature', 'c.txt', 'c\n');
    const pushes = await arrived('push', 2);
    const p = body(pushes.at(-1)!);
    expect(p).toMatchObject({ before, after, total_commits: 1, compare_url: `${s.hearth.config.server.root_url}alice/proj/compare/${before}...${after}` });
    expect(p.commits[0]).toMatchObject({ id: after, added: ['c.txt'], removed: [], modified: [] });
  });

  it('issues: opened, edited, labelled, assigned, milestoned, closed; comments created, edited, deleted', async () => {
    const issue = await ok(await api('issues', 'POST', { title: 'Broken', body: 'It breaks' }), 201);
    const label = await ok(await api('labels', 'POST', { name: 'bug', color: '#ff0000' }), 201);
    const milestone = await ok(await api('milestones', 'POST', { title: 'v1' }), 201);
    await ok(await api(`issues/${issue.number}`, 'PATCH', { title: 'Very broken', assignees: ['bob'], milestone: milestone.id }), 201);
    await ok(await api(`issues/${issue.number}/labels`, 'POST', { labels: [label.id] }));
    const comment = await ok(await api(`issues/${issue.number}/comments`, 'POST', { body: 'Me too' }, bob), 201);
    await ok(await api(`issues/comments/${comment.id}`, 'PATCH', { body: 'Me three' }, bob));
    await ok(await api(`issues/comments/${comment.id}`, 'DELETE', undefined, bob), 204);
    await ok(await api(`issues/${issue.number}`, 'PATCH', { state: 'closed' }), 201);
    const issues = await arrived('issues', 3);
    expect(issues.map((r) => body(r).action)).toEqual(['opened', 'edited', 'closed']);
    expect(body(issues[1]!).changes).toEqual({ title: { from: 'Broken' } });
    expect(body(issues[0]!)).toMatchObject({ number: issue.number, issue: { title: 'Broken' }, sender: { login: 'alice' } });
    expect(body((await arrived('issue_assign'))[0]!)).toMatchObject({ action: 'assigned' });
    expect(body((await arrived('issue_milestone'))[0]!)).toMatchObject({ action: 'milestoned' });
    const [labelled] = await arrived('issue_label');
    expect(labelled!.headers['x-gitea-event']).toBe('issues');
    expect(body(labelled!)).toMatchObject({ action: 'label_updated', issue: { labels: [{ name: 'bug' }] } });
    const comments = await arrived('issue_comment', 3);
    expect(comments.map((r) => body(r).action)).toEqual(['created', 'edited', 'deleted']);
    expect(body(comments[1]!)).toMatchObject({ changes: { body: { from: 'Me too' } }, comment: { body: 'Me three' }, is_pull: false });
  });

  it('pull requests: opened, synchronized, reviewed, merged (closed with merged)', async () => {
    const pr = await ok(await api('pulls', 'POST', { head: 'feature', base: 'main', title: 'Feature' }), 201);
    await work.pushTo('feature', 'd.txt', 'd\n');
    await ok(await api(`pulls/${pr.number}/reviews`, 'POST', { event: 'APPROVED', body: 'ok' }, bob));
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }));
    const pulls = await arrived('pull_request', 2);
    expect(pulls.map((r) => body(r).action)).toEqual(['opened', 'closed']);
    expect(body(pulls[1]!).pull_request).toMatchObject({ merged: true, number: pr.number });
    const [sync] = await arrived('pull_request_sync');
    expect(sync!.headers['x-gitea-event']).toBe('pull_request');
    expect(body(sync!)).toMatchObject({ action: 'synchronized', number: pr.number });
    const [approved] = await arrived('pull_request_review_approved');
    expect(approved!.headers['x-gitea-event']).toBe('pull_request_approved');
    expect(body(approved!)).toMatchObject({ action: 'reviewed', review: { type: 'pull_request_review_approved', content: 'ok' } });
  });

  it('release, status, tag create and branch delete', async () => {
    const release = await ok(await api('releases', 'POST', { tag_name: 'v1.0', name: 'First' }), 201);
    const [published] = await arrived('release');
    expect(body(published!)).toMatchObject({ action: 'published', release: { id: release.id, tag_name: 'v1.0' } });
    expect((await arrived('create', 2)).map((r) => body(r).ref_type)).toContain('tag');
    const sha = (await ok(await api('branches/main'))).commit.id;
    await ok(await api(`statuses/${sha}`, 'POST', { state: 'success', context: 'ci' }), 201);
    expect(body((await arrived('status'))[0]!)).toMatchObject({ sha, state: 'success', context: 'ci' });
    await ok(await api('branches', 'POST', { new_branch_name: 'gone' }), 201);
    await ok(await api('branches/gone', 'DELETE'), 204);
    expect(body((await arrived('delete'))[0]!)).toMatchObject({ ref: 'gone', ref_type: 'branch' });
  });

  it('release deleted, fork, and repository created and deleted (through an owner hook)', async () => {
    const release = await ok(await api('releases', 'POST', { tag_name: 'v2.0', name: 'Second' }), 201);
    await ok(await api(`releases/${release.id}`, 'DELETE'), 204);
    await eventually(async () => rx.of('release').some((r) => body(r).action === 'deleted'));
    await ok(await s.request('api/v1/repos/alice/proj/forks', { method: 'POST', auth: as(bob), json: {} }), 202);
    const [fork] = await arrived('fork');
    expect(body(fork!)).toMatchObject({ forkee: { full_name: 'alice/proj' }, repo: { full_name: 'bob/proj' }, sender: { login: 'bob' } });
    const owned = await startReceiver();
    try {
      await ok(await s.request('api/v1/user/hooks', { method: 'POST', auth: as(alice), json: { type: 'gitea', active: true, config: { url: owned.url, content_type: 'json' }, events: ['repository'] } }), 201);
      await createRepo(s, alice, 'fresh');
      await ok(await s.request('api/v1/repos/alice/fresh', { method: 'DELETE', auth: as(alice) }), 204);
      await eventually(async () => owned.requests.length === 2);
      expect(owned.requests.map((r) => [r.headers['x-gitea-event'], body(r).action, body(r).repository.full_name]))
        .toEqual([['repository', 'created', 'alice/fresh'], ['repository', 'deleted', 'alice/fresh']]);
    } finally {
      await owned.close();
    }
  });

  it('sends form bodies (payload=) signed over the JSON, and honours branch filters', async () => {
    const form = await startReceiver();
    try {
      await ok(await api('hooks', 'POST', { type: 'gitea', active: true, branch_filter: 'main', config: { url: form.url, content_type: 'form', secret: SECRET }, events: ['push'] }), 201);
      await work.pushTo('feature', 'e.txt', 'e\n');
      await git(work.dir, 'push', '-q', 'origin', '+feature:main');
      await eventually(async () => form.requests.length >= 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(form.requests).toHaveLength(1);
      const [r] = form.requests;
      expect(r!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const json = new URLSearchParams(r!.body).get('payload')!;
      expect(JSON.parse(json).ref).toBe('refs/heads/main');
      expect(r!.headers['x-gitea-signature']).toBe(hmac(json));
    } finally {
      await form.close();
    }
  });
});

describe('retries, history, redelivery, test delivery', () => {
  it('retries a 500 with the same UUID until a 200, and the history shows 3 attempts', async () => {
    const flaky = await startReceiver();
    try {
      let fails = 2;
      flaky.answer(() => (fails-- > 0 ? 500 : 200));
      const hook = await ok(await api('hooks', 'POST', { type: 'gitea', active: true, config: { url: flaky.url, content_type: 'json' }, events: ['issues'] }), 201);
      await ok(await api('issues', 'POST', { title: 'Retried' }), 201);
      await eventually(async () => flaky.requests.length === 3);
      expect(new Set(flaky.requests.map((r) => r.headers['x-gitea-delivery'])).size).toBe(1);
      const [d] = await ok(await api(`hooks/${hook.id}/deliveries`));
      expect(d).toMatchObject({ event: 'issues', event_type: 'issues', attempts: 3, success: true, status_code: 200, redelivery: false });
      expect(d.uuid).toBe(flaky.requests[0]!.headers['x-gitea-delivery']);
      const detail = await ok(await api(`hooks/${hook.id}/deliveries/${d.id}`));
      expect(detail.request.headers['X-Gitea-Event']).toBe('issues');
      expect(JSON.parse(detail.request.body).issue.title).toBe('Retried');
      expect(detail.response).toMatchObject({ status: 200, body: 'answered 200' });
      expect((await api(`hooks/${hook.id}/deliveries/999999`)).status).toBe(404);
      // Redelivery: 202, a new delivery with the same UUID.
      const again = await ok(await api(`hooks/${hook.id}/deliveries/${d.id}/attempts`, 'POST'), 202);
      expect(again).toMatchObject({ uuid: d.uuid, redelivery: true });
      await eventually(async () => flaky.requests.length === 4);
      expect(flaky.requests[3]!.headers['x-gitea-delivery']).toBe(d.uuid);
    } finally {
      await flaky.close();
    }
  });

  it('POST .../hooks/{id}/tests sends a push payload of the ref\'s head (204), whatever the events', async () => {
    const t = await startReceiver();
    try {
      const hook = await ok(await api('hooks', 'POST', { type: 'gitea', active: true, config: { url: t.url, content_type: 'json' }, events: ['issues'] }), 201);
      await ok(await api(`hooks/${hook.id}/tests?ref=feature`, 'POST'), 204);
      await eventually(async () => t.requests.length === 1);
      const p = JSON.parse(t.requests[0]!.body);
      const head = (await ok(await api('branches/feature'))).commit.id;
      expect(p).toMatchObject({ ref: 'refs/heads/feature', before: head, after: head, total_commits: 1, head_commit: { id: head } });
      expect((await api(`hooks/${hook.id}/tests`, 'POST', undefined, bob)).status).toBe(403);
    } finally {
      await t.close();
    }
  });

  it('lists deliveries newest first with paging headers, for the hook\'s admins only', async () => {
    const res = await api(`hooks/${hookId}/deliveries?limit=2`);
    const list = await ok(res);
    expect(list).toHaveLength(2);
    expect(list[0].id).toBeGreaterThan(list[1].id);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThan(10);
    expect((await api(`hooks/${hookId}/deliveries`, 'GET', undefined, bob)).status).toBe(403);
  });
});
