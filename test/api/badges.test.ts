import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hearthCommand } from '../helpers/process';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;

/** `hearth admin badge create` from source, on the running server's data directory and database (SQLite takes both). */
function createBadgeCli(...args: string[]) {
  const [cmd, argv] = hearthCommand(['admin', 'badge', 'create', '--data', s.dataDir, ...args]);
  const { driver, url } = s.hearth.config.database;
  const database = driver === 'postgres' ? { HEARTH__DATABASE__DRIVER: driver, HEARTH__DATABASE__URL: url } : {};
  const r = spawnSync(cmd, argv, {
    encoding: 'utf8', env: { ...process.env, HEARTH__LOG__LEVEL: 'warn', ...database },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const admin = () => ({ basic: [s.admin.username, s.admin.password] as [string, string] });
const badges = (user: string) => `api/v1/admin/users/${user}/badges`;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
});
afterAll(async () => { await s.stop(); });

describe('hearth admin badge create', () => {
  it('creates badges; a second one with the same slug is refused', () => {
    const first = createBadgeCli('--slug', 'early-adopter', '--description', 'Joined in the first week', '--image-url', 'https://example.com/early.png');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain("Badge 'early-adopter' has been successfully created!");
    expect(createBadgeCli('--slug', 'reviewer').code).toBe(0);
    const again = createBadgeCli('--slug', 'early-adopter');
    expect(again.code).toBe(1);
    expect(again.err).toContain('badge already exists [slug: early-adopter]');
  }, 120_000); // three processes started from source
});

describe('/admin/users/{username}/badges', () => {
  it('lists no badges at first', async () => {
    const res = await s.request(badges('alice'), { auth: admin() });
    expect(await ok(res)).toEqual([]);
    expect(res.headers.get('x-total-count')).toBe('0');
  });

  it('adds badges by slug (204), listed as the reference\'s Badge', async () => {
    await ok(await s.request(badges('alice'), { method: 'POST', auth: admin(), json: { badge_slugs: ['early-adopter', 'reviewer'] } }), 204);
    // Adding one already held changes nothing.
    await ok(await s.request(badges('alice'), { method: 'POST', auth: admin(), json: { badge_slugs: ['reviewer'] } }), 204);
    const res = await s.request(badges('alice'), { auth: admin() });
    const list = await ok(res);
    expectShape(list, '[Badge]');
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(list).toEqual([
      { id: expect.any(Number), slug: 'early-adopter', description: 'Joined in the first week', image_url: 'https://example.com/early.png' },
      { id: expect.any(Number), slug: 'reviewer', description: '', image_url: '' },
    ]);
  });

  it('answers 422 naming an unknown slug, and changes nothing (Gitea answers 500)', async () => {
    const res = await s.request(badges('alice'), { method: 'POST', auth: admin(), json: { badge_slugs: ['no-such-badge'] } });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain('no-such-badge');
    const del = await s.request(badges('alice'), { method: 'DELETE', auth: admin(), json: { badge_slugs: ['reviewer', 'ghost'] } });
    expect(del.status).toBe(422);
    expect((await json(del)).message).toContain('ghost');
    expect((await ok(await s.request(badges('alice'), { auth: admin() }))).map((b: { slug: string }) => b.slug)).toEqual(['early-adopter', 'reviewer']);
  });

  it('removes badges (204)', async () => {
    await ok(await s.request(badges('alice'), { method: 'DELETE', auth: admin(), json: { badge_slugs: ['early-adopter'] } }), 204);
    expect((await ok(await s.request(badges('alice'), { auth: admin() }))).map((b: { slug: string }) => b.slug)).toEqual(['reviewer']);
  });

  it('is for site admins only; an unknown user is 404', async () => {
    expect((await s.request(badges('alice'), { auth: as(alice) })).status).toBe(403);
    expect((await s.request(badges('alice'), { method: 'POST', auth: as(alice), json: { badge_slugs: ['reviewer'] } })).status).toBe(403);
    expect((await s.request(badges('nobody'), { auth: admin() })).status).toBe(404);
  });
});

describe('other admin operations of the reference', () => {
  it('lists organizations, creates one for a user, adds and deletes a user\'s key', async () => {
    await ok(await s.request('api/v1/admin/users/alice/orgs', { method: 'POST', auth: admin(), json: { username: 'alice-org' } }), 201);
    const orgs = await ok(await s.request('api/v1/admin/orgs', { auth: admin() }));
    expectShape(orgs, '[Organization]');
    expect(orgs.map((o: { name: string }) => o.name)).toContain('alice-org');
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@example.com';
    const created = await ok(await s.request('api/v1/admin/users/alice/keys', { method: 'POST', auth: admin(), json: { title: 'laptop', key } }), 201);
    expectShape(created, 'PublicKey');
    await ok(await s.request(`api/v1/admin/users/alice/keys/${created.id}`, { method: 'DELETE', auth: admin() }), 204);
  });
});
