import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, WebClient } from '../helpers/web-client';

// /explore/repos, /explore/users and /explore/organizations: their tabs, search, paging, and only
// what the visitor may see.

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  const alice = await createUser(s, 'alice');
  await createUser(s, 'alfred');
  await createUser(s, 'hidden-hal', { visibility: 'private' });
  for (let i = 0; i < 32; i++) await createUser(s, `filler${String(i).padStart(2, '0')}`);
  await ok(await s.request('api/v1/orgs', { method: 'POST', auth: as(alice), json: { username: 'open-org' } }), 201);
  await ok(await s.request('api/v1/orgs', { method: 'POST', auth: as(alice), json: { username: 'closed-org', visibility: 'private' } }), 201);
});
afterAll(async () => { await s.stop(); });

describe('explore', () => {
  it('finds users by name, hides private ones from visitors, and pages', async () => {
    const anon = new WebClient(s);
    const found = await (await anon.get('explore/users?q=al')).text();
    expect(found).toContain('>alice</a>');
    expect(found).toContain('>alfred</a>');
    expect(found).not.toContain('>filler00</a>');
    expect(await (await anon.get('explore/users?q=hidden')).text()).not.toContain('>hidden-hal</a>');
    const first = await (await anon.get('explore/users')).text();
    expect(first).toContain('rel="next"');
    const second = await (await anon.get('explore/users?page=2')).text();
    expect(second).toContain('rel="prev"');
    expect(second).not.toContain('>alfred</a>');
  });

  it('links repositories, users and organizations to each other as tabs, the current one marked', async () => {
    const anon = new WebClient(s);
    for (const [path, label] of [['repos', 'Repositories'], ['users', 'Users'], ['organizations', 'Organizations']]) {
      const page = await (await anon.get(`explore/${path}`)).text();
      const nav = /<nav class="tabs" aria-label="Explore">.*?<\/nav>/s.exec(page)?.[0] ?? '';
      for (const other of ['repos', 'users', 'organizations']) expect(nav).toContain(`explore/${other}"`);
      expect(nav).toMatch(new RegExp(`explore/${path}" aria-current="page">${label}</a>`));
      expect(nav.match(/aria-current/g)).toHaveLength(1);
    }
  });

  it('lists organizations the visitor may see', async () => {
    const anon = await (await new WebClient(s).get('explore/organizations')).text();
    expect(anon).toContain('>open-org</a>');
    expect(anon).not.toContain('>closed-org</a>');
    const alice = await signedInClient(s, 'alice', 'pw-alice-secret');
    const mine = await (await alice.get('explore/organizations?q=closed')).text();
    expect(mine).not.toContain('>open-org</a>');
    expect(await (await new WebClient(s).get('explore/organizations?q=closed')).text()).not.toContain('>closed-org</a>');
  });
});

describe('profiles', () => {
  it("shows a user's activity, stars, followers and following tabs, and searches an owner's repositories", async () => {
    const alice = { username: 'alice', password: 'pw-alice-secret' };
    await ok(await s.request('api/v1/user/repos', { method: 'POST', auth: as(alice), json: { name: 'rocket', auto_init: true } }), 201);
    await ok(await s.request('api/v1/user/repos', { method: 'POST', auth: as(alice), json: { name: 'boat' } }), 201);
    await ok(await s.request('api/v1/user/starred/alice/rocket', { method: 'PUT', auth: as(alice) }), 204);
    await ok(await s.request('api/v1/user/following/alfred', { method: 'PUT', auth: as(alice) }), 204);
    const anon = new WebClient(s);
    const home = await (await anon.get('alice')).text();
    expect(home).toContain('aria-label="Profile"');
    const found = await (await anon.get('alice?q=rock')).text();
    expect(found).toContain('>alice/rocket</a>');
    expect(found).not.toContain('>alice/boat</a>');
    const activity = await (await anon.get('alice?tab=activity')).text();
    expect(activity).toMatch(/create repo\s+in <a href="[^"]+alice\/rocket">/);
    expect(await (await anon.get('alice?tab=stars')).text()).toContain('>alice/rocket</a>');
    expect(await (await anon.get('alice?tab=following')).text()).toContain('>alfred</a>');
    expect(await (await anon.get('alfred?tab=followers')).text()).toContain('>alice</a>');
    expect((await anon.get('hidden-hal?tab=activity')).status).toBe(404);
  });
});
