import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git } from '../helpers/git';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';
import { expectNullableShape } from '../helpers/issue-shape';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // write collaborator
let carol: Creds; // read collaborator
let dave: Creds; // no access

const call = (path: string, method = 'GET', body?: unknown, who: { username: string; password: string } | null = alice) =>
  s.request(`api/v1/repos/alice/${path}`, { method, auth: who ? as(who) : undefined, json: body });


const createBranch = async (repo: string, body: Record<string, unknown>, who = alice) =>
  call(`${repo}/branches`, 'POST', body, who);
const protect = async (repo: string, body: Record<string, unknown>) =>
  ok(await call(`${repo}/branch_protections`, 'POST', body), 201);

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  dave = await createUser(s, 'dave');
  for (const name of ['repo', 'rules', 'renames']) await createRepo(s, alice, name, { auto_init: true });
  await createRepo(s, alice, 'empty');
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });
  for (const repo of ['repo', 'rules', 'renames']) {
    await ok(await call(`${repo}/collaborators/bob`, 'PUT', { permission: 'write' }), 204);
    await ok(await call(`${repo}/collaborators/carol`, 'PUT', { permission: 'read' }), 204);
  }
});
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/branches', () => {
  it('lists branches with their head commit and the caller\'s rights', async () => {
    const res = await call('repo/branches');
    const body = await ok(res);
    expectNullableShape(body, '[Branch]');
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(body[0]).toMatchObject({
      name: 'main', protected: false, required_approvals: 0, enable_status_check: false, status_check_contexts: [],
      user_can_push: true, user_can_merge: true, effective_branch_protection_name: '',
    });
    const c = body[0].commit;
    expect(c.id).toMatch(/^[0-9a-f]{40}$/);
    expect(c.message).toBe('Initial commit\n');
    expect(c.url).toBe(`${s.hearth.config.server.root_url}alice/repo/commit/${c.id}`);
    expect(c.author).toEqual({ name: 'Alice Liddell', email: 'alice@example.com', username: 'alice' });
    expect(Math.abs(Date.parse(c.timestamp) - Date.now())).toBeLessThan(120_000);
  });

  it('pages with X-Total-Count and Link', async () => {
    for (const name of ['page/a', 'page/b']) await ok(await createBranch('repo', { new_branch_name: name }), 201);
    const res = await call('repo/branches?limit=2&page=1');
    const body = await ok(res);
    expect(body).toHaveLength(2);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('link')).toContain('rel="next"');
    const second = await ok(await call('repo/branches?limit=2&page=2'));
    expect(second).toHaveLength(1);
    const all = [...body, ...second].map((b: { name: string }) => b.name).sort();
    expect(all).toEqual(['main', 'page/a', 'page/b']);
  });

  it('answers an empty list for an empty repository', async () => {
    const res = await call('empty/branches');
    expect(await ok(res)).toEqual([]);
  });

  it('shows public branches to anonymous callers without push rights, and hides private ones', async () => {
    const body = await ok(await call('repo/branches', 'GET', undefined, null));
    expect(body[0]).toMatchObject({ user_can_push: false, user_can_merge: false });
    const reader = await ok(await call('repo/branches/main', 'GET', undefined, carol));
    expect(reader).toMatchObject({ user_can_push: false, user_can_merge: false });
    expect((await call('secret/branches', 'GET', undefined, dave)).status).toBe(404);
    expect((await call('secret/branches', 'GET', undefined, null)).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/branches/{branch}', () => {
  it('gets a branch whose name contains slashes', async () => {
    await ok(await createBranch('repo', { new_branch_name: 'feature/deep/one' }), 201);
    const body = await ok(await call('repo/branches/feature/deep/one'));
    expectNullableShape(body, 'Branch');
    expect(body.name).toBe('feature/deep/one');
    const encoded = await ok(await call('repo/branches/feature%2Fdeep%2Fone'));
    expect(encoded.name).toBe('feature/deep/one');
  });

  it('answers 404 for a missing branch and for revision syntax', async () => {
    expect((await call('repo/branches/nope')).status).toBe(404);
    expect((await call('repo/branches/main~1')).status).toBe(404);
    expect((await call('repo/branches/main@%7B0%7D')).status).toBe(404);
  });
});

describe('POST /repos/{owner}/{repo}/branches', () => {
  it('creates from the default branch (201)', async () => {
    const main = await ok(await call('repo/branches/main'));
    const body = await ok(await createBranch('repo', { new_branch_name: 'from-default' }), 201);
    expectNullableShape(body, 'Branch');
    expect(body).toMatchObject({ name: 'from-default', protected: false, user_can_push: true });
    expect(body.commit.id).toBe(main.commit.id);
  });

  it('creates from old_branch_name and from old_ref_name (a sha or a tag)', async () => {
    const main = await ok(await call('repo/branches/main'));
    const a = await ok(await createBranch('repo', { new_branch_name: 'from-old', old_branch_name: 'from-default' }), 201);
    expect(a.commit.id).toBe(main.commit.id);
    const b = await ok(await createBranch('repo', { new_branch_name: 'from-sha', old_ref_name: main.commit.id }), 201);
    expect(b.commit.id).toBe(main.commit.id);
    await ok(await call('repo/tags', 'POST', { tag_name: 'v-start' }), 201);
    const c = await ok(await createBranch('repo', { new_branch_name: 'from-tag', old_ref_name: 'v-start' }), 201);
    expect(c.commit.id).toBe(main.commit.id);
  });

  it('refuses an existing name, a path clash and a tag of the same name (409)', async () => {
    expect((await createBranch('repo', { new_branch_name: 'main' })).status).toBe(409);
    expect((await createBranch('repo', { new_branch_name: 'feature' })).status).toBe(409);
    expect((await createBranch('repo', { new_branch_name: 'main/sub' })).status).toBe(409);
    expect((await createBranch('repo', { new_branch_name: 'v-start' })).status).toBe(409);
  });

  it('answers 404 when the start point is missing', async () => {
    expect((await createBranch('repo', { new_branch_name: 'x1', old_branch_name: 'ghost' })).status).toBe(404);
    expect((await createBranch('repo', { new_branch_name: 'x2', old_ref_name: 'ghost' })).status).toBe(404);
    expect((await createBranch('repo', { new_branch_name: 'x3', old_ref_name: '--output=/tmp/x' })).status).toBe(404);
    expect((await createBranch('empty', { new_branch_name: 'x4' })).status).toBe(404);
  });

  it('refuses invalid branch names (422)', async () => {
    for (const name of ['a..b', 'bad name', '-dash', 'end.lock', 'x@{1}', 'trailing/', 'a~b', 'HEAD']) {
      const res = await createBranch('repo', { new_branch_name: name });
      expect(res.status, name).toBe(422);
    }
    expect((await createBranch('repo', {})).status).toBe(422);
    expect((await createBranch('repo', { new_branch_name: 'x'.repeat(101) })).status).toBe(422);
  });

  it('needs write access', async () => {
    expect((await createBranch('repo', { new_branch_name: 'by-carol' }, carol)).status).toBe(403);
    expect((await s.request('api/v1/repos/alice/repo/branches', { method: 'POST', json: { new_branch_name: 'anon' } })).status).toBe(401);
    await ok(await createBranch('repo', { new_branch_name: 'by-bob' }, bob), 201);
  });
});

describe('DELETE /repos/{owner}/{repo}/branches/{branch}', () => {
  it('deletes a branch (204), nested names too', async () => {
    await ok(await createBranch('repo', { new_branch_name: 'doomed/nested' }), 201);
    await ok(await call('repo/branches/doomed/nested', 'DELETE'), 204);
    expect((await call('repo/branches/doomed/nested')).status).toBe(404);
    const names = (await ok(await call('repo/branches?limit=50'))).map((b: { name: string }) => b.name);
    expect(names).not.toContain('doomed/nested');
  });

  it('refuses the default branch and a protected branch (403), a missing one is 404', async () => {
    expect((await call('repo/branches/main', 'DELETE')).status).toBe(403);
    await ok(await createBranch('repo', { new_branch_name: 'keep/me' }), 201);
    await protect('repo', { rule_name: 'keep/*' });
    const res = await call('repo/branches/keep/me', 'DELETE');
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('branch protected');
    expect((await call('repo/branches/ghost', 'DELETE')).status).toBe(404);
    expect((await call('repo/branches/by-bob', 'DELETE', undefined, carol)).status).toBe(403);
  });
});

describe('PATCH /repos/{owner}/{repo}/branches/{branch} (rename)', () => {
  it('renames a branch (204)', async () => {
    await ok(await createBranch('renames', { new_branch_name: 'old-name' }), 201);
    await ok(await call('renames/branches/old-name', 'PATCH', { name: 'new/name' }), 204);
    expect((await call('renames/branches/old-name')).status).toBe(404);
    expectNullableShape(await ok(await call('renames/branches/new/name')), 'Branch');
  });

  it('renames the default branch and the repository follows', async () => {
    await ok(await call('renames/branches/main', 'PATCH', { name: 'trunk' }), 204);
    const repo = await ok(await s.request('api/v1/repos/alice/renames', { auth: as(alice) }));
    expect(repo.default_branch).toBe('trunk');
    expect((await call('renames/branches/trunk')).status).toBe(200);
    const bare = path.join(s.hearth.config.repository.root, 'alice', 'renames.git');
    expect((await git(bare, 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/trunk');
  });

  it('moves an exact-name protection rule with the branch', async () => {
    await ok(await createBranch('renames', { new_branch_name: 'guarded' }), 201);
    await protect('renames', { rule_name: 'guarded', enable_push: true });
    await ok(await call('renames/branches/guarded', 'PATCH', { name: 'guarded2' }), 204);
    expect((await call('renames/branch_protections/guarded')).status).toBe(404);
    const rule = await ok(await call('renames/branch_protections/guarded2'));
    expect(rule.rule_name).toBe('guarded2');
    const branch = await ok(await call('renames/branches/guarded2'));
    expect(branch).toMatchObject({ protected: true, effective_branch_protection_name: 'guarded2' });
    // A rule already named like the target would be clobbered: refused before git moves anything.
    await protect('renames', { rule_name: 'taken', enable_push: true });
    expect((await call('renames/branches/guarded2', 'PATCH', { name: 'taken' })).status).toBe(409);
    expect((await call('renames/branches/guarded2')).status).toBe(200);
  });

  it('refuses bad targets: existing (422), invalid (422), missing source (404)', async () => {
    await ok(await createBranch('renames', { new_branch_name: 'other' }), 201);
    expect((await call('renames/branches/other', 'PATCH', { name: 'trunk' })).status).toBe(422);
    expect((await call('renames/branches/other', 'PATCH', { name: 'other' })).status).toBe(422);
    expect((await call('renames/branches/other', 'PATCH', { name: 'bad..name' })).status).toBe(422);
    expect((await call('renames/branches/other', 'PATCH', {})).status).toBe(422);
    expect((await call('renames/branches/ghost', 'PATCH', { name: 'ghost2' })).status).toBe(404);
  });

  it('lets only admins rename the default or a protected branch; glob-protected ones are refused (403)', async () => {
    expect((await call('renames/branches/trunk', 'PATCH', { name: 'by-bob' }, bob)).status).toBe(403);
    expect((await call('renames/branches/guarded2', 'PATCH', { name: 'g3' }, bob)).status).toBe(403);
    await ok(await createBranch('renames', { new_branch_name: 'rel/1' }), 201);
    await protect('renames', { rule_name: 'rel/*' });
    const res = await call('renames/branches/rel/1', 'PATCH', { name: 'rel-one' });
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('Branch is protected by glob-based protection rules.');
    expect((await call('renames/branches/other', 'PATCH', { name: 'rel/2' })).status).toBe(403);
    await ok(await call('renames/branches/other', 'PATCH', { name: 'other-2' }, bob), 204);
  });
});

describe('branch protections', () => {
  it('creates a rule with every field (201) and reads it back', async () => {
    const body = await protect('rules', {
      rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['bob'],
      push_whitelist_deploy_keys: true, enable_force_push: true, enable_force_push_allowlist: true,
      force_push_allowlist_usernames: ['alice'], enable_merge_whitelist: true, merge_whitelist_usernames: ['alice', 'bob'],
      enable_status_check: true, status_check_contexts: ['ci/build'], required_approvals: 2,
      enable_approvals_whitelist: true, approvals_whitelist_username: ['carol'], block_on_rejected_reviews: true,
      block_on_official_review_requests: true, block_on_outdated_branch: true, dismiss_stale_approvals: true,
      ignore_stale_approvals: true, require_signed_commits: true, protected_file_patterns: '*.lock',
      unprotected_file_patterns: 'docs/**', block_admin_merge_override: true,
    });
    expectShape(body, 'BranchProtection');
    expect(body).toMatchObject({
      branch_name: 'main', rule_name: 'main', priority: 1, enable_push: true, enable_push_whitelist: true,
      push_whitelist_usernames: ['bob'], push_whitelist_teams: [], push_whitelist_deploy_keys: true,
      enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: ['alice'],
      merge_whitelist_usernames: ['alice', 'bob'], enable_status_check: true, status_check_contexts: ['ci/build'],
      required_approvals: 2, approvals_whitelist_username: ['carol'], require_signed_commits: true,
      protected_file_patterns: '*.lock', unprotected_file_patterns: 'docs/**', block_admin_merge_override: true,
    });
    expect(await ok(await call('rules/branch_protections/main'))).toEqual(body);
    const list = await ok(await call('rules/branch_protections'));
    expectShape(list, '[BranchProtection]');
    expect(list.map((r: { rule_name: string }) => r.rule_name)).toEqual(['main']);
  });

  it('drops whitelisted users without write access, as Gitea; keeps readers for approvals', async () => {
    const body = await protect('rules', {
      rule_name: 'drop-test', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['carol', 'bob'],
      approvals_whitelist_username: ['carol'],
    });
    expect(body.push_whitelist_usernames).toEqual(['bob']);
    expect(body.approvals_whitelist_username).toEqual(['carol']);
  });

  it('ignores team names on a repository owned by a user (teams belong to organizations)', async () => {
    const body = await protect('rules', { rule_name: 'teams', push_whitelist_teams: ['whoever'], merge_whitelist_teams: ['x'] });
    expect(body).toMatchObject({ push_whitelist_teams: [], merge_whitelist_teams: [] });
    await ok(await call('rules/branch_protections/teams', 'DELETE'), 204);
  });

  it('ignores push sub-options when push is off, and accepts the deprecated branch_name', async () => {
    const body = await protect('rules', {
      branch_name: 'legacy', enable_push: false, enable_push_whitelist: true, enable_force_push: true,
    });
    expect(body).toMatchObject({ rule_name: 'legacy', enable_push: false, enable_push_whitelist: false, enable_force_push: false });
  });

  it('refuses a duplicate (403), an empty name (400), unknown users (422), and non-admins (403)', async () => {
    expect((await call('rules/branch_protections', 'POST', { rule_name: 'main' })).status).toBe(403);
    expect((await call('rules/branch_protections', 'POST', {})).status).toBe(400);
    const unknown = await call('rules/branch_protections', 'POST', { rule_name: 'x', push_whitelist_usernames: ['nobody'] });
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).message).toContain('nobody');
    expect((await call('rules/branch_protections', 'POST', { rule_name: 'y', required_approvals: 'two' })).status).toBe(422);
    expect((await call('rules/branch_protections', 'POST', { rule_name: 'z' }, bob)).status).toBe(403);
    expect((await call('rules/branch_protections', 'GET', undefined, bob)).status).toBe(403);
    expect((await call('rules/branch_protections/ghost')).status).toBe(404);
  });

  it('edits only the given fields, with Gitea\'s cascades (200)', async () => {
    const body = await ok(await call('rules/branch_protections/main', 'PATCH', { required_approvals: 3, status_check_contexts: [] }));
    expectShape(body, 'BranchProtection');
    expect(body).toMatchObject({ required_approvals: 3, status_check_contexts: [], enable_push_whitelist: true, push_whitelist_usernames: ['bob'] });
    const off = await ok(await call('rules/branch_protections/main', 'PATCH', { enable_push: false }));
    expect(off).toMatchObject({ enable_push: false, enable_push_whitelist: false, push_whitelist_deploy_keys: false });
    const on = await ok(await call('rules/branch_protections/main', 'PATCH', {
      enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['alice'],
    }));
    expect(on).toMatchObject({ enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['alice'] });
    expect((await call('rules/branch_protections/main', 'PATCH', { merge_whitelist_usernames: ['ghost'] })).status).toBe(422);
    expect((await call('rules/branch_protections/ghost', 'PATCH', { enable_push: true })).status).toBe(404);
  });

  it('resolves the effective rule: exact name first, then the highest-priority glob', async () => {
    for (const b of ['release/1.0', 'release/1/x', 'misc']) await ok(await createBranch('rules', { new_branch_name: b }), 201);
    const star = await protect('rules', { rule_name: 'release/*', required_approvals: 1 });
    const all = await protect('rules', { rule_name: '**', required_approvals: 5 });
    expect(all.branch_name).toBe('');
    expect(all.priority).toBeGreaterThan(star.priority);
    const eff = async (b: string) => (await ok(await call(`rules/branches/${b}`))).effective_branch_protection_name;
    expect(await eff('release/1.0')).toBe('release/*');
    expect(await eff('release/1/x')).toBe('**');
    expect(await eff('misc')).toBe('**');
    expect(await eff('main')).toBe('main');
    const branch = await ok(await call('rules/branches/release/1.0'));
    expectNullableShape(branch, 'Branch');
    expect(branch).toMatchObject({ protected: true, required_approvals: 1 });

    // Putting `**` first makes it win over `release/*`; the exact-name rule still wins.
    const ids = (await ok(await call('rules/branch_protections'))).map((r: { rule_name: string }) => r.rule_name);
    expect(ids.indexOf('release/*')).toBeLessThan(ids.indexOf('**'));
    const rows = await s.hearth.db.selectFrom('protected_branch').select(['id', 'rule_name']).execute();
    const idOf = (n: string) => rows.find((r) => r.rule_name === n)!.id;
    await ok(await call('rules/branch_protections/priority', 'POST', { ids: [idOf('**'), idOf('release/*')] }), 204);
    expect((await ok(await call('rules/branch_protections/**'))).priority).toBe(1);
    expect((await ok(await call('rules/branch_protections/release%2F*'))).rule_name).toBe('release/*');
    const listed = (await ok(await call('rules/branch_protections'))).map((r: { rule_name: string }) => r.rule_name);
    expect(listed.indexOf('**')).toBeLessThan(listed.indexOf('release/*'));
    expect(listed.indexOf('main')).toBeLessThan(listed.indexOf('**'));
    expect(await eff('release/1.0')).toBe('**');
    expect(await eff('main')).toBe('main');
    expect((await call('rules/branch_protections/priority', 'POST', { ids: ['x'] })).status).toBe(422);
  });

  it('shows the caller\'s push and merge rights under a rule', async () => {
    await ok(await call('rules/branch_protections/main', 'PATCH', {
      enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['bob'],
      enable_merge_whitelist: true, merge_whitelist_usernames: ['alice'],
    }));
    const forBob = await ok(await call('rules/branches/main', 'GET', undefined, bob));
    expect(forBob).toMatchObject({ user_can_push: true, user_can_merge: false });
    const forAlice = await ok(await call('rules/branches/main'));
    expect(forAlice).toMatchObject({ user_can_push: false, user_can_merge: true });
  });

  it('deletes a rule (204), then 404', async () => {
    await ok(await call('rules/branch_protections/legacy', 'DELETE'), 204);
    expect((await call('rules/branch_protections/legacy', 'DELETE')).status).toBe(404);
    expect((await call('rules/branch_protections/legacy')).status).toBe(404);
  });

  it('refuses rule changes on an archived repository (423)', async () => {
    await createRepo(s, alice, 'frozen', { auto_init: true });
    await ok(await s.request('api/v1/repos/alice/frozen', { method: 'PATCH', auth: as(alice), json: { archived: true } }));
    expect((await call('frozen/branch_protections', 'POST', { rule_name: 'main' })).status).toBe(423);
    expect((await createBranch('frozen', { new_branch_name: 'nope' })).status).toBe(423);
    expect((await call('frozen/branches')).status).toBe(200);
  });
});
