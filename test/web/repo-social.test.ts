import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, type Creds } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, type WebClient } from '../helpers/web-client';

// The repository header's watch, star and fork buttons over HTTP: each form changes what the
// API reports and goes back to the page it was posted from (never off the site); anonymous
// visitors see the counts only.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let bobWeb: WebClient;

const api = (p: string, who: Creds = bob) => s.request(`api/v1/${p}`, { auth: as(who) });
const root = () => s.hearth.config.server.root_url;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true });
  bobWeb = await signedInClient(s, 'bob', bob.password);
});
afterAll(async () => { await s.stop(); });

describe('watch, star and fork', () => {
  it('stars and unstars, going back to the page the form was on', async () => {
    const from = 'alice/proj/issues';
    const page = await (await bobWeb.get(from)).text();
    expect(page).toContain(`action="${root()}alice/proj/action/star"`);
    expect(page).toContain(`href="${root()}alice/proj/fork"`);
    const res = await bobWeb.post('alice/proj/action/star', { redirect_to: '/alice/proj/issues' }, { from });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}alice/proj/issues`);
    expect((await api('user/starred/alice/proj')).status).toBe(204);
    expect(await (await bobWeb.get(from)).text()).toMatch(/aria-pressed="true">Unstar <span class="count">1<\/span>/);
    expect((await bobWeb.post('alice/proj/action/unstar', { redirect_to: '/alice/proj/issues' }, { from })).status).toBe(303);
    expect((await api('user/starred/alice/proj')).status).toBe(404);
  });

  it('watches and unwatches', async () => {
    const from = 'alice/proj/issues';
    expect((await bobWeb.post('alice/proj/action/watch', { redirect_to: '/alice/proj/issues' }, { from })).status).toBe(303);
    expect((await api('repos/alice/proj/subscription')).status).toBe(200);
    expect(await (await bobWeb.get(from)).text()).toContain('aria-pressed="true">Unwatch');
    expect((await bobWeb.post('alice/proj/action/unwatch', { redirect_to: '/alice/proj/issues' }, { from })).status).toBe(303);
    expect((await api('repos/alice/proj/subscription')).status).toBe(404);
  });

  it('goes back to the repository when the return path leaves the site; unknown actions are 404', async () => {
    const from = 'alice/proj/issues';
    const res = await bobWeb.post('alice/proj/action/star', { redirect_to: '//evil.example/x' }, { from });
    expect(res.headers.get('location')).toBe(`${root()}alice/proj`);
    expect((await bobWeb.post('alice/proj/action/explode', {}, { from })).status).toBe(404);
  });

  it('shows anonymous visitors the counts without forms', async () => {
    const text = await (await s.request('alice/proj/issues')).text();
    expect(text).toMatch(/Watchers \d+ · Stars \d+ · Forks 0/);
    expect(text).not.toContain('/action/star"');
  });
});
