import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { expectNullableShape } from '../helpers/issue-shape';
import { as, cloneWork, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';

// Reviews in the timeline, as Gitea: a submitted review is a `review` event counted among the
// pull's comments; a dismissal is a `dismiss_review` event with its message; deleting the
// review takes its events away.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let work: Work;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/repos/alice/proj/${p}`, { method, auth: as(who), json: body });
type Event = { type: string; review_id: number; body: string; user: { login: string } };
const reviewEvents = async (n: number): Promise<Event[]> => {
  const all = await ok(await api(`issues/${n}/timeline`));
  expectNullableShape(all, '[TimelineComment]');
  return all.filter((e: Event) => e.type === 'review' || e.type === 'dismiss_review');
};

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await ok(await api('collaborators/bob', 'PUT', { permission: 'write' }), 204);
  work = await cloneWork(s, 'alice', 'proj', alice);
});
afterAll(async () => { await s.stop(); });

describe('reviews in the timeline', () => {
  it('records submitted reviews (not pending ones), dismissals with their message, and drops them with the review', async () => {
    await work.branch('timeline', { 't.txt': 't\n' });
    const pr = await ok(await api('pulls', 'POST', { head: 'timeline', base: 'main', title: 'Timeline' }), 201);
    const pending = await ok(await api(`pulls/${pr.number}/reviews`, 'POST', { body: 'draft' }, bob));
    expect(await reviewEvents(pr.number)).toEqual([]);
    await ok(await api(`pulls/${pr.number}/reviews/${pending.id}`, 'POST', { event: 'COMMENT', body: 'looked' }, bob));
    const approval = await ok(await api(`pulls/${pr.number}/reviews`, 'POST', { event: 'APPROVED', body: 'lgtm' }, bob));
    let events = await reviewEvents(pr.number);
    expect(events.map((e) => [e.type, e.review_id, e.body, e.user.login])).toEqual([
      ['review', pending.id, 'looked', 'bob'], ['review', approval.id, 'lgtm', 'bob'],
    ]);
    expect((await ok(await api(`pulls/${pr.number}`))).comments).toBe(2);

    await ok(await api(`pulls/${pr.number}/reviews/${approval.id}/dismissals`, 'POST', { message: 'outdated' }));
    events = await reviewEvents(pr.number);
    expect(events.at(-1)).toMatchObject({ type: 'dismiss_review', review_id: approval.id, body: 'outdated' });

    await ok(await api(`pulls/${pr.number}/reviews/${approval.id}`, 'DELETE', undefined, bob), 204);
    expect((await reviewEvents(pr.number)).map((e) => e.review_id)).toEqual([pending.id]);
    expect((await ok(await api(`issues/${pr.number}`))).comments).toBe(1);
  });
});

describe('review html_url', () => {
  it('anchors the review\'s timeline comment, as Gitea (its own id collided with comment anchors)', async () => {
    await work.branch('anchor', { 'a.txt': 'a\n' });
    const pr = await ok(await api('pulls', 'POST', { head: 'anchor', base: 'main', title: 'Anchor' }), 201);
    await ok(await api(`issues/${pr.number}/comments`, 'POST', { body: 'first' }), 201);
    const review = await ok(await api(`pulls/${pr.number}/reviews`, 'POST', { event: 'COMMENT', body: 'seen' }, bob));
    const timeline = await ok(await api(`issues/${pr.number}/timeline`));
    const event = timeline.find((e: { type: string; review_id: number }) => e.type === 'review' && e.review_id === review.id);
    expect(review.html_url).toBe(`${s.hearth.config.server.root_url}alice/proj/pulls/${pr.number}#issuecomment-${event.id}`);
    const listed = await ok(await api(`pulls/${pr.number}/reviews/${review.id}`));
    expect(listed.html_url).toBe(review.html_url);
    const page = await s.request(`alice/proj/pulls/${pr.number}`);
    expect(await page.text()).toContain(`id="issuecomment-${event.id}"`);
  });
});

describe('review requests', () => {
  it('tell the requested user through a notification thread', async () => {
    await work.branch('asking', { 'ask.txt': 'a\n' });
    const pr = await ok(await api('pulls', 'POST', { head: 'asking', base: 'main', title: 'Asking bob' }), 201);
    await ok(await api(`pulls/${pr.number}/requested_reviewers`, 'POST', { reviewers: ['bob'] }), 201);
    const threads = await ok(await s.request('api/v1/notifications', { auth: as(bob) }));
    expect(threads.map((t: { subject: { title: string } }) => t.subject.title)).toContain('Asking bob');
  });
});

describe('who asks, and official requests', () => {
  it('lets collaborators of any level change requests, not other readers (422, as Gitea)', async () => {
    const dave = await createUser(s, 'dave');
    const eve = await createUser(s, 'eve');
    await ok(await api('collaborators/dave', 'PUT', { permission: 'read' }), 204);
    await work.branch('who-asks', { 'who.txt': 'w\n' });
    const pr = await ok(await api('pulls', 'POST', { head: 'who-asks', base: 'main', title: 'Who asks' }), 201);
    expect((await api(`pulls/${pr.number}/requested_reviewers`, 'POST', { reviewers: ['bob'] }, eve)).status).toBe(422);
    await ok(await api(`pulls/${pr.number}/requested_reviewers`, 'POST', { reviewers: ['bob'] }, dave), 201);
    await ok(await api(`pulls/${pr.number}/requested_reviewers`, 'DELETE', { reviewers: ['bob'] }, dave), 204);
  });

  it('an official request blocks the merge under block_on_official_review_requests until the reviewer answers', async () => {
    await ok(await api('branch_protections', 'POST', { rule_name: 'main', block_on_official_review_requests: true }), 201);
    await work.branch('blocked', { 'blocked.txt': 'b\n' });
    const pr = await ok(await api('pulls', 'POST', { head: 'blocked', base: 'main', title: 'Blocked', reviewers: ['bob'] }), 201);
    expect(pr.requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['bob']);
    const refused = await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge' });
    expect(refused.status).toBe(405);
    expect(await refused.text()).toContain('official review requests');
    await ok(await api(`pulls/${pr.number}/reviews`, 'POST', { event: 'APPROVED', body: 'fine' }, bob));
    expect((await ok(await api(`pulls/${pr.number}`))).requested_reviewers).toEqual([]);
    await ok(await api(`pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }), 200);
    await ok(await api('branch_protections/main', 'DELETE'), 204);
  });
});
