import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { startReceiver } from '../helpers/receiver';
import { eventually } from '../helpers/wait';
import { as, ok, type Creds } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { type WebClient, ownerAndOther } from '../helpers/web-client';

// The repository settings pages over HTTP: who may see them (admins; a reader of a private
// repository gets the 404 of a missing page, of a public one a 403), the general options and
// units through the repository edit service, collaborators, branch protection rules and the
// danger zone. Each change is checked through the API; forged posts change nothing.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let web: WebClient;
let bobWeb: WebClient;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

beforeAll(async () => {
  s = await startTestServer({ HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
  const users = await ownerAndOther(s);
  ({ alice, bob } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
});
afterAll(async () => { await s.stop(); });

describe('who sees the settings', () => {
  it('answers a reader 404 on a private repository and 403 on a public one; the admin gets the Settings tab', async () => {
    await createRepo(s, alice, 'hidden', { private: true, auto_init: true });
    await createRepo(s, alice, 'open', { auto_init: true });
    await ok(await api('repos/alice/hidden/collaborators/bob', 'PUT', { permission: 'read' }), 204);
    expect((await bobWeb.get('alice/hidden/settings')).status).toBe(404);
    expect((await bobWeb.get('alice/hidden/settings/branches')).status).toBe(404);
    const open = await bobWeb.get('alice/open/settings');
    expect(open.status).toBe(403);
    expect(await (await bobWeb.get('alice/open')).text()).not.toContain('alice/open/settings"');
    const page = await web.get('alice/open/settings');
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('aria-current="page" class="active" href="' + s.hearth.config.server.root_url + 'alice/open/settings">Settings');
    expect(body).toContain('name="description"');
  });

  it('refuses a forged post from a reader: nothing changes', async () => {
    await createRepo(s, alice, 'guarded', { auto_init: true, description: 'kept' });
    const csrf = await bobWeb.csrfOf('user/settings');
    const res = await bobWeb.post('alice/guarded/settings', { name: 'guarded', description: 'hacked' }, { csrf });
    expect(res.status).toBe(403);
    expect((await ok(await api('repos/alice/guarded'))).description).toBe('kept');
  });
});

describe('general', () => {
  it('saves the options and units, and renames with a redirect to the new address', async () => {
    await createRepo(s, alice, 'gen', { auto_init: true });
    const from = 'alice/gen/settings';
    const res = await web.post('alice/gen/settings', { name: 'gen2', description: 'about', website: 'https://example.com', private: 'on' }, { from });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('alice/gen2/settings?done=saved');
    const repo = await ok(await api('repos/alice/gen2'));
    expect([repo.description, repo.website, repo.private]).toEqual(['about', 'https://example.com', true]);
    const units = await web.post('alice/gen2/settings/units', {
      has_code: 'on', has_issues: 'on', allow_squash_merge: 'on', default_merge_style: 'squash', default_branch: 'main',
      external_wiki: 'on', wiki_url: 'https://wiki.example.com/',
    }, { from: 'alice/gen2/settings' });
    expect(units.status).toBe(303);
    const after = await ok(await api('repos/alice/gen2'));
    expect([after.has_pull_requests, after.has_issues, after.allow_merge_commits, after.allow_squash_merge, after.default_merge_style])
      .toEqual([false, true, false, true, 'squash']);
    expect(after.external_wiki.external_wiki_url).toBe('https://wiki.example.com/');
  });

  it("lists the repository's branches, sorted, in the default branch select", async () => {
    await createRepo(s, alice, 'forks-of-road', { auto_init: true });
    for (const name of ['zeta', 'alpha']) await ok(await api('repos/alice/forks-of-road/branches', 'POST', { new_branch_name: name, old_ref_name: 'main' }), 201);
    const body = await (await web.get('alice/forks-of-road/settings')).text();
    const select = /<select id="f-default_branch"[^>]*>(.*?)<\/select>/s.exec(body)?.[1];
    expect(select).toBe('<option value="alpha">alpha</option><option value="main" selected>main</option><option value="zeta">zeta</option>');
  });

  it('re-renders 422 with the message for a bad website and a bad tracker address, keeping the values', async () => {
    await createRepo(s, alice, 'bad', { auto_init: true, description: 'before' });
    const from = 'alice/bad/settings';
    const res = await web.post('alice/bad/settings', { name: 'bad', description: 'changed', website: 'not a url' }, { from });
    expect(res.status).toBe(422);
    const body = await res.text();
    expect(body).toContain('id="f-website-error"');
    expect(body).toContain('value="changed"');
    const tracker = await web.post('alice/bad/settings/units', { has_issues: 'on', external_tracker: 'on', tracker_url: 'javascript:alert(1)' }, { from });
    expect(tracker.status).toBe(422);
    expect(await tracker.text()).toContain('id="f-tracker_url-error"');
    const repo = await ok(await api('repos/alice/bad'));
    expect([repo.description, repo.website, repo.has_pull_requests, repo.has_external_issue_tracker ?? false]).toEqual(['before', '', true, false]);
  });
});

describe('collaborators', () => {
  it('adds, changes and removes a collaborator; an unknown user is 422', async () => {
    await createRepo(s, alice, 'team', { auto_init: true });
    const from = 'alice/team/settings/collaboration';
    expect((await web.post(from, { collaborator: 'bob', permission: 'read' }, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/team/collaborators/bob/permission'))).permission).toBe('read');
    expect((await web.post(`${from}/permission`, { collaborator: 'bob', permission: 'admin' }, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/team/collaborators/bob/permission'))).permission).toBe('admin');
    const missing = await web.post(from, { collaborator: 'nobody-here', permission: 'write' }, { from });
    expect(missing.status).toBe(422);
    expect(await missing.text()).toContain('user does not exist');
    expect((await web.get(`${from}/delete?collaborator=bob`)).status).toBe(200);
    expect((await web.post(`${from}/delete?collaborator=bob`, {}, { from })).status).toBe(303);
    expect((await api('repos/alice/team/collaborators/bob')).status).toBe(404);
  });

  it('refuses a user the owner blocked, or who blocked the owner, as the API does (403, its message) beside the name', async () => {
    await createRepo(s, alice, 'walled', { auto_init: true });
    const carol = await createUser(s, 'carol');
    const from = 'alice/walled/settings/collaboration';
    for (const [blocker, blocked, who] of [[alice, 'carol', 'carol'], [carol, 'alice', 'carol']] as const) {
      await ok(await api(`user/blocks/${blocked}`, 'PUT', undefined, blocker), 204);
      const viaApi = await api(`repos/alice/walled/collaborators/${who}`, 'PUT', { permission: 'write' });
      expect(viaApi.status).toBe(403);
      const { message } = (await viaApi.json()) as { message: string };
      const res = await web.post(from, { collaborator: who, permission: 'write' }, { from });
      expect(res.status).toBe(viaApi.status);
      const page = await res.text();
      expect(page).toMatch(new RegExp(`<p class="error" id="f-collaborator-error">${message}</p>`));
      expect(page).toContain(`value="${who}"`);
      expect((await api(`repos/alice/walled/collaborators/${who}`)).status).toBe(404);
      await ok(await api(`user/blocks/${blocked}`, 'DELETE', undefined, blocker), 204);
    }
    // Unblocked, the same form adds them.
    expect((await web.post(from, { collaborator: 'carol', permission: 'write' }, { from })).status).toBe(303);
    expect((await api('repos/alice/walled/collaborators/carol')).status).toBe(204);
  });
});

describe('branch protection', () => {
  it('creates, edits and deletes a rule with its options; a duplicate name is 422', async () => {
    await createRepo(s, alice, 'prot', { auto_init: true });
    await ok(await api('repos/alice/prot/collaborators/bob', 'PUT', { permission: 'write' }), 204);
    const from = 'alice/prot/settings/branches/new';
    const created = await web.post(from, {
      rule_name: 'main', push: 'whitelist', push_users: 'bob', required_approvals: '2', enable_status_check: 'on',
      status_check_contexts: 'ci/build\nci/test', block_on_rejected_reviews: 'on', protected_file_patterns: '*.lock',
    }, { from });
    expect(created.status, await created.clone().text()).toBe(303);
    const rule = await ok(await api('repos/alice/prot/branch_protections/main'));
    expect([rule.enable_push, rule.enable_push_whitelist, rule.push_whitelist_usernames, rule.required_approvals, rule.status_check_contexts, rule.block_on_rejected_reviews, rule.protected_file_patterns])
      .toEqual([true, true, ['bob'], 2, ['ci/build', 'ci/test'], true, '*.lock']);
    const again = await web.post(from, { rule_name: 'main', push: 'none' }, { from });
    expect(again.status).toBe(422);
    const edit = 'alice/prot/settings/branches/edit?rule_name=main';
    expect(await (await web.get(edit)).text()).toContain('value="bob"');
    expect((await web.post(edit, { push: 'all', required_approvals: '0' }, { from: edit })).status).toBe(303);
    const edited = await ok(await api('repos/alice/prot/branch_protections/main'));
    expect([edited.enable_push, edited.enable_push_whitelist, edited.required_approvals, edited.enable_status_check]).toEqual([true, false, 0, false]);
    expect((await web.post('alice/prot/settings/branches/delete?rule_name=main', {}, { from: 'alice/prot/settings/branches' })).status).toBe(303);
    expect(await ok(await api('repos/alice/prot/branch_protections'))).toEqual([]);
  });
});

describe('danger zone', () => {
  it('archives and unarchives; deletes only after the full name is typed', async () => {
    await createRepo(s, alice, 'doomed', { auto_init: true });
    const from = 'alice/doomed/settings';
    expect((await web.post(`${from}/archive`, { archived: 'on' }, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/doomed'))).archived).toBe(true);
    // Archived: its rules are frozen as the API's (423); its settings page still unarchives it.
    expect((await web.post(`${from}/branches/new`, { rule_name: 'main', push: 'none' }, { from: `${from}/branches/new` })).status).toBe(423);
    expect(await ok(await api('repos/alice/doomed/branch_protections'))).toEqual([]);
    expect((await web.post(`${from}/archive`, { archived: '' }, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/doomed'))).archived).toBe(false);
    const wrong = await web.post(`${from}/delete`, { repo_name: 'doomed' }, { from: `${from}/delete` });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('id="f-repo_name-error"');
    expect((await api('repos/alice/doomed')).status).toBe(200);
    expect((await web.post(`${from}/delete`, { repo_name: 'alice/doomed' }, { from: `${from}/delete` })).status).toBe(303);
    expect((await api('repos/alice/doomed')).status).toBe(404);
  });

  it('an admin collaborator is refused the owner\'s delete (403)', async () => {
    await createRepo(s, alice, 'shared', { auto_init: true });
    await ok(await api('repos/alice/shared/collaborators/bob', 'PUT', { permission: 'admin' }), 204);
    expect((await bobWeb.get('alice/shared/settings')).status).toBe(200);
    expect((await bobWeb.get('alice/shared/settings/delete')).status).toBe(403);
    const csrf = await bobWeb.csrfOf('alice/shared/settings');
    expect((await bobWeb.post('alice/shared/settings/delete', { repo_name: 'alice/shared' }, { csrf })).status).toBe(403);
    expect((await api('repos/alice/shared')).status).toBe(200);
  });

  it('transfers to another user pending their acceptance', async () => {
    await createRepo(s, alice, 'gift', { auto_init: true });
    const from = 'alice/gift/settings/transfer';
    const res = await web.post(from, { new_owner: 'bob', repo_name: 'alice/gift' }, { from });
    expect(res.status).toBe(303);
    expect((await bobWeb.get('alice/gift/transfer')).status).toBe(200);
    const csrf = await bobWeb.csrfOf('alice/gift/transfer');
    expect((await bobWeb.post('alice/gift/transfer/accept', {}, { csrf })).status).toBe(303);
    expect((await api('repos/bob/gift', 'GET', undefined, bob)).status).toBe(200);
    await createRepo(s, alice, 'declined', { auto_init: true });
    expect((await web.post('alice/declined/settings/transfer', { new_owner: 'bob', repo_name: 'alice/declined' }, { from: 'alice/declined/settings/transfer' })).status).toBe(303);
    expect((await bobWeb.post('alice/declined/transfer/reject', {}, { csrf: await bobWeb.csrfOf('alice/declined/transfer') })).status).toBe(303);
    expect((await ok(await api('repos/alice/declined'))).owner.login).toBe('alice');
    expect((await bobWeb.get('alice/declined/transfer')).status).toBe(403);
    expect((await web.post('alice/declined/settings/transfer', { new_owner: 'bob', repo_name: 'alice/declined' }, { from: 'alice/declined/settings/transfer' })).status).toBe(303);
    expect((await ok(await api('repos/alice/declined'))).repo_transfer?.recipient.login).toBe('bob');
    expect((await web.post('alice/declined/settings/transfer/cancel', {}, { from: 'alice/declined/settings' })).status).toBe(303);
    expect((await ok(await api('repos/alice/declined'))).repo_transfer).toBeUndefined();
  });

  it("shows the recipient a banner on the repository's pages leading to the transfer, and nobody else", async () => {
    await createRepo(s, alice, 'parcel', { auto_init: true });
    const from = 'alice/parcel/settings/transfer';
    expect((await web.post(from, { new_owner: 'bob', repo_name: 'alice/parcel' }, { from })).status).toBe(303);
    const banner = /<div class="flash" role="status">alice wants to transfer this repository to bob\. <a href="[^"]*alice\/parcel\/transfer">/;
    for (const page of ['alice/parcel', 'alice/parcel/issues']) expect(await (await bobWeb.get(page)).text()).toMatch(banner);
    expect(await (await bobWeb.get('alice/parcel/transfer')).text()).not.toMatch(banner);
    expect(await (await web.get('alice/parcel')).text()).not.toContain('wants to transfer');
    expect((await bobWeb.post('alice/parcel/transfer/reject', {}, { csrf: await bobWeb.csrfOf('alice/parcel/transfer') })).status).toBe(303);
    expect(await (await bobWeb.get('alice/parcel')).text()).not.toContain('wants to transfer');
  });
});

describe('webhooks', () => {
  it('adds a hook with chosen events, edits it, test-delivers and redelivers with the response shown, deletes it', async () => {
    await createRepo(s, alice, 'hooked', { auto_init: true });
    const receiver = await startReceiver();
    try {
      const from = 'alice/hooked/settings/hooks/new?type=gitea';
      const added = await web.post('alice/hooked/settings/hooks/new', {
        type: 'gitea', url: receiver.url, content_type: 'json', secret: 's3cret', events: 'choose', event_push: 'on', event_issues_only: 'on',
        branch_filter: 'main', authorization_header: 'Bearer abc', active: 'on',
      }, { from });
      expect(added.status, await added.clone().text()).toBe(303);
      const [hook] = await ok(await api('repos/alice/hooked/hooks'));
      expect([hook.type, hook.config.url, hook.events, hook.branch_filter, hook.authorization_header, hook.active])
        .toEqual(['gitea', receiver.url, ['push', 'issues'], 'main', 'Bearer abc', true]);
      const page = `alice/hooked/settings/hooks/${hook.id}`;
      expect(await (await web.get(page)).text()).toContain('name="event_push" value="on" checked');
      expect((await web.post(page, { url: receiver.url, content_type: 'form', events: 'push', active: 'on' }, { from: page })).status).toBe(303);
      const edited = await ok(await api(`repos/alice/hooked/hooks/${hook.id}`));
      expect([edited.config.content_type, edited.events, edited.authorization_header]).toEqual(['form', ['push'], '']);
      expect((await web.post(`${page}/test`, {}, { from: page })).status).toBe(303);
      await eventually(async () => receiver.requests.length === 1, 15_000, 'the test delivery');
      await eventually(async () => (await ok(await api(`repos/alice/hooked/hooks/${hook.id}/deliveries`)))[0]?.status_code === 200, 15_000, 'the delivery recorded');
      const shown = await (await web.get(page)).text();
      expect(shown).toContain('answered 200');
      expect(shown).toContain('X-Receiver: test'.toLowerCase());
      const [delivery] = await ok(await api(`repos/alice/hooked/hooks/${hook.id}/deliveries`));
      expect((await web.post(`${page}/deliveries/${delivery.id}/redeliver`, {}, { from: page })).status).toBe(303);
      await eventually(async () => receiver.requests.length === 2, 15_000, 'the redelivery');
      expect((await web.post(`${page}/delete`, {}, { from: page })).status).toBe(303);
      expect(await ok(await api('repos/alice/hooked/hooks'))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('re-renders 422 for a bad target address; a reader cannot see the hooks', async () => {
    await createRepo(s, alice, 'hookbad', { auto_init: true, private: true });
    const res = await web.post('alice/hookbad/settings/hooks/new', { type: 'gitea', url: 'ftp://nope', content_type: 'json', events: 'push' }, { from: 'alice/hookbad/settings/hooks' });
    expect(res.status).toBe(422);
    const body = await res.text();
    expect(body).toContain('id="f-url-error"');
    expect(body).toContain('value="ftp://nope"');
    expect(await ok(await api('repos/alice/hookbad/hooks'))).toEqual([]);
    expect((await bobWeb.get('alice/hookbad/settings/hooks')).status).toBe(404);
  });
});
