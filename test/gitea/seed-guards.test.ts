import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repo } from '../helpers/gitea-extra';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import type { Auth } from '../helpers/server';
import { apiFacts } from '../helpers/swagger';

// The order of checks the issue names: admin routes read the token's scope before they look
// anything up (Gitea's tokenRequiresScopes runs before the user or hook is loaded, so a missing
// one is 403, not 404, to a token without the admin scope); Actions routes of a repository
// resolve it before they ask for a sign-in (anonymous callers of a private one get 404).

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); }, 120_000);
afterAll(async () => { await g.stop(); });

type Op = { method: string; path: string };
const missing = (path: string) => path.replace(/\{[^}]+\}/g, (p) => (/id\}$/.test(p) ? '987654' : 'no-such-thing'));

/** Every /admin operation of Gitea's API, its path parameters naming nothing that exists. */
const adminOps = (): Op[] => apiFacts().operations.filter((o) => o.path.startsWith('/admin')).map((o) => ({ method: o.method.toUpperCase(), path: missing(o.path) }));

/** Every /admin operation hearth describes (its extensions too), from its served description. */
async function servedAdminOps(): Promise<Op[]> {
  const doc = (await (await g.s.request('swagger.v1.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).filter(([p]) => p.startsWith('/admin'))
    .flatMap(([p, ops]) => Object.keys(ops).filter((m) => m !== 'parameters').map((m) => ({ method: m.toUpperCase(), path: missing(p) })));
}

async function statuses(auth: Auth, only?: (method: string) => boolean, ops: Op[] = adminOps()): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const op of ops) {
    if (only && !only(op.method)) continue;
    const res = await g.api(op.path, { method: op.method, auth, ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { json: {} }) });
    out[`${op.method} ${op.path}`] = res.status;
  }
  return out;
}

const every = (got: Record<string, number>, want: number) => Object.fromEntries(Object.keys(got).map((k) => [k, want]));

describe('admin routes check the token scope first', () => {
  it('an admin\'s token without the admin scope: 403 on every admin route, missing objects too', async () => {
    const got = await statuses(await g.tokenAuth('user1', 'read:user', 'write:repository'));
    expect(Object.keys(got).length).toBeGreaterThan(25);
    expect(got).toEqual(every(got, 403));
  });

  it('an admin\'s read:admin token: 403 on every admin write, missing objects too', async () => {
    const got = await statuses(await g.tokenAuth('user1', 'read:admin'), (m) => m !== 'GET');
    expect(got).toEqual(every(got, 403));
  });

  it('a non-admin with a write:admin token: 403 everywhere; anonymous: 401', async () => {
    const got = await statuses(await g.tokenAuth('user2', 'write:admin'));
    expect(got).toEqual(every(got, 403));
    const anon = await statuses(undefined);
    expect(anon).toEqual(every(anon, 401));
  });

  it('hearth\'s own admin routes (extensions too) follow the same order', async () => {
    const ops = await servedAdminOps();
    expect(ops.length).toBeGreaterThan(adminOps().length);
    const noScope = await statuses(await g.tokenAuth('user1', 'read:user'), undefined, ops);
    expect(noScope).toEqual(every(noScope, 403));
    const readOnly = await statuses(await g.tokenAuth('user1', 'read:admin'), (m) => m !== 'GET', ops);
    expect(readOnly).toEqual(every(readOnly, 403));
  });

  it('an admin with the admin scope reaches the lookup: a missing user is 404', async () => {
    const auth = await g.tokenAuth('user1', 'write:admin');
    expect((await g.api('admin/users/no-such-thing', { method: 'PATCH', auth, json: { login_name: 'x', source_id: 0 } })).status).toBe(404);
    expect((await g.api('admin/users/no-such-thing', { method: 'DELETE', auth })).status).toBe(404);
  });
});

describe('Actions routes resolve the repository first', () => {
  const paths = [
    ['GET', 'actions/secrets'], ['GET', 'actions/variables'], ['GET', 'actions/runners'], ['GET', 'actions/runs'],
    ['GET', 'actions/jobs'], ['GET', 'actions/workflows'], ['GET', 'actions/tasks'], ['GET', 'actions/artifacts'],
    ['PUT', 'actions/secrets/S'], ['POST', 'actions/variables/V'], ['DELETE', 'actions/runs/1'],
  ] as const;

  it('anonymous callers of a private repository: 404 on every Actions route; of a public one: 401 where sign-in is needed', async () => {
    await repo(g, 'user2', 'hidden-ci', { private: true });
    await repo(g, 'user2', 'open-ci');
    for (const [method, p] of paths) {
      const init = { method, ...(method === 'GET' || method === 'DELETE' ? {} : { json: { data: 'x', value: 'x' } }) };
      expect((await g.api(`repos/user2/hidden-ci/${p}`, init)).status, `${method} ${p}`).toBe(404);
    }
    expect((await g.api('repos/user2/open-ci/actions/secrets')).status).toBe(401);
    expect((await g.api('repos/user2/open-ci/actions/variables/V', { method: 'POST', json: { value: 'x' } })).status).toBe(401);
  });

  it('a signed-in stranger of a private repository: 404 too', async () => {
    await repo(g, 'user2', 'hidden-ci', { private: true });
    const auth = await g.basic('user4');
    for (const [method, p] of paths.filter(([m]) => m === 'GET')) {
      expect((await g.api(`repos/user2/hidden-ci/${p}`, { method, auth })).status, p).toBe(404);
    }
  });
});
