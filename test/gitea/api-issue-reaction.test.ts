import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures, type Repo1 } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_reaction_test.go. Gitea's fixtures have
// user2's "eyes" on issue #1 and "laugh" by user2 then user1 on comment 2 ("good work!").

let g: GiteaFixtures;
let r: Repo1;
beforeAll(async () => {
  g = await startGitea();
  r = await g.repo1();
});
afterAll(async () => { await g.stop(); });

type Reaction = { content: string; user: { id: number }; created_at: string };

describe('api_issue_reaction_test', () => {
  it('TestAPIIssuesReactions', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    const url = 'repos/user2/repo1/issues/1/reactions';
    expect((await g.api(url, { method: 'POST', auth, json: { content: 'wrong' } })).status).toBe(403);
    expect((await g.api(url, { method: 'DELETE', auth, json: { content: 'zzz' } })).status).toBe(200);
    const made = await g.call(url, { method: 'POST', auth, json: { content: 'rocket' } }, 201);
    // Gitea's test sends its request again, whose body was already read: an empty reaction, 403.
    // The same reaction sent again is Gitea's 200 with the existing one.
    expect((await g.api(url, { method: 'POST', auth, json: {} })).status).toBe(403);
    expect((await g.call(url, { method: 'POST', auth, json: { content: 'rocket' } })).created_at).toBe(made.created_at);

    await g.block('user2', 'user34');
    const blocked = await g.tokenAuth('user34', 'write:issue');
    expect((await g.api(url, { method: 'POST', auth: blocked, json: { content: 'rocket' } })).status).toBe(403);

    const user2 = await g.user('user2');
    const list: Reaction[] = await g.call(url, { auth });
    expect(list.map((x) => [x.content, x.user.id])).toEqual([['eyes', user2.id], ['rocket', user2.id]]);
    expect(list[1]!.created_at).toBe(made.created_at);
  });

  it('TestAPICommentReactions', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    const url = `repos/user2/repo1/issues/comments/${r.comments.goodWork}/reactions`;
    expect((await g.api(url, { method: 'POST', auth, json: { content: 'wrong' } })).status).toBe(403);
    expect((await g.api(url, { method: 'DELETE', auth, json: { content: 'eyes' } })).status).toBe(200);
    const made = await g.call(url, { method: 'POST', auth, json: { content: '+1' } }, 201);
    expect((await g.api(url, { method: 'POST', auth, json: {} })).status).toBe(403);
    expect((await g.call(url, { method: 'POST', auth, json: { content: '+1' } })).created_at).toBe(made.created_at);

    const [user1, user2] = [g.user1, await g.user('user2')];
    const list: Reaction[] = await g.call(url, { auth });
    expect(list.map((x) => [x.content, x.user.id])).toEqual([['laugh', user2.id], ['laugh', user1.id], ['+1', user2.id]]);
    expect(list[2]!.created_at).toBe(made.created_at);
  });

  it('TestAPICommentReactions/UnrelatedCommentID', async () => {
    await g.call('user/repos', { method: 'POST', auth: await g.basic('user5'), json: { name: 'repo4' } }, 201);
    const auth = await g.tokenAuth('user5', 'write:issue');
    const url = `repos/user5/repo4/issues/comments/${r.comments.goodWork}/reactions`;
    expect((await g.api(url, { method: 'POST', auth, json: { content: '+1' } })).status).toBe(404);
    expect((await g.api(url, { method: 'DELETE', auth, json: { content: '+1' } })).status).toBe(404);
    expect((await g.api(url, { auth })).status).toBe(404);
  });
});
