import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretsForTask } from '../../src/services/actions/secrets';
import { variablesForTask } from '../../src/services/actions/variables';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { as, createToken, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// Actions secrets and variables through the REST API at repository, organization and user
// level (issue 15), as Gitea 1.25 answers them.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds;
let bob: Creds;

const call = (who: Creds | null, method: string, p: string, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), ...(body === undefined ? {} : { json: body }) });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true });
  await createOrg(s, alice, 'acme');
}, 60_000);
afterAll(async () => { await s.stop(); });

describe('secrets', () => {
  const levels = [
    { name: 'repository', base: 'repos/alice/proj/actions/secrets', list: true },
    { name: 'organization', base: 'orgs/acme/actions/secrets', list: true },
    { name: 'user', base: 'user/actions/secrets', list: false },
  ];
  for (const level of levels) {
    it(`${level.name}: PUT creates (201) then updates (204), DELETE 204, never returns the value`, async () => {
      await ok(await call(alice, 'PUT', `${level.base}/deploy_key`, { data: 'hunter2', description: 'the key' }), 201);
      await ok(await call(alice, 'PUT', `${level.base}/DEPLOY_KEY`, { data: 'hunter3' }), 204);
      if (level.list) {
        const res = await call(alice, 'GET', level.base);
        const list = await ok(res);
        expectShape(list, '[Secret]');
        expect(list).toEqual([{ name: 'DEPLOY_KEY', description: '', created_at: expect.any(String) }]);
        expect(res.headers.get('x-total-count')).toBe('1');
        expect(JSON.stringify(list)).not.toContain('hunter');
      }
      await ok(await call(alice, 'DELETE', `${level.base}/deploy_key`), 204);
      await ok(await call(alice, 'DELETE', `${level.base}/deploy_key`), 404);
    });
  }

  it('names as Gitea: [A-Z0-9_], no leading digit, no GITEA_/GITHUB_ prefix: 400', async () => {
    for (const bad of ['1ABC', 'GITEA_X', 'github_token', 'A-B', 'A.B']) {
      await ok(await call(alice, 'PUT', `repos/alice/proj/actions/secrets/${bad}`, { data: 'x' }), 400);
    }
    await ok(await call(alice, 'DELETE', 'repos/alice/proj/actions/secrets/1ABC'), 400);
  });

  it('data is required (422)', async () => {
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/secrets/X', {}), 422);
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/secrets/X', { data: '' }), 422);
  });

  it('values are sealed at rest', async () => {
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/secrets/SEALED', { data: 'plain-text-value' }), 201);
    const row = await s.hearth.db.selectFrom('action_secret').selectAll().where('name', '=', 'SEALED').executeTakeFirstOrThrow();
    expect(row.data).not.toContain('plain-text-value');
    expect(row.data.startsWith('v1.')).toBe(true);
  });

  it('repository secrets need a repository admin, organization ones an owner', async () => {
    await ok(await call(bob, 'GET', 'repos/alice/proj/actions/secrets'), 403);
    await ok(await call(bob, 'PUT', 'repos/alice/proj/actions/secrets/X', { data: 'x' }), 403);
    await ok(await call(null, 'GET', 'repos/alice/proj/actions/secrets'), 401);
    await ok(await call(bob, 'GET', 'orgs/acme/actions/secrets'), 403);
  });

  it('scopes: write:repository to PUT a repository secret, read is not enough', async () => {
    const read = await createToken(s, alice, ['read:repository']);
    const write = await createToken(s, alice, ['write:repository']);
    const put = (token: string) => s.request('api/v1/repos/alice/proj/actions/secrets/SCOPED', { method: 'PUT', auth: { token }, json: { data: 'x' } });
    await ok(await put(read), 403);
    await ok(await put(write), 201);
  });
});

describe('variables', () => {
  const levels = [
    { name: 'repository', base: 'repos/alice/proj/actions/variables' },
    { name: 'organization', base: 'orgs/acme/actions/variables' },
    { name: 'user', base: 'user/actions/variables' },
  ];
  for (const level of levels) {
    it(`${level.name}: create 201, 409 when it exists, get, update 204, rename, list, delete`, async () => {
      await ok(await call(alice, 'POST', `${level.base}/my_var`, { value: 'one', description: 'd' }), 201);
      await ok(await call(alice, 'POST', `${level.base}/MY_VAR`, { value: 'two' }), 409);
      const got = await ok(await call(alice, 'GET', `${level.base}/my_var`));
      expectShape(got, 'ActionVariable');
      expect(got).toMatchObject({ name: 'MY_VAR', data: 'one', description: 'd' });
      await ok(await call(alice, 'PUT', `${level.base}/MY_VAR`, { value: 'two' }), 204);
      expect((await ok(await call(alice, 'GET', `${level.base}/MY_VAR`))).data).toBe('two');
      await ok(await call(alice, 'PUT', `${level.base}/MY_VAR`, { value: 'three', name: 'renamed' }), 204);
      await ok(await call(alice, 'GET', `${level.base}/MY_VAR`), 404);
      const list = await ok(await call(alice, 'GET', level.base));
      expectShape(list, '[ActionVariable]');
      expect(list.map((v: { name: string }) => v.name)).toEqual(['RENAMED']);
      await ok(await call(alice, 'DELETE', `${level.base}/renamed`), 204);
      await ok(await call(alice, 'DELETE', `${level.base}/renamed`), 404);
    });
  }

  it('owner and repository ids say where a variable belongs', async () => {
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/variables/WHERE', { value: 'r' }), 201);
    await ok(await call(alice, 'POST', 'orgs/acme/actions/variables/WHERE', { value: 'o' }), 201);
    const repoVar = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/variables/WHERE'));
    const orgVar = await ok(await call(alice, 'GET', 'orgs/acme/actions/variables/WHERE'));
    expect(repoVar.owner_id).toBe(0);
    expect(repoVar.repo_id).toBeGreaterThan(0);
    expect(orgVar.repo_id).toBe(0);
    expect(orgVar.owner_id).toBeGreaterThan(0);
  });

  it('bad names 400, missing value 422, renaming onto another variable 409', async () => {
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/variables/GITHUB_X', { value: 'x' }), 400);
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/variables/OK_NAME', {}), 422);
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/variables/A1', { value: '1' }), 201);
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/variables/A2', { value: '2' }), 201);
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/variables/A1', { value: '1', name: 'a2' }), 409);
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/variables/A1', { value: '1', name: '9bad' }), 400);
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/variables/NOPE', { value: '1' }), 404);
  });

  it('user variables are the caller\'s own', async () => {
    await ok(await call(alice, 'POST', 'user/actions/variables/MINE', { value: 'alice' }), 201);
    await ok(await call(bob, 'GET', 'user/actions/variables/MINE'), 404);
    expect(await json(await call(bob, 'GET', 'user/actions/variables'))).toEqual([]);
  });
});

describe('what a task of the repository gets', () => {
  it('secrets: the owner\'s, overridden by the repository\'s; variables: instance, owner, repository', async () => {
    await createRepo(s, bob, 'task', { auto_init: true });
    await ok(await call(bob, 'PUT', 'user/actions/secrets/SHARED', { data: 'from-owner' }), 201);
    await ok(await call(bob, 'PUT', 'user/actions/secrets/OWNER_ONLY', { data: 'o' }), 201);
    await ok(await call(bob, 'PUT', 'repos/bob/task/actions/secrets/SHARED', { data: 'from-repo' }), 201);
    await ok(await call(bob, 'POST', 'user/actions/variables/LEVEL', { value: 'owner' }), 201);
    await ok(await call(bob, 'POST', 'repos/bob/task/actions/variables/LEVEL', { value: 'repo' }), 201);
    await ok(await call(bob, 'POST', 'user/actions/variables/OWNER_VAR', { value: 'ov' }), 201);
    const repo = await s.hearth.db.selectFrom('repository').select(['id', 'owner_id']).where('lower_name', '=', 'task').executeTakeFirstOrThrow();
    expect(await secretsForTask(s.hearth.db, s.hearth.secret, repo.owner_id, repo.id)).toEqual({ SHARED: 'from-repo', OWNER_ONLY: 'o' });
    expect(await variablesForTask(s.hearth.db, repo.owner_id, repo.id)).toEqual({ LEVEL: 'repo', OWNER_VAR: 'ov' });
  });
});

describe('tokens', () => {
  it('a public-only token manages no user-level actions settings', async () => {
    const token = await createToken(s, alice, ['write:user', 'public-only']);
    const res = await s.request('api/v1/user/actions/variables', { auth: { token } });
    expect(res.status).toBe(403);
    const full = await createToken(s, alice, ['read:user']);
    expect((await s.request('api/v1/user/actions/variables', { auth: { token: full } })).status).toBe(200);
    expect((await s.request('api/v1/user/actions/variables/X', { method: 'POST', auth: { token: full }, json: { value: 'v' } })).status).toBe(403);
  });
});
