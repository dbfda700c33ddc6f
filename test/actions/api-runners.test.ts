import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { runnerClient, runnerHeaders } from './protocol-helpers';
import { createOrg } from '../helpers/orgs';
import { as, createToken, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// Runner registration tokens and the runners API at admin, organization, repository and user
// level (issue 15). Runners are rows as the protocol's Register leaves them.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds;
let bob: Creds;
let admin: Creds;
let orgId: number;
let repoId: number;

const call = (who: Creds | null, method: string, p: string, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), ...(body === undefined ? {} : { json: body }) });
const now = () => Math.floor(Date.now() / 1000);

async function addRunner(name: string, scope: { owner_id?: number; repo_id?: number }, extra: Record<string, unknown> = {}): Promise<number> {
  const row = await s.hearth.db.insertInto('action_runner').values({
    uuid: `uuid-${name}`, name, labels: JSON.stringify(['ubuntu-latest', 'hearth']), created_unix: now(), updated_unix: now(),
    last_online_unix: now(), deleted_unix: null, ...scope, ...extra,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  admin = { username: s.admin.username, password: s.admin.password, id: 1 };
  repoId = (await createRepo(s, alice, 'proj', { auto_init: true })).id as number;
  orgId = (await createOrg(s, alice, 'acme')).id;
}, 60_000);
afterAll(async () => { await s.stop(); });

describe('registration tokens', () => {
  const levels = [
    { path: 'repos/alice/proj/actions/runners/registration-token', who: () => alice },
    { path: 'orgs/acme/actions/runners/registration-token', who: () => alice },
    { path: 'user/actions/runners/registration-token', who: () => alice },
    { path: 'admin/runners/registration-token', who: () => admin },
  ];
  for (const level of levels) {
    it(`GET ${level.path}: the active token, made on first use and kept`, async () => {
      const a = await ok(await call(level.who(), 'GET', level.path));
      expect(a.token).toMatch(/^[A-Za-z0-9_-]{40}$/);
      const b = await ok(await call(level.who(), 'GET', level.path));
      expect(b.token).toBe(a.token);
    });
  }

  it('POST answers the active token as Gitea 1.25 does; a deactivated one is replaced', async () => {
    const a = await ok(await call(admin, 'POST', 'admin/actions/runners/registration-token'));
    const b = await ok(await call(admin, 'GET', 'admin/runners/registration-token'));
    expect(b.token).toBe(a.token);
    await s.hearth.db.updateTable('action_runner_token').set({ is_active: 0 }).where('token', '=', a.token).execute();
    const c = await ok(await call(admin, 'POST', 'admin/actions/runners/registration-token'));
    expect(c.token).not.toBe(a.token);
    const rows = await s.hearth.db.selectFrom('action_runner_token').selectAll().where('owner_id', '=', 0).where('repo_id', '=', 0).execute();
    expect(rows.filter((r) => r.is_active).map((r) => r.token)).toEqual([c.token]);
  });

  it('each scope has its own token', async () => {
    const repo = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/runners/registration-token'));
    const org = await ok(await call(alice, 'GET', 'orgs/acme/actions/runners/registration-token'));
    const user = await ok(await call(alice, 'GET', 'user/actions/runners/registration-token'));
    expect(new Set([repo.token, org.token, user.token]).size).toBe(3);
    const rows = await s.hearth.db.selectFrom('action_runner_token').selectAll().where('token', 'in', [repo.token, org.token, user.token]).execute();
    const byToken = new Map(rows.map((r) => [r.token, r]));
    expect(byToken.get(repo.token)).toMatchObject({ owner_id: 0, repo_id: repoId });
    expect(byToken.get(org.token)).toMatchObject({ owner_id: orgId, repo_id: 0 });
    expect(byToken.get(user.token)).toMatchObject({ owner_id: alice.id, repo_id: 0 });
  });

  it('needs the scope\'s admin: repository admin, organization owner, site admin', async () => {
    await ok(await call(bob, 'GET', 'repos/alice/proj/actions/runners/registration-token'), 403);
    await ok(await call(bob, 'GET', 'orgs/acme/actions/runners/registration-token'), 403);
    await ok(await call(bob, 'GET', 'admin/runners/registration-token'), 403);
    await ok(await call(null, 'GET', 'user/actions/runners/registration-token'), 401);
  });
});

describe('runners', () => {
  it('list, get, disable (PATCH), filter, delete at each level', async () => {
    const levels = [
      { base: 'repos/alice/proj/actions/runners', scope: { repo_id: repoId }, who: alice },
      { base: 'orgs/acme/actions/runners', scope: { owner_id: orgId }, who: alice },
      { base: 'user/actions/runners', scope: { owner_id: alice.id }, who: alice },
      { base: 'admin/actions/runners', scope: {}, who: admin },
    ];
    for (const [i, level] of levels.entries()) {
      const id = await addRunner(`r${i}`, level.scope);
      const list = await ok(await call(level.who, 'GET', level.base));
      expectShape(list, 'ActionRunnersResponse');
      expect(list.runners.map((r: { id: number }) => r.id)).toContain(id);
      const one = await ok(await call(level.who, 'GET', `${level.base}/${id}`));
      expectShape(one, 'ActionRunner');
      expect(one).toEqual({
        id, name: `r${i}`, status: 'online', busy: false, ephemeral: false,
        labels: [{ id: 0, name: 'ubuntu-latest', type: 'custom' }, { id: 1, name: 'hearth', type: 'custom' }],
      });
      await ok(await call(level.who, 'PATCH', `${level.base}/${id}`, {}), 422);
      // Gitea 1.25's ActionRunner has no `disabled`: the list filter shows the state.
      const patched = await ok(await call(level.who, 'PATCH', `${level.base}/${id}`, { disabled: true }));
      expect(patched.id).toBe(id);
      const disabledOnly = await ok(await call(level.who, 'GET', `${level.base}?disabled=true`));
      expect(disabledOnly.runners.map((r: { id: number }) => r.id)).toEqual([id]);
      const enabledOnly = await ok(await call(level.who, 'GET', `${level.base}?disabled=false`));
      expect(enabledOnly.runners.map((r: { id: number }) => r.id)).not.toContain(id);
      await ok(await call(level.who, 'DELETE', `${level.base}/${id}`), 204);
      await ok(await call(level.who, 'GET', `${level.base}/${id}`), 404);
      const after = await ok(await call(level.who, 'GET', level.base));
      expect(after.runners.map((r: { id: number }) => r.id)).not.toContain(id);
    }
  });

  it('another scope\'s runner is not found, but a site admin reaches any (Gitea\'s EditableInContext)', async () => {
    const repoRunner = await addRunner('only-repo', { repo_id: repoId });
    const orgRunner = await addRunner('only-org', { owner_id: orgId });
    await ok(await call(alice, 'GET', `orgs/acme/actions/runners/${repoRunner}`), 404);
    await ok(await call(alice, 'GET', `repos/alice/proj/actions/runners/${orgRunner}`), 404);
    await ok(await call(alice, 'GET', `user/actions/runners/${orgRunner}`), 404);
    await ok(await call(alice, 'DELETE', `user/actions/runners/${orgRunner}`), 404);
    // A site admin reads, pauses and unregisters any runner through the instance path (Gitea's admin context).
    expect((await ok(await call(admin, 'GET', `admin/actions/runners/${orgRunner}`))).id).toBe(orgRunner);
    await ok(await call(admin, 'PATCH', `admin/actions/runners/${repoRunner}`, { disabled: true }));
    const paused = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/runners?disabled=true'));
    expect(paused.runners.map((r: { id: number }) => r.id)).toContain(repoRunner);
    // The instance listing shows every runner.
    const all = await ok(await call(admin, 'GET', 'admin/actions/runners'));
    expect(all.runners.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([repoRunner, orgRunner]));
    await ok(await call(alice, 'GET', 'repos/alice/proj/actions/runners/nope'), 404);
    await ok(await call(admin, 'DELETE', `admin/actions/runners/${orgRunner}`), 204);
    await ok(await call(alice, 'GET', `orgs/acme/actions/runners/${orgRunner}`), 404);
  });

  it('status offline after a minute without contact; busy while it runs a task', async () => {
    const idle = await addRunner('gone', { owner_id: alice.id }, { last_online_unix: now() - 120 });
    expect((await ok(await call(alice, 'GET', `user/actions/runners/${idle}`))).status).toBe('offline');
    const busy = await addRunner('busy', { owner_id: alice.id }, { last_active_unix: now() });
    expect(await ok(await call(alice, 'GET', `user/actions/runners/${busy}`))).toMatchObject({ status: 'online', busy: true });
  });

  it('admin routes need a site admin and admin scopes', async () => {
    await ok(await call(alice, 'GET', 'admin/actions/runners'), 403);
    const token = await createToken(s, admin, ['read:admin']);
    await ok(await s.request('api/v1/admin/actions/runners', { auth: { token } }), 200);
    await ok(await s.request('api/v1/admin/actions/runners/registration-token', { method: 'POST', auth: { token } }), 403);
  });
});

describe('with the runner protocol', () => {
  it('a token from the API registers a runner the API then lists; deleted, it is refused', async () => {
    const { token } = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/runners/registration-token'));
    const { runner } = runnerClient(s, false);
    const reg = await runner.register({ name: 'via-api', token, version: 'v0.2.11', labels: ['self-hosted', 'linux'] });
    const id = Number(reg.runner!.id);
    const listed = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/runners'));
    const shown = listed.runners.find((r: { id: number }) => r.id === id);
    expect(shown).toMatchObject({ name: 'via-api', status: 'online', labels: [{ name: 'self-hosted' }, { name: 'linux' }] });
    await ok(await call(alice, 'DELETE', `repos/alice/proj/actions/runners/${id}`), 204);
    const auth = runnerHeaders({ uuid: reg.runner!.uuid, token: reg.runner!.token });
    await expect(runner.fetchTask({ tasksVersion: 0n }, auth)).rejects.toThrow();
  });
});
