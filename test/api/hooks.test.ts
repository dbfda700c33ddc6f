import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoDir } from '../../src/git/repo';
import { activeHooksFor, getWebhookById } from '../../src/models/webhook';
import { hookSecret } from '../../src/services/webhook/hook-row';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// The webhooks API of repositories, organizations, users and the site, and the git hooks API,
// as Gitea 1.25 answers them.

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;

const as = (u: { username: string; password: string }) => ({ auth: { basic: [u.username, u.password] as [string, string] } });
const asAdmin = () => ({ auth: { basic: [s.admin.username, s.admin.password] as [string, string] } });
const call = (who: { auth: { basic: [string, string] } }, method: string, p: string, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, ...who, ...(body === undefined ? {} : { json: body }) });
const gitea = (extra: Record<string, unknown> = {}, config: Record<string, string> = {}) => ({
  type: 'gitea', config: { url: 'https://example.com/hook', content_type: 'json', ...config }, ...extra,
});

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true });
  await createRepo(s, alice, 'other');
  await createOrg(s, alice, 'acme');
});
afterAll(async () => { await s.stop(); });

describe('repository hooks', () => {
  let id: number;

  it('POST creates a hook (201): the secret is never shown, the Authorization header is', async () => {
    const res = await call(as(alice), 'POST', 'repos/alice/proj/hooks', gitea(
      { events: ['issues'], branch_filter: 'main', active: true, authorization_header: 'Bearer s3cr3t' },
      { secret: 'topsecret' },
    ));
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain('topsecret');
    const body = JSON.parse(text);
    expectShape(body, 'Hook');
    expect(body).toMatchObject({
      type: 'gitea', branch_filter: 'main', active: true, authorization_header: 'Bearer s3cr3t',
      config: { content_type: 'json', url: 'https://example.com/hook' },
      events: ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'],
    });
    expect(Object.keys(body.config).sort()).toEqual(['content_type', 'url']);
    id = body.id;
    // Sealed at rest; deliveries read it back.
    const row = (await getWebhookById(s.hearth.db, id))!;
    expect(row.secret_sealed).not.toContain('topsecret');
    expect(row.authorization_sealed).not.toContain('s3cr3t');
    expect(hookSecret(s.hearth.secret, row)).toBe('topsecret');
  });

  it('defaults to the push event and inactive, as Gitea', async () => {
    const body = await json(await call(as(alice), 'POST', 'repos/alice/proj/hooks', gitea()));
    expect(body.events).toEqual(['push']);
    expect(body.active).toBe(false);
    expect(body.authorization_header).toBe('');
    expect(body.branch_filter).toBe('');
  });

  it('lists with X-Total-Count and pages', async () => {
    await call(as(alice), 'POST', 'repos/alice/proj/hooks', gitea({}, { content_type: 'form' }));
    const first = await call(as(alice), 'GET', 'repos/alice/proj/hooks?limit=2');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('3');
    const page1 = await json(first);
    expectShape(page1, '[Hook]');
    expect(page1.map((h: { id: number }) => h.id)[0]).toBe(id);
    expect(page1).toHaveLength(2);
    const page2 = await json(await call(as(alice), 'GET', 'repos/alice/proj/hooks?limit=2&page=2'));
    expect(page2).toHaveLength(1);
    expect(page2[0].config.content_type).toBe('form');
  });

  it('GET answers the hook; another repository\'s hook id is 404', async () => {
    const res = await call(as(alice), 'GET', `repos/alice/proj/hooks/${id}`);
    expect(res.status).toBe(200);
    expect((await json(res)).id).toBe(id);
    expect((await call(as(alice), 'GET', `repos/alice/other/hooks/${id}`)).status).toBe(404);
    expect((await call(as(alice), 'PATCH', `repos/alice/other/hooks/${id}`, { active: false })).status).toBe(404);
    expect((await call(as(alice), 'DELETE', `repos/alice/other/hooks/${id}`)).status).toBe(404);
    expect((await call(as(alice), 'GET', 'repos/alice/proj/hooks/99999')).status).toBe(404);
  });

  it('PATCH edits events, active, branch filter and url; as Gitea, absent ones are reset', async () => {
    const res = await call(as(alice), 'PATCH', `repos/alice/proj/hooks/${id}`, {
      events: ['push', 'create'], active: false, branch_filter: 'release/*', config: { url: 'https://example.org/new' },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'Hook');
    expect(body).toMatchObject({
      events: ['create', 'push'], active: false, branch_filter: 'release/*',
      config: { url: 'https://example.org/new', content_type: 'json' },
      // Gitea's editHook always sets the header from the option: not given, it is cleared.
      authorization_header: '',
    });
    const again = await json(await call(as(alice), 'PATCH', `repos/alice/proj/hooks/${id}`, { config: { content_type: 'form' } }));
    expect(again).toMatchObject({ events: ['push'], active: false, branch_filter: '', config: { content_type: 'form', url: 'https://example.org/new' } });
    // The secret stays unless config.secret is given.
    expect(hookSecret(s.hearth.secret, (await getWebhookById(s.hearth.db, id))!)).toBe('topsecret');
    await call(as(alice), 'PATCH', `repos/alice/proj/hooks/${id}`, { config: { secret: 'rotated' }, active: true });
    expect(hookSecret(s.hearth.secret, (await getWebhookById(s.hearth.db, id))!)).toBe('rotated');
  });

  it.each([
    [{ type: 'nope', config: { url: 'https://x.example', content_type: 'json' } }, 'Invalid hook type: nope'],
    [{ type: 'gitea', config: { content_type: 'json' } }, 'Missing config option: url'],
    [{ type: 'gitea', config: { url: 'ftp://x.example', content_type: 'json' } }, 'Invalid url'],
    [{ type: 'gitea', config: { url: 'https://x.example', content_type: 'xml' } }, 'Invalid content type'],
    [{ type: 'slack', config: { url: 'https://x.example', content_type: 'json' } }, 'Missing config option: channel'],
    [{ type: 'gitea', config: { url: 'https://x.example', content_type: 'json' }, branch_filter: '[main' }, '[branch_filter]: GlobPattern'],
    [{ config: { url: 'https://x.example', content_type: 'json' } }, 'type'],
  ])('POST %j answers 422', async (body, message) => {
    const res = await call(as(alice), 'POST', 'repos/alice/proj/hooks', body);
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain(message);
  });

  it('PATCH validates the url and content type (422); nulls count as not given', async () => {
    expect((await call(as(alice), 'PATCH', `repos/alice/proj/hooks/${id}`, { config: { url: 'nope' } })).status).toBe(422);
    expect((await call(as(alice), 'PATCH', `repos/alice/proj/hooks/${id}`, { config: { content_type: 'x' } })).status).toBe(422);
    const res = await call(as(alice), 'PATCH', `repos/alice/proj/hooks/${id}`, { config: null, events: null, active: null });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ events: ['push'], active: true });
  });

  it('a slack hook shows its channel settings; a bad channel name is 400 as Gitea', async () => {
    const res = await call(as(alice), 'POST', 'repos/alice/proj/hooks', {
      type: 'slack', config: { url: 'https://hooks.slack.example/x', content_type: 'json', channel: '#dev', username: 'bot' },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.config).toEqual({
      channel: '#dev', color: '', content_type: 'json', icon_url: '', url: 'https://hooks.slack.example/x', username: 'bot',
    });
    const bad = await call(as(alice), 'POST', 'repos/alice/proj/hooks', {
      type: 'slack', config: { url: 'https://hooks.slack.example/x', content_type: 'json', channel: 'bad channel!' },
    });
    expect(bad.status).toBe(400);
    await call(as(alice), 'DELETE', `repos/alice/proj/hooks/${body.id}`);
  });

  it('non-admins of the repository get 403; tokens need write:repository to change hooks', async () => {
    expect((await call(as(bob), 'GET', 'repos/alice/proj/hooks')).status).toBe(403);
    expect((await call(as(bob), 'POST', 'repos/alice/proj/hooks', gitea())).status).toBe(403);
    expect((await call(as(bob), 'GET', `repos/alice/proj/hooks/${id}`)).status).toBe(403);
    expect((await s.request('api/v1/repos/alice/proj/hooks')).status).toBe(401);
    const read = await createToken(s, alice, ['read:repository']);
    expect((await s.request('api/v1/repos/alice/proj/hooks', { auth: { token: read } })).status).toBe(200);
    const post = await s.request('api/v1/repos/alice/proj/hooks', { method: 'POST', auth: { token: read }, json: gitea() });
    expect(post.status).toBe(403);
  });

  it('DELETE answers 204, then the hook is gone', async () => {
    const made = await json(await call(as(alice), 'POST', 'repos/alice/proj/hooks', gitea()));
    expect((await call(as(alice), 'DELETE', `repos/alice/proj/hooks/${made.id}`)).status).toBe(204);
    expect((await call(as(alice), 'GET', `repos/alice/proj/hooks/${made.id}`)).status).toBe(404);
    expect((await call(as(alice), 'DELETE', `repos/alice/proj/hooks/${made.id}`)).status).toBe(404);
  });
});

describe('organization and user hooks', () => {
  it('an organization owner manages its hooks; others get 403', async () => {
    const res = await call(as(alice), 'POST', 'orgs/acme/hooks', gitea({ events: ['pull_request'], active: true }));
    expect(res.status).toBe(201);
    const hook = await json(res);
    expectShape(hook, 'Hook');
    expect(hook.events).toContain('pull_request_review');
    const list = await call(as(alice), 'GET', 'orgs/acme/hooks');
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await json(list))[0].id).toBe(hook.id);
    expect((await call(as(alice), 'PATCH', `orgs/acme/hooks/${hook.id}`, { events: ['release'] })).status).toBe(200);
    expect((await json(await call(as(alice), 'GET', `orgs/acme/hooks/${hook.id}`))).events).toEqual(['release']);
    expect((await call(as(bob), 'GET', 'orgs/acme/hooks')).status).toBe(403);
    // A repository's hook is not the organization's.
    const repoHooks = await json(await call(as(alice), 'GET', 'repos/alice/proj/hooks'));
    expect((await call(as(alice), 'GET', `orgs/acme/hooks/${repoHooks[0].id}`)).status).toBe(404);
    expect((await call(as(alice), 'DELETE', `orgs/acme/hooks/${hook.id}`)).status).toBe(204);
  });

  it('a user manages their own hooks; another user\'s hook id is 404', async () => {
    const res = await call(as(alice), 'POST', 'user/hooks', gitea({ active: true }));
    expect(res.status).toBe(201);
    const hook = await json(res);
    expectShape(hook, 'Hook');
    expect((await json(await call(as(alice), 'GET', 'user/hooks'))).map((h: { id: number }) => h.id)).toEqual([hook.id]);
    expect((await call(as(bob), 'GET', `user/hooks/${hook.id}`)).status).toBe(404);
    expect((await call(as(bob), 'DELETE', `user/hooks/${hook.id}`)).status).toBe(404);
    expect(await json(await call(as(bob), 'GET', 'user/hooks'))).toEqual([]);
    const edited = await json(await call(as(alice), 'PATCH', `user/hooks/${hook.id}`, { active: false }));
    expect(edited.active).toBe(false);
  });
});

describe('site hooks', () => {
  let defaultId: number;
  let systemId: number;

  it('only site admins reach /admin/hooks', async () => {
    expect((await call(as(alice), 'GET', 'admin/hooks')).status).toBe(403);
    expect((await call(as(alice), 'POST', 'admin/hooks', gitea())).status).toBe(403);
  });

  it('a hook is a default hook unless config.is_system_webhook says system', async () => {
    const def = await call(asAdmin(), 'POST', 'admin/hooks', gitea({ active: true }, { url: 'https://example.com/default' }));
    expect(def.status).toBe(201);
    defaultId = (await json(def)).id;
    const sys = await call(asAdmin(), 'POST', 'admin/hooks', gitea({ active: true }, { url: 'https://example.com/system', is_system_webhook: 'true' }));
    expect(sys.status).toBe(201);
    systemId = (await json(sys)).id;
    const bad = await call(asAdmin(), 'POST', 'admin/hooks', gitea({}, { is_system_webhook: 'yes' }));
    expect(bad.status).toBe(422);
    expect((await json(bad)).message).toBe('Invalid is_system_webhook value');
  });

  it('GET /admin/hooks lists system hooks, or default or all with `type`', async () => {
    const ids = async (q: string) => (await json(await call(asAdmin(), 'GET', `admin/hooks${q}`))).map((h: { id: number }) => h.id);
    expect(await ids('')).toEqual([systemId]);
    expect(await ids('?type=system')).toEqual([systemId]);
    expect(await ids('?type=default')).toEqual([defaultId]);
    expect(await ids('?type=all')).toEqual([defaultId, systemId]);
    const res = await call(asAdmin(), 'GET', 'admin/hooks?type=all');
    expect(res.headers.get('x-total-count')).toBe('2');
    expectShape(await json(res), '[Hook]');
  });

  it('GET, PATCH, DELETE by id reach site hooks only', async () => {
    expect((await call(asAdmin(), 'GET', `admin/hooks/${defaultId}`)).status).toBe(200);
    const edited = await json(await call(asAdmin(), 'PATCH', `admin/hooks/${systemId}`, { events: ['push', 'issues_only'] }));
    expect(edited.events).toEqual(['push', 'issues']);
    const repoHookId = (await json(await call(as(alice), 'GET', 'repos/alice/proj/hooks')))[0].id;
    expect((await call(asAdmin(), 'GET', `admin/hooks/${repoHookId}`)).status).toBe(404);
    expect((await call(asAdmin(), 'DELETE', `admin/hooks/${repoHookId}`)).status).toBe(404);
  });

  it('default hooks are copied into repositories created afterwards', async () => {
    await createRepo(s, bob, 'fresh');
    const hooks = await json(await call(as(bob), 'GET', 'repos/bob/fresh/hooks'));
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ config: { url: 'https://example.com/default' }, active: true, events: ['push'] });
    expect(hooks[0].id).not.toBe(defaultId);
  });

  it('activeHooksFor gives the repository\'s, then its owner\'s, then the system hooks, active only', async () => {
    const repo = await json(await call(as(alice), 'GET', 'repos/alice/proj'));
    const hooks = await activeHooksFor(s.hearth.db, repo.id, alice.id);
    const kinds = hooks.map((h) => (h.repo_id ? 'repo' : h.owner_id ? 'owner' : 'system'));
    expect(kinds).toEqual(['repo', 'system']);
    expect(hooks.every((h) => h.is_active === 1)).toBe(true);
    expect(hooks.at(-1)!.id).toBe(systemId);
    await call(as(alice), 'PATCH', `user/hooks/${(await json(await call(as(alice), 'GET', 'user/hooks')))[0].id}`, { active: true });
    const withOwner = await activeHooksFor(s.hearth.db, repo.id, alice.id);
    expect(withOwner.map((h) => (h.repo_id ? 'repo' : h.owner_id ? 'owner' : 'system'))).toEqual(['repo', 'owner', 'system']);
    await call(asAdmin(), 'DELETE', `admin/hooks/${defaultId}`);
    expect((await call(asAdmin(), 'GET', `admin/hooks/${defaultId}`)).status).toBe(404);
  });
});

describe('hooks go with their repository or owner', () => {
  it('deleting a repository, a user or an organization deletes their hooks', async () => {
    const carol = await createUser(s, 'carol');
    await createRepo(s, carol, 'gone');
    const repoHook = await json(await call(as(carol), 'POST', 'repos/carol/gone/hooks', gitea()));
    const userHook = await json(await call(as(carol), 'POST', 'user/hooks', gitea()));
    expect((await call(as(carol), 'DELETE', 'repos/carol/gone')).status).toBe(204);
    expect(await getWebhookById(s.hearth.db, repoHook.id)).toBeUndefined();
    expect((await call(asAdmin(), 'DELETE', 'admin/users/carol')).status).toBe(204);
    expect(await getWebhookById(s.hearth.db, userHook.id)).toBeUndefined();
    await createOrg(s, alice, 'shortlived');
    const orgHook = await json(await call(as(alice), 'POST', 'orgs/shortlived/hooks', gitea()));
    expect((await call(as(alice), 'DELETE', 'orgs/shortlived')).status).toBe(204);
    expect(await getWebhookById(s.hearth.db, orgHook.id)).toBeUndefined();
  });
});

describe('git hooks', () => {
  const base = 'repos/alice/proj/hooks/git';

  it('are disabled by default: 403 as Gitea, even for site admins', async () => {
    const res = await call(asAdmin(), 'GET', base);
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('must be allowed to edit Git hooks');
  });

  it('when enabled, site admins read and write them; they are stored, not run', async () => {
    s.hearth.config.security.disable_git_hooks = false;
    try {
      const list = await json(await call(asAdmin(), 'GET', base));
      expectShape(list, '[GitHook]');
      expect(list.map((h: { name: string }) => h.name)).toEqual(['pre-receive', 'update', 'post-receive']);
      expect(list.every((h: { is_active: boolean }) => !h.is_active)).toBe(true);
      const edited = await call(asAdmin(), 'PATCH', `${base}/pre-receive`, { content: '#!/bin/sh\r\nexit 1\r\n' });
      expect(edited.status).toBe(200);
      expect(await json(edited)).toMatchObject({ name: 'pre-receive', is_active: true });
      const file = path.join(repoDir(s.hearth.config.repository.root, 'alice', 'proj'), 'hooks', 'pre-receive.d', 'pre-receive');
      expect(fs.readFileSync(file, 'utf8')).toBe('#!/bin/sh\nexit 1\n');
      expect(fs.statSync(file).mode & 0o111).toBe(0);
      expect(await json(await call(asAdmin(), 'GET', `${base}/pre-receive`))).toEqual({ name: 'pre-receive', is_active: true, content: '#!/bin/sh\nexit 1\n' });
      expect((await call(asAdmin(), 'DELETE', `${base}/pre-receive`)).status).toBe(204);
      expect(fs.existsSync(file)).toBe(false);
      expect((await json(await call(asAdmin(), 'GET', `${base}/pre-receive`))).is_active).toBe(false);
      expect((await call(asAdmin(), 'GET', `${base}/pre-commit`)).status).toBe(404);
      // The repository's owner is no site admin and was not allowed git hooks.
      expect((await call(as(alice), 'GET', base)).status).toBe(403);
    } finally {
      s.hearth.config.security.disable_git_hooks = true;
    }
  });
});
