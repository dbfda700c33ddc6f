import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRunner } from '../../src/runner/client';
import { createRepo } from '../helpers/git';
import { as, ok, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, WebClient, ownerAndOther } from '../helpers/web-client';

// The runners pages over HTTP at the repository, organization and site levels: the
// registration token (shown, reset), a runner registered with it listed, paused, resumed and
// deleted; who may not manage them gets 403 (or 404 for a private repository), and their forged
// posts change nothing.

type U = { username: string; password: string };
let s: TestServer;
let alice: U;
let web: WebClient;
let bobWeb: WebClient;

const tokenOn = (page: string) => /id="reg-token" type="text" readonly value="([^"]+)"/.exec(page)![1]!;
const api = (p: string, who: U = alice) => s.request(`api/v1/${p}`, { auth: as(who) });

beforeAll(async () => {
  s = await startTestServer();
  const users = await ownerAndOther(s);
  ({ alice } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
  await createRepo(s, alice, 'app');
  await createRepo(s, alice, 'private-app', { private: true });
  await ok(await s.request('api/v1/orgs', { method: 'POST', auth: as(alice), json: { username: 'crew' } }), 201);
});
afterAll(async () => { await s.stop(); });

describe('runners pages', () => {
  it('shows and resets a repository token, lists, pauses, resumes and deletes its runner', async () => {
    const base = 'alice/app/settings/actions/runners';
    const first = tokenOn(await (await web.get(base)).text());
    expect((await web.post(`${base}/reset_registration_token`, {}, { from: base })).status).toBe(303);
    const token = tokenOn(await (await web.get(base)).text());
    expect(token).not.toBe(first);
    await registerRunner(s.hearth.config.server.root_url.replace(/\/$/, ''), token, 'box-1', ['hearth']);
    const list = await (await web.get(base)).text();
    expect(list).toContain('box-1');
    const [runner] = (await ok(await api('repos/alice/app/actions/runners'))).runners;
    expect((await web.post(`${base}/${runner.id}`, { disabled: 'true' }, { from: `${base}/${runner.id}` })).status).toBe(303);
    // The API answers runners without hearth's `disabled` (as Gitea 1.25): its list filter tells.
    const paused = async () => ((await ok(await api('repos/alice/app/actions/runners?disabled=true'))).runners as { id: number }[]).map((r) => r.id);
    expect(await paused()).toEqual([runner.id]);
    expect(await (await web.get(`${base}/${runner.id}`)).text()).toContain('Resume');
    expect((await web.post(`${base}/${runner.id}`, { disabled: 'false' }, { from: `${base}/${runner.id}` })).status).toBe(303);
    expect(await paused()).toEqual([]);
    expect((await web.get(`${base}/${runner.id}/delete`)).status).toBe(200);
    expect((await web.post(`${base}/${runner.id}/delete`, {}, { from: base })).status).toBe(303);
    expect((await ok(await api('repos/alice/app/actions/runners'))).runners).toHaveLength(0);
  });

  it('serves the organization and site levels to their owners and admins', async () => {
    expect(await (await web.get('org/crew/settings/actions/runners')).text()).toContain('Registration token');
    const admin = await signedInClient(s, s.admin.username, s.admin.password);
    const adminPage = await admin.get('-/admin/actions/runners');
    // The printed first admin may have to change the password first: either way not a 403/404.
    expect([200, 303]).toContain(adminPage.status);
    expect((await web.get('-/admin/actions/runners')).status).toBe(403);
  });

  it('refuses others: 403 where they see the thing, 404 where they do not, and forged posts change nothing', async () => {
    const base = 'alice/app/settings/actions/runners';
    const before = tokenOn(await (await web.get(base)).text());
    expect((await bobWeb.get(base)).status).toBe(403);
    expect((await bobWeb.post(`${base}/reset_registration_token`, {}, { from: 'alice/app' })).status).toBe(403);
    expect(tokenOn(await (await web.get(base)).text())).toBe(before);
    expect((await bobWeb.get('alice/private-app/settings/actions/runners')).status).toBe(404);
    expect((await new WebClient(s).get('alice/private-app/settings/actions/runners')).status).toBe(303);
    expect((await bobWeb.get('org/crew/settings/actions/runners')).status).toBe(403);
  });
});
