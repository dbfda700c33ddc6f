import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createToken, createUser, json, ok, startTestServer, type Auth, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// The packages REST API (/api/v1/packages/{owner}/...), over packages uploaded to the generic registry.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let bob: { username: string; password: string; id: number };
const upload = async (owner: string, rest: string, body: string, auth: Auth) => {
  const res = await s.request(`api/packages/${owner}/generic/${rest}`, { method: 'PUT', body, auth });
  expect(res.status, await res.text()).toBe(201);
};
/** Package's repository is null when unlinked (Gitea's nil *Repository); the reference has no nullable refs. */
const expectPackage = (p: Record<string, unknown>) => expectShape({ ...p, repository: p.repository ?? undefined }, 'Package');
const sha = (alg: string, v: string) => crypto.createHash(alg).update(v).digest('hex');

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'api-alice');
  bob = await createUser(s, 'api-bob');
  await upload(alice.username, 'alpha/1.0.0/alpha.bin', 'alpha one', as(alice));
  await upload(alice.username, 'alpha/1.1.0/alpha.bin', 'alpha two', as(alice));
  await upload(alice.username, 'alpha/1.1.0/README.md', 'readme', as(alice));
  await upload(alice.username, 'beta/0.1/beta.bin', 'beta', as(alice));
});
afterAll(async () => { await s.stop(); });

describe('GET /packages/{owner}', () => {
  it('lists every version, newest first, as Package with X-Total-Count', async () => {
    const res = await s.request(`api/v1/packages/${alice.username}`, { auth: as(alice) });
    const list = await ok(res);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(list.map((p: { name: string; version: string }) => `${p.name}@${p.version}`)).toEqual(['beta@0.1', 'alpha@1.1.0', 'alpha@1.0.0']);
    for (const p of list) expectPackage(p);
    expect(list[0]).toMatchObject({
      type: 'generic', owner: { login: alice.username }, creator: { login: alice.username }, repository: null,
      html_url: `${s.hearth.config.server.root_url}${alice.username}/-/packages/generic/beta/0.1`,
    });
  });

  it('filters by type and q, and pages', async () => {
    expect(await ok(await s.request(`api/v1/packages/${alice.username}?type=npm`))).toEqual([]);
    const alpha = await ok(await s.request(`api/v1/packages/${alice.username}?q=alp&type=generic`));
    expect(alpha.map((p: { version: string }) => p.version)).toEqual(['1.1.0', '1.0.0']);
    // Regression: q went into LIKE unescaped, so `%` and `_` matched every package.
    for (const wild of ['%', '_', 'a%a']) expect(await ok(await s.request(`api/v1/packages/${alice.username}?q=${encodeURIComponent(wild)}`))).toEqual([]);
    const page = await s.request(`api/v1/packages/${alice.username}?limit=1&page=2`);
    expect((await ok(page)).map((p: { name: string }) => p.name)).toEqual(['alpha']);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.headers.get('link')).toContain('rel="next"');
  });

  it('404 for an unknown owner or a private one the caller may not see', async () => {
    expect((await s.request('api/v1/packages/no-such-owner')).status).toBe(404);
    const hidden = await createUser(s, 'api-hidden', { visibility: 'private' });
    await upload(hidden.username, 'h/1/h.txt', 'h', as(hidden));
    expect((await s.request(`api/v1/packages/${hidden.username}`)).status).toBe(404);
    expect((await s.request(`api/v1/packages/${hidden.username}`, { auth: as(bob) })).status).toBe(404);
    expect(await ok(await s.request(`api/v1/packages/${hidden.username}`, { auth: as(hidden) }))).toHaveLength(1);
  });

  it('a token needs read:package', async () => {
    const repoToken = await createToken(s, alice, ['read:repository']);
    expect((await s.request(`api/v1/packages/${alice.username}`, { auth: { token: repoToken } })).status).toBe(403);
    const pkgToken = await createToken(s, alice, ['read:package']);
    expect((await s.request(`api/v1/packages/${alice.username}`, { auth: { token: pkgToken } })).status).toBe(200);
  });
});

describe('versions, latest, one version and its files', () => {
  it('lists the versions of a package and the latest one', async () => {
    const res = await s.request(`api/v1/packages/${alice.username}/generic/alpha`);
    expect((await ok(res)).map((p: { version: string }) => p.version)).toEqual(['1.1.0', '1.0.0']);
    expect(res.headers.get('x-total-count')).toBe('2');
    const latest = await ok(await s.request(`api/v1/packages/${alice.username}/generic/alpha/-/latest`));
    expectPackage(latest);
    expect(latest.version).toBe('1.1.0');
    expect((await s.request(`api/v1/packages/${alice.username}/generic/nothing`)).status).toBe(404);
    expect((await s.request(`api/v1/packages/${alice.username}/generic/nothing/-/latest`)).status).toBe(404);
  });

  it('gets one version and its files with their hashes', async () => {
    const one = await ok(await s.request(`api/v1/packages/${alice.username}/generic/alpha/1.1.0`));
    expectPackage(one);
    expect(one).toMatchObject({ name: 'alpha', version: '1.1.0', type: 'generic' });
    const files = await ok(await s.request(`api/v1/packages/${alice.username}/generic/alpha/1.1.0/files`));
    for (const f of files) expectShape(f, 'PackageFile');
    expect(files.map((f: { name: string }) => f.name)).toEqual(['alpha.bin', 'README.md']);
    expect(files[0]).toMatchObject({
      size: 9, md5: sha('md5', 'alpha two'), sha1: sha('sha1', 'alpha two'), sha256: sha('sha256', 'alpha two'), sha512: sha('sha512', 'alpha two'),
    });
    expect(typeof files[0].id).toBe('number');
    expect((await s.request(`api/v1/packages/${alice.username}/generic/alpha/9.9/files`)).status).toBe(404);
  });
});

describe('link, unlink and delete', () => {
  it('links a package to a repository of its owner (201), shown as its repository, and unlinks it', async () => {
    await createRepo(s, alice, 'alpha-src');
    const base = `api/v1/packages/${alice.username}/generic/alpha`;
    expect((await s.request(`${base}/-/link/alpha-src`, { method: 'POST', auth: as(bob) })).status).toBe(403);
    expect((await s.request(`${base}/-/link/no-such-repo`, { method: 'POST', auth: as(alice) })).status).toBe(404);
    expect((await s.request(`${base}/-/link/alpha-src`, { method: 'POST', auth: as(alice) })).status).toBe(201);
    expect((await s.request(`${base}/-/link/alpha-src`, { method: 'POST', auth: as(alice) })).status).toBe(400);
    const linked = await ok(await s.request(`${base}/1.1.0`, { auth: as(alice) }));
    expectPackage(linked);
    expect(linked.repository).toMatchObject({ full_name: `${alice.username}/alpha-src` });
    expect((await s.request(`${base}/-/unlink`, { method: 'POST', auth: as(alice) })).status).toBe(204);
    expect((await ok(await s.request(`${base}/1.1.0`))).repository).toBeNull();
  });

  it('deletes a version (204) for the owner only; the package goes with its last version', async () => {
    const base = `api/v1/packages/${alice.username}/generic/beta/0.1`;
    expect((await s.request(base, { method: 'DELETE' })).status).toBe(403);
    expect((await s.request(base, { method: 'DELETE', auth: as(bob) })).status).toBe(403);
    const readToken = await createToken(s, alice, ['read:package']);
    expect((await s.request(base, { method: 'DELETE', auth: { token: readToken } })).status).toBe(403);
    expect((await s.request(base, { method: 'DELETE', auth: as(alice) })).status).toBe(204);
    expect((await s.request(base)).status).toBe(404);
    expect((await s.request(`api/v1/packages/${alice.username}/generic/beta`)).status).toBe(404);
    expect((await s.request(`api/packages/${alice.username}/generic/beta/0.1/beta.bin`)).status).toBe(404);
  });
});

describe('the package webhook event', () => {
  it('delivers `package` created and deleted to the owner\'s hooks with Gitea\'s PackagePayload', async () => {
    const carol = await createUser(s, 'api-carol');
    const hook = await s.request('api/v1/user/hooks', {
      method: 'POST', auth: as(carol),
      json: { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, events: ['package'], active: true },
    });
    expect(hook.status, await hook.clone().text()).toBe(201);
    const hookId = (await json(hook)).id as number;
    await upload(carol.username, 'hooked/1/a.txt', 'a', as(carol));
    await upload(carol.username, 'hooked/1/b.txt', 'b', as(carol)); // no new version: no event
    expect((await s.request(`api/v1/packages/${carol.username}/generic/hooked/1`, { method: 'DELETE', auth: as(carol) })).status).toBe(204);
    const tasks = await s.hearth.db.selectFrom('hook_task').selectAll().where('hook_id', '=', hookId).orderBy('id').execute();
    expect(tasks.map((t) => [t.event, JSON.parse(t.payload_content).action])).toEqual([['package', 'created'], ['package', 'deleted']]);
    const payload = JSON.parse(tasks[0]!.payload_content);
    expectPackage(payload.package);
    expect(payload).toMatchObject({ package: { name: 'hooked', version: '1', type: 'generic' }, sender: { login: carol.username }, repository: null });
  });
});
