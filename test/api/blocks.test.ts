import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { addTeam, createOrg } from '../helpers/orgs';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let blocker: Creds;
let pest: Creds;
let other: Creds;

const logins = (body: { login: string }[]) => body.map((u) => u.login);
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  blocker = await createUser(s, 'blocker');
  pest = await createUser(s, 'pest');
  other = await createUser(s, 'other');
});
afterAll(async () => { await s.stop(); });

describe('/user/blocks', () => {
  it('blocks a user (204), lists (UserList) and checks it (204), then unblocks', async () => {
    const put = await s.request('api/v1/user/blocks/pest?note=spam', { method: 'PUT', auth: as(blocker) });
    expect(put.status).toBe(204);
    const row = await s.hearth.db.selectFrom('user_block').selectAll().where('blocker_id', '=', blocker.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ blockee_id: pest.id, note: 'spam' });
    const list = await s.request('api/v1/user/blocks', { auth: as(blocker) });
    expect(list.status).toBe(200);
    const body = await json(list);
    expectShape(body, '[User]');
    expect(logins(body)).toEqual(['pest']);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await s.request('api/v1/user/blocks/pest', { auth: as(blocker) })).status).toBe(204);
    expect((await s.request('api/v1/user/blocks/other', { auth: as(blocker) })).status).toBe(404);
    expect((await s.request('api/v1/user/blocks/pest', { method: 'DELETE', auth: as(blocker) })).status).toBe(204);
    expect((await s.request('api/v1/user/blocks/pest', { auth: as(blocker) })).status).toBe(404);
    expect(await json(await s.request('api/v1/user/blocks', { auth: as(blocker) }))).toEqual([]);
  });

  it('refuses blocking yourself, twice, or an organization; unblocking who is not blocked (400)', async () => {
    expect((await s.request('api/v1/user/blocks/blocker', { method: 'PUT', auth: as(blocker) })).status).toBe(400);
    expect((await s.request('api/v1/user/blocks/other', { method: 'PUT', auth: as(blocker) })).status).toBe(204);
    expect((await s.request('api/v1/user/blocks/other', { method: 'PUT', auth: as(blocker) })).status).toBe(400);
    await createOrg(s, other, 'some-org');
    expect((await s.request('api/v1/user/blocks/some-org', { method: 'PUT', auth: as(blocker) })).status).toBe(400);
    expect((await s.request('api/v1/user/blocks/pest', { method: 'DELETE', auth: as(blocker) })).status).toBe(400);
    expect((await s.request('api/v1/user/blocks/other', { method: 'DELETE', auth: as(blocker) })).status).toBe(204);
  });

  it('answers 404 for unknown users and 401 to anonymous callers', async () => {
    expect((await s.request('api/v1/user/blocks/ghost-user', { method: 'PUT', auth: as(blocker) })).status).toBe(404);
    expect((await s.request('api/v1/user/blocks/ghost-user', { auth: as(blocker) })).status).toBe(404);
    expect((await s.request('api/v1/user/blocks')).status).toBe(401);
    expect((await s.request('api/v1/user/blocks/pest', { method: 'PUT' })).status).toBe(401);
  });

  it('needs the user scope: read to list, write to block', async () => {
    const read = await createToken(s, blocker, ['read:user']);
    expect((await s.request('api/v1/user/blocks', { auth: { token: read } })).status).toBe(200);
    expect((await s.request('api/v1/user/blocks/pest', { method: 'PUT', auth: { token: read } })).status).toBe(403);
    const repo = await createToken(s, blocker, ['write:repository']);
    expect((await s.request('api/v1/user/blocks', { auth: { token: repo } })).status).toBe(403);
  });

  it('cuts the ties between the two: follows, stars, watches, collaborations', async () => {
    const a = await createUser(s, 'cutter');
    const b = await createUser(s, 'cutee');
    await createRepo(s, a, 'a-repo');
    await createRepo(s, b, 'b-repo');
    const db = s.hearth.db;
    await db.insertInto('follow').values([
      { user_id: a.id, follow_id: b.id, created_unix: now() }, { user_id: b.id, follow_id: a.id, created_unix: now() },
    ]).execute();
    await db.updateTable('user').set({ num_followers: 1, num_following: 1 }).where('id', 'in', [a.id, b.id]).execute();
    expect((await s.request('api/v1/user/starred/cutter/a-repo', { method: 'PUT', auth: as(b) })).status).toBe(204);
    expect((await s.request('api/v1/repos/cutter/a-repo/subscription', { method: 'PUT', auth: as(b) })).status).toBe(200);
    expect((await s.request('api/v1/user/starred/cutee/b-repo', { method: 'PUT', auth: as(a) })).status).toBe(204);
    expect((await s.request('api/v1/repos/cutter/a-repo/collaborators/cutee', { method: 'PUT', auth: as(a), json: {} })).status).toBe(204);
    expect((await s.request('api/v1/repos/cutee/b-repo/collaborators/cutter', { method: 'PUT', auth: as(b), json: {} })).status).toBe(204);

    expect((await s.request('api/v1/user/blocks/cutee', { method: 'PUT', auth: as(a) })).status).toBe(204);

    expect(await db.selectFrom('follow').selectAll().where('user_id', 'in', [a.id, b.id]).execute()).toEqual([]);
    const counts = await db.selectFrom('user').select(['num_followers', 'num_following', 'num_stars']).where('id', 'in', [a.id, b.id]).execute();
    expect(counts).toEqual([{ num_followers: 0, num_following: 0, num_stars: 0 }, { num_followers: 0, num_following: 0, num_stars: 0 }]);
    expect(await db.selectFrom('star').selectAll().where('uid', 'in', [a.id, b.id]).execute()).toEqual([]);
    expect(await db.selectFrom('watch').selectAll().where('uid', '=', b.id)
      .where('repo_id', 'in', (eb) => eb.selectFrom('repository').select('id').where('owner_id', '=', a.id)).execute()).toEqual([]);
    const aRepo = await json(await s.request('api/v1/repos/cutter/a-repo', { auth: as(a) }));
    expect(aRepo).toMatchObject({ stars_count: 0, watchers_count: 1 });
    expect(await db.selectFrom('collaboration').selectAll().where('user_id', 'in', [a.id, b.id]).execute()).toEqual([]);
    // New ties are refused while blocked.
    const again = await s.request('api/v1/repos/cutter/a-repo/collaborators/cutee', { method: 'PUT', auth: as(a), json: {} });
    expect(again.status).toBe(403);
  });
});

describe('/orgs/{org}/blocks', () => {
  let orgId: number;
  let member: Creds;

  beforeAll(async () => {
    orgId = (await createOrg(s, blocker, 'guild')).id;
    member = await createUser(s, 'guildmate');
    await addTeam(s, orgId, 'devs', { mode: 2, uids: [member.id] });
  });

  it('lets owners block, list, check and unblock', async () => {
    expect((await s.request('api/v1/orgs/guild/blocks/pest?note=no', { method: 'PUT', auth: as(blocker) })).status).toBe(204);
    const list = await s.request('api/v1/orgs/guild/blocks', { auth: as(blocker) });
    expect(list.status).toBe(200);
    const body = await json(list);
    expectShape(body, '[User]');
    expect(logins(body)).toEqual(['pest']);
    expect((await s.request('api/v1/orgs/guild/blocks/pest', { auth: as(blocker) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/guild/blocks/other', { auth: as(blocker) })).status).toBe(404);
    expect((await s.request('api/v1/orgs/guild/blocks/pest', { method: 'DELETE', auth: as(blocker) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/guild/blocks/pest', { auth: as(blocker) })).status).toBe(404);
  });

  it('is for owners only (403 members and outsiders); site admins may', async () => {
    expect((await s.request('api/v1/orgs/guild/blocks', { auth: as(member) })).status).toBe(403);
    expect((await s.request('api/v1/orgs/guild/blocks/pest', { method: 'PUT', auth: as(member) })).status).toBe(403);
    expect((await s.request('api/v1/orgs/guild/blocks/pest', { method: 'PUT', auth: as(other) })).status).toBe(403);
    expect((await s.request('api/v1/orgs/guild/blocks/other', { method: 'PUT', auth: as(s.admin) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/guild/blocks/other', { method: 'DELETE', auth: as(s.admin) })).status).toBe(204);
  });

  it('refuses blocking one of its members, the doer, or an organization (400), as Gitea', async () => {
    expect((await s.request('api/v1/orgs/guild/blocks/guildmate', { method: 'PUT', auth: as(blocker) })).status).toBe(400);
    expect((await s.request('api/v1/orgs/guild/blocks/blocker', { method: 'PUT', auth: as(blocker) })).status).toBe(400);
    expect((await s.request('api/v1/orgs/guild/blocks/some-org', { method: 'PUT', auth: as(blocker) })).status).toBe(400);
  });

  it('keeps a blocked user off the organization\'s repositories as a collaborator', async () => {
    const made = await s.request('api/v1/orgs/guild/repos', { method: 'POST', auth: as(blocker), json: { name: 'kept' } });
    expect(made.status).toBe(201);
    expect((await s.request('api/v1/orgs/guild/blocks/pest', { method: 'PUT', auth: as(blocker) })).status).toBe(204);
    const res = await s.request('api/v1/repos/guild/kept/collaborators/pest', { method: 'PUT', auth: as(blocker), json: {} });
    expect(res.status).toBe(403);
  });

  it('hides a private organization\'s blocks from outsiders (404)', async () => {
    await createOrg(s, blocker, 'quiet-guild', { visibility: 'private' });
    expect((await s.request('api/v1/orgs/quiet-guild/blocks', { auth: as(other) })).status).toBe(404);
  });
});
