import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountedRoutes, csrf, siteChain } from '../../src/routes/web/table';
import { formUser } from '../../src/routes/web/session';
import { webGroups } from '../../src/routes/web/index';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// Forms change things only with a session and the CSRF token of that session: a form posted
// without it, with another session's, with Basic or token credentials or from another site is
// refused and changes nothing. Every POST route of the table carries the guard.

let s: TestServer;
const sessions = (uid: number) => s.hearth.db.selectFrom('web_session').select('id').where('uid', '=', uid).execute();
const passwd = async (uid: number) => (await s.hearth.db.selectFrom('user').select('passwd').where('id', '=', uid).executeTakeFirstOrThrow()).passwd;

beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s.stop(); });

describe('the route table', () => {
  const routes = mountedRoutes(webGroups);

  it('gives every POST route the form chain, CSRF check included', () => {
    const posts = routes.filter((r) => r.method === 'post');
    expect(posts.map((r) => r.path)).toEqual(expect.arrayContaining(['/user/login', '/user/logout', '/user/settings/change_password']));
    for (const r of posts) {
      expect(r.chain, `${r.path}`).toContain(csrf);
      // The session checks, whatever the body (URL-encoded, JSON or multipart), then the token.
      for (const check of formUser) expect(r.chain.indexOf(check), r.path).toBeLessThan(r.chain.indexOf(csrf));
      expect(r.chain.indexOf(csrf), r.path).toBeLessThan(siteChain({}, r).length);
    }
  });

  it('gives every route of a group its group\'s guards, after the site\'s', () => {
    for (const g of webGroups) {
      for (const r of routes.filter((m) => m.group === g.name)) {
        const site = siteChain(g, r);
        expect(r.chain.slice(0, site.length + g.guards.length), `${g.name} ${r.path}`).toEqual([...site, ...g.guards]);
      }
    }
    expect(new Set(routes.map((r) => r.group)).size).toBe(webGroups.length);
  });
});

describe('a form posted', () => {
  it('without the token is refused and changes nothing', async () => {
    const u = await createUser(s, 'nocsrf');
    const c = new WebClient(s);
    await c.signIn(u.username, u.password);
    const before = await passwd(u.id);
    const res = await c.post('user/settings/change_password', { old_password: u.password, password: 'brand-new-pass-1', retype: 'brand-new-pass-1' }, { csrf: false });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('This form has expired or was not sent from this site');
    expect(await passwd(u.id)).toBe(before);
    // Nor does sign-out happen without it.
    expect((await c.post('user/logout', {}, { csrf: false })).status).toBe(403);
    expect(await sessions(u.id)).toHaveLength(1);
  });

  it('with another session\'s token is refused', async () => {
    const u = await createUser(s, 'mixed');
    const [a, b] = [new WebClient(s), new WebClient(s)];
    await a.signIn(u.username, u.password);
    await b.signIn(u.username, u.password);
    const tokenOfA = await a.csrfOf('');
    expect((await b.post('user/logout', {}, { csrf: tokenOfA })).status).toBe(403);
    expect(await sessions(u.id)).toHaveLength(2);
    expect((await b.post('user/logout', {}, { from: '' })).status).toBe(303);
    expect(await sessions(u.id)).toHaveLength(1);
  });

  it('with Basic or token credentials is refused, even with a session and its token', async () => {
    const u = await createUser(s, 'basicpost');
    const c = new WebClient(s);
    await c.signIn(u.username, u.password);
    const token = await c.csrfOf('');
    const basic = `Basic ${Buffer.from(`${u.username}:${u.password}`).toString('base64')}`;
    const res = await c.post('user/logout', {}, { csrf: token, headers: { Authorization: basic } });
    expect(res.status).toBe(403);
    expect(await sessions(u.id)).toHaveLength(1);
  });

  it('from another site (Sec-Fetch-Site: cross-site) is refused, with or without the token', async () => {
    const u = await createUser(s, 'xsite');
    const c = new WebClient(s);
    await c.signIn(u.username, u.password);
    const token = await c.csrfOf('');
    expect((await c.post('user/logout', {}, { csrf: token, headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(403);
    expect(await sessions(u.id)).toHaveLength(1);
    // Same-origin posts name themselves and pass (with the token: the header never replaces it).
    expect((await c.post('user/logout', {}, { csrf: false, headers: { 'Sec-Fetch-Site': 'same-origin' } })).status).toBe(403);
    expect((await c.post('user/logout', {}, { csrf: token, headers: { 'Sec-Fetch-Site': 'same-origin' } })).status).toBe(303);
  });

  it('to sign in needs the pre-sign-in cookie its page set (login CSRF)', async () => {
    const u = await createUser(s, 'logincsrf');
    const attacker = new WebClient(s);
    const token = await attacker.csrfOf('user/login');
    // The victim's browser has no cookie of the attacker's: the attacker's token alone fails.
    const victim = new WebClient(s);
    const res = await victim.post('user/login', { user_name: u.username, password: u.password }, { csrf: token });
    expect(res.status).toBe(403);
    expect(victim.cookies.has('hearth_session')).toBe(false);
    expect(await sessions(u.id)).toHaveLength(0);
  });
});

describe('the page script', () => {
  it('sends the token as a header (markdown preview)', async () => {
    const u = await createUser(s, 'scripted');
    const c = new WebClient(s);
    await c.signIn(u.username, u.password);
    const token = await c.csrfOf('');
    const send = (headers: Record<string, string>) => c.fetch('-/markdown', {
      method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ text: '**bold**' }),
    });
    expect((await send({})).status).toBe(403);
    const res = await send({ 'X-Csrf-Token': token });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<strong>bold</strong>');
  });
});
