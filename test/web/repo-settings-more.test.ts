import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, remoteUrl } from '../helpers/git';
import { as, ok, type Creds } from '../helpers/pull-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeKey } from '../helpers/ssh';
import { type WebClient, ownerAndOther } from '../helpers/web-client';

// The rest of the repository settings over HTTP: tag protection, deploy keys, Actions secrets
// and variables, push mirrors. Each change is checked through the API; bad input re-renders
// 422 with the message; a reader of a private repository gets the 404 of a missing page.

let s: TestServer;
let alice: Creds;
let web: WebClient;
let bobWeb: WebClient;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

beforeAll(async () => {
  // Push mirrors here point at this server (no other host resolves in tests).
  s = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  const users = await ownerAndOther(s);
  ({ alice } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
});
afterAll(async () => { await s.stop(); });

describe('tag protection', () => {
  it('adds, edits in place and deletes a rule; a rule naming nobody is 422', async () => {
    await createRepo(s, alice, 'tags', { auto_init: true });
    const from = 'alice/tags/settings/tags';
    expect((await web.post(from, { name_pattern: 'v*', users: 'alice' }, { from })).status).toBe(303);
    const [rule] = await ok(await api('repos/alice/tags/tag_protections'));
    expect([rule.name_pattern, rule.whitelist_usernames]).toEqual(['v*', ['alice']]);
    expect(await (await web.get(`${from}?edit=${rule.id}`)).text()).toContain(`id="edit-${rule.id}-pattern" name="name_pattern" type="text" value="v*"`);
    expect((await web.post(`${from}/${rule.id}`, { name_pattern: 'release-*', users: 'alice' }, { from })).status).toBe(303);
    expect((await ok(await api(`repos/alice/tags/tag_protections/${rule.id}`))).name_pattern).toBe('release-*');
    const nobody = await web.post(from, { name_pattern: 'x*', users: '' }, { from });
    expect(nobody.status).toBe(422);
    expect(await nobody.text()).toContain('whitelist');
    expect((await web.post(`${from}/${rule.id}/delete`, {}, { from })).status).toBe(303);
    expect(await ok(await api('repos/alice/tags/tag_protections'))).toEqual([]);
  });
});

describe('deploy keys', () => {
  it('adds a write key and deletes it; a bad key is 422; a reader of a private repository gets 404', async () => {
    await createRepo(s, alice, 'keys', { auto_init: true, private: true });
    const from = 'alice/keys/settings/keys';
    const key = makeKey('ed25519', 'deploy');
    expect((await web.post(from, { title: 'ci', content: key.pub, is_writable: 'on' }, { from })).status).toBe(303);
    const [added] = await ok(await api('repos/alice/keys/keys'));
    expect([added.title, added.read_only]).toEqual(['ci', false]);
    const bad = await web.post(from, { title: 'broken', content: 'ssh-ed25519 not-a-key' }, { from });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('id="f-content-error"');
    await ok(await api('repos/alice/keys/collaborators/bob', 'PUT', { permission: 'read' }), 204);
    expect((await bobWeb.get(from)).status).toBe(404);
    expect((await web.post(`${from}/${added.id}/delete`, {}, { from })).status).toBe(303);
    expect(await ok(await api('repos/alice/keys/keys'))).toEqual([]);
  });
});

describe('Actions secrets and variables', () => {
  it('saves a secret without ever showing it, adds, edits and deletes a variable; a bad name is 422', async () => {
    await createRepo(s, alice, 'ci', { auto_init: true });
    const from = 'alice/ci/settings/actions';
    expect((await web.post(`${from}/secrets`, { name: 'deploy_token', data: 'hunter2-secret', description: 'for deploys' }, { from })).status).toBe(303);
    const [secret] = await ok(await api('repos/alice/ci/actions/secrets'));
    expect(secret.name).toBe('DEPLOY_TOKEN');
    const page = await (await web.get(from)).text();
    expect(page).toContain('DEPLOY_TOKEN');
    expect(page).not.toContain('hunter2-secret');
    const bad = await web.post(`${from}/secrets`, { name: 'GITEA_X', data: 'v' }, { from });
    expect(bad.status).toBe(422);
    expect(await bad.text()).not.toContain('value="v"');
    expect((await web.post(`${from}/variables`, { name: 'region', value: 'eu-west' }, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/ci/actions/variables/REGION'))).data).toBe('eu-west');
    expect((await web.post(`${from}/variables`, { name: 'region', value: 'again' }, { from })).status).toBe(422);
    expect((await web.post(`${from}/variables/edit`, { old_name: 'REGION', name: 'ZONE', value: 'eu-north' }, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/ci/actions/variables/ZONE'))).data).toBe('eu-north');
    expect((await web.post(`${from}/variables/delete?name=ZONE`, {}, { from })).status).toBe(303);
    expect((await web.post(`${from}/secrets/delete?name=DEPLOY_TOKEN`, {}, { from })).status).toBe(303);
    expect(await ok(await api('repos/alice/ci/actions/variables'))).toEqual([]);
    expect(await ok(await api('repos/alice/ci/actions/secrets'))).toEqual([]);
  });
});

describe('mirror settings', () => {
  it('adds a push mirror with credentials, queues a push, deletes it; a bad interval is 422', async () => {
    await createRepo(s, alice, 'mirrored', { auto_init: true });
    const from = 'alice/mirrored/settings/mirror';
    const target = `${s.hearth.config.server.root_url}alice/keys-target.git`;
    const added = await web.post(`${from}/push`, { remote_address: target, remote_username: 'u', remote_password: 'p', interval: '8h0m0s' }, { from });
    expect(added.status, await added.clone().text()).toBe(303);
    const [m] = await ok(await api('repos/alice/mirrored/push_mirrors'));
    expect([m.remote_address, m.interval]).toEqual([target, '8h0m0s']);
    expect(await (await web.get(from)).text()).not.toContain('value="p"');
    expect((await web.post(`${from}/push/sync`, {}, { from })).status).toBe(303);
    const bad = await web.post(`${from}/push`, { remote_address: target, interval: 'soon' }, { from });
    expect(bad.status).toBe(422);
    expect((await ok(await api('repos/alice/mirrored/push_mirrors'))).length).toBe(1);
    expect((await web.post(`${from}/push/delete?name=${encodeURIComponent(m.remote_name)}`, {}, { from })).status).toBe(303);
    expect(await ok(await api('repos/alice/mirrored/push_mirrors'))).toEqual([]);
  });
});

describe('pull mirror settings', () => {
  it('changes the interval and pruning, queues a sync; a bad interval is 422', async () => {
    await createRepo(s, alice, 'upstream', { auto_init: true });
    await ok(await api('repos/migrate', 'POST', {
      clone_addr: remoteUrl(s, 'alice', 'upstream'), auth_username: 'alice', auth_password: alice.password, repo_name: 'pulled', mirror: true,
    }), 201);
    const from = 'alice/pulled/settings/mirror';
    expect(await (await web.get(from)).text()).toContain('Synchronize now');
    expect((await web.post(from, { interval: '2h0m0s', enable_prune: 'on' }, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/pulled'))).mirror_interval).toBe('2h0m0s');
    const bad = await web.post(from, { interval: 'often' }, { from });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('id="f-interval-error"');
    expect((await ok(await api('repos/alice/pulled'))).mirror_interval).toBe('2h0m0s');
    expect((await web.post(`${from}/sync`, {}, { from })).status).toBe(303);
  });
});
