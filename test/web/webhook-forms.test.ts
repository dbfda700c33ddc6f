import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, ok, startTestServer, type TestServer } from '../helpers/server';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { createSiteAdmin } from '../helpers/site-admin';
import { eventually } from '../helpers/wait';
import { ownerAndOther, signedInClient, type WebClient } from '../helpers/web-client';

// The webhook component over HTTP, mounted for an organization's settings and the site's
// system and default hooks: add, edit, a delivery listed with its response and redelivered,
// delete; a bad URL is 422; an outsider's forged post adds nothing (checked through the API).

let s: TestServer;
let rx: Receiver;
let alice: { username: string; password: string; id: number };
let web: WebClient;
let bobWeb: WebClient;
const api = (p: string, method = 'GET', json?: unknown) => s.request(`api/v1/${p}`, { method, auth: as(alice), json });

beforeAll(async () => {
  s = await startTestServer({ HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
  rx = await startReceiver();
  const users = await ownerAndOther(s);
  alice = users.alice;
  [web, bobWeb] = [users.alice.web, users.bob.web];
  await ok(await api('orgs', 'POST', { username: 'hooked' }), 201);
});
afterAll(async () => { await rx?.close(); await s?.stop(); });

describe('organization webhooks', () => {
  it('adds a hook that delivers, shows the delivery with its response, redelivers, edits and deletes it', async () => {
    const base = 'org/hooked/settings/hooks';
    const made = await web.post(`${base}/new`, { type: 'gitea', url: rx.url, http_method: 'post', content_type: 'json', events_mode: 'all', active: 'on' });
    expect(made.status, await made.clone().text()).toBe(303);
    const [hook] = await ok(await api('orgs/hooked/hooks'));
    expect([hook.config.url, hook.active, hook.events.length > 5]).toEqual([rx.url, true, true]);
    expect(new URL(made.headers.get('location')!).pathname).toBe(`/${base}/${hook.id}`);
    await ok(await api('orgs/hooked/repos', 'POST', { name: 'lib' }), 201);
    await eventually(async () => rx.requests.length > 0, 15_000, 'a delivery');
    let page = '';
    await eventually(async () => { page = await (await web.get(`${base}/${hook.id}`)).text(); return page.includes('succeeded (200)'); }, 15_000, 'the delivery listed');
    expect(page).toContain('answered 200');
    const delivery = /deliveries\/(\d+)\/redeliver/.exec(page)![1];
    const before = rx.requests.length;
    expect((await web.post(`${base}/${hook.id}/deliveries/${delivery}/redeliver`, {}, { from: `${base}/${hook.id}` })).status).toBe(303);
    await eventually(async () => rx.requests.length > before, 15_000, 'the redelivery');
    expect((await web.post(`${base}/${hook.id}`, { url: `${rx.url}?v=2`, http_method: 'post', content_type: 'form', events_mode: 'push' })).status).toBe(303);
    const edited = await ok(await api(`orgs/hooked/hooks/${hook.id}`));
    expect([edited.config.url, edited.config.content_type, edited.events, edited.active]).toEqual([`${rx.url}?v=2`, 'form', ['push'], false]);
    expect((await web.get(`${base}/${hook.id}/delete`)).status).toBe(200);
    expect((await web.post(`${base}/${hook.id}/delete`, {}, { from: `${base}/${hook.id}` })).status).toBe(303);
    expect(await ok(await api('orgs/hooked/hooks'))).toEqual([]);
  }, 60_000);

  it('refuses a bad URL with 422, and an outsider gets 403 with nothing added', async () => {
    const bad = await web.post('org/hooked/settings/hooks/new', { type: 'gitea', url: 'not a url', events_mode: 'push', active: 'on' });
    expect(bad.status).toBe(422);
    expect((await bobWeb.get('org/hooked/settings/hooks')).status).toBe(403);
    expect((await bobWeb.post('org/hooked/settings/hooks/new', { type: 'gitea', url: rx.url, events_mode: 'push' }, { from: 'user/settings' })).status).toBe(403);
    expect(await ok(await api('orgs/hooked/hooks'))).toEqual([]);
  });
});

// The trigger radio checked on a hook's edit page.
const triggerOf = (page: string, name: string) => new RegExp(`name="${name}" value="(\\w+)" checked`).exec(page)?.[1];

describe('the trigger choice', () => {
  it('keeps "All events" and "Push events" of organization, site (default) and repository hooks after saving', async () => {
    const boss = await createSiteAdmin(s, 'trigger-admin');
    const adminWeb = await signedInClient(s, boss.username, boss.password);
    await ok(await api('orgs/hooked/repos', 'POST', { name: 'triggered' }), 201);
    const hosts: { client: WebClient; base: string; radio: string; form: Record<string, string>; all: string; push: string; apiList: string }[] = [
      { client: web, base: 'org/hooked/settings/hooks', radio: 'events_mode', form: { type: 'gitea', http_method: 'post', content_type: 'json', active: 'on' }, all: 'all', push: 'push', apiList: 'orgs/hooked/hooks' },
      { client: adminWeb, base: '-/admin/hooks', radio: 'events_mode', form: { type: 'gitea', http_method: 'post', content_type: 'json', active: 'on' }, all: 'all', push: 'push', apiList: 'admin/hooks?type=all' },
      { client: web, base: 'hooked/triggered/settings/hooks', radio: 'events', form: { type: 'gitea', content_type: 'json', active: 'on' }, all: 'all', push: 'push', apiList: 'repos/hooked/triggered/hooks' },
    ];
    for (const h of hosts) {
      const url = `${rx.url}?trigger=${encodeURIComponent(h.base)}`;
      const made = await h.client.post(`${h.base}/new`, { ...h.form, url, [h.radio]: h.all }, { from: `${h.base}/new` });
      expect(made.status, await made.clone().text()).toBe(303);
      const hooks = await ok(await s.request(`api/v1/${h.apiList}`, { auth: as(boss) }));
      const hook = hooks.find((x: { config: { url: string } }) => x.config.url === url);
      expect(hook.events, h.base).toContain('pull_request_review_approved');
      const edit = `${h.base}/${hook.id}`;
      expect(triggerOf(await (await h.client.get(edit)).text(), h.radio), h.base).toBe('all');
      expect((await h.client.post(edit, { ...h.form, url, [h.radio]: h.push }, { from: edit })).status).toBe(303);
      expect(triggerOf(await (await h.client.get(edit)).text(), h.radio), h.base).toBe('push');
      expect((await h.client.post(edit, { ...h.form, url, [h.radio]: 'choose', ...(h.radio === 'events' ? { event_push: 'on' } : { events: 'push' }) }, { from: edit })).status).toBe(303);
      expect(triggerOf(await (await h.client.get(edit)).text(), h.radio), h.base).toBe('choose');
    }
  });
});

describe('site webhooks', () => {
  it('adds a system webhook from the administration', async () => {
    const boss = await createSiteAdmin(s);
    const adminWeb = await signedInClient(s, boss.username, boss.password);
    const res = await adminWeb.post('-/admin/hooks/new', { type: 'gitea', url: rx.url, events_mode: 'push', is_system_webhook: 'on', active: 'on' });
    expect(res.status, await res.clone().text()).toBe(303);
    const hooks = await ok(await s.request('api/v1/admin/hooks?type=system', { auth: as(boss) }));
    expect(hooks.map((h: { config: { url: string } }) => h.config.url)).toEqual([rx.url]);
    expect(await (await adminWeb.get('-/admin/hooks')).text()).toContain('>System</span>');
    expect((await web.get('-/admin/hooks')).status).toBe(403);
  });
});
