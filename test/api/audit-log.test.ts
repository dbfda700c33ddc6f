import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerDir } from '../../src/git/repo';
import { apiRoutes } from '../../src/routes/api/v1/index';
import { buildSwagger } from '../../src/routes/swagger-doc';
import { loadedRoutes } from '../../src/routes/table';
import { AUDIT_OPERATIONS } from '../../src/services/audit/operations';
import { recordAudit } from '../../src/services/audit/record';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import type { Creds } from '../helpers/gitea-fixtures';
import { createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// The audit log: a row for each recorded operation, written in the transaction of the change,
// searchable and exportable as CSV by site admins only.

/** The record as the API answers it: the seed's AuditLog, flat, exactly these names. */
const FLAT = [
  'extra', 'id', 'ip_address', 'message', 'operation_time', 'operation_type', 'operator_id', 'operator_name',
  'owner_id', 'owner_name', 'repo_id', 'repo_name', 'target_id', 'target_name', 'target_type',
];
type Flat = Record<(typeof FLAT)[number], string | number> & { id: number; extra: string; operation_time: string };
/** A record regrouped for the assertions below (rows() checks the flat record first). */
type Row = {
  id: number; operation_type: string; operator: { id: number; name: string }; target: { type: string; id: number; name: string };
  owner: { id: number; name: string }; repository: { id: number; full_name: string }; ip_address: string;
  created: string; message: string; extra: Record<string, unknown>;
};
const grouped = (r: Flat): Row => ({
  id: r.id, operation_type: String(r.operation_type), ip_address: String(r.ip_address), message: String(r.message), created: r.operation_time,
  operator: { id: Number(r.operator_id), name: String(r.operator_name) },
  target: { type: String(r.target_type), id: Number(r.target_id), name: String(r.target_name) },
  owner: { id: Number(r.owner_id), name: String(r.owner_name) }, repository: { id: Number(r.repo_id), full_name: String(r.repo_name) },
  extra: JSON.parse(r.extra) as Record<string, unknown>,
});

let s: TestServer;
let alice: Creds;
let bob: Creds;

const admin = () => ({ auth: { basic: [s.admin.username, s.admin.password] as [string, string] } });
const as = (u: { username: string; password: string }) => ({ auth: { basic: [u.username, u.password] as [string, string] } });
const call = (who: ReturnType<typeof admin>, method: string, p: string, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, ...who, ...(body === undefined ? {} : { json: body }) });

async function rows(query: Record<string, string | number> = {}): Promise<Row[]> {
  const qs = new URLSearchParams(Object.entries({ limit: 50, ...query }).map(([k, v]): [string, string] => [k, String(v)]));
  const flat = (await ok(await call(admin(), 'GET', `admin/audit-logs?${qs}`))) as Flat[];
  for (const r of flat) {
    expect(Object.keys(r).sort()).toEqual(FLAT);
    expect(typeof r.extra).toBe('string');
  }
  return flat.map(grouped);
}
/** The newest row of an operation; fails when there is none. */
async function last(op: string): Promise<Row> {
  const found = await rows({ operation_type: op, limit: 1 });
  expect(found, `a ${op} row`).toHaveLength(1);
  return found[0]!;
}
/** The columns a raw insert leaves at their defaults. */
const BLANK = {
  target_type: '', target_id: 0, target_name: '', owner_id: 0, owner_name: '', repo_id: 0, repo_name: '', ip_address: '', message: '',
};
const count = async (op: string) => (await rows({ operation_type: op })).length;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
});
afterAll(async () => { await s.stop(); });

describe('recorded operations', () => {
  it('user.create names the admin who created the user, with the address', async () => {
    const r = await rows({ operation_type: 'user.create' });
    const row = r.find((x) => x.target.name === 'alice')!;
    expect(row).toMatchObject({ operator: { name: s.admin.username }, target: { type: 'user', id: alice.id, name: 'alice' } });
    expect(row.ip_address).toMatch(/127\.0\.0\.1/);
    expect(row.message).toBe(`${s.admin.username} created user alice`);
    expect(row.created).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('user.signin once per user and address, user.signin.failure for each failure', async () => {
    await ok(await call(as(alice), 'GET', 'user'));
    await ok(await call(as(alice), 'GET', 'user'));
    const signins = (await rows({ operation_type: 'user.signin', operator_id: alice.id }));
    expect(signins).toHaveLength(1);
    expect(signins[0]).toMatchObject({ operator: { id: alice.id, name: 'alice' }, extra: { method: 'password' } });
    const before = await count('user.signin.failure');
    expect((await call(as({ username: 'alice', password: 'wrong' }), 'GET', 'user')).status).toBe(401);
    expect((await call(as({ username: 'nobody', password: 'wrong' }), 'GET', 'user')).status).toBe(401);
    expect(await count('user.signin.failure')).toBe(before + 2);
    expect((await last('user.signin.failure')).target.name).toBe('nobody');
  });

  it('user.token.create and user.token.delete', async () => {
    const t = await ok(await call(as(alice), 'POST', 'users/alice/tokens', { name: 'ci', scopes: ['read:user'] }), 201);
    expect(await last('user.token.create')).toMatchObject({ operator: { name: 'alice' }, target: { type: 'token', id: t.id, name: 'ci' }, owner: { name: 'alice' } });
    await ok(await call(as(alice), 'DELETE', `users/alice/tokens/${t.id}`), 204);
    expect(await last('user.token.delete')).toMatchObject({ target: { id: t.id, name: 'ci' } });
  });

  it('user.email.add and user.email.remove', async () => {
    await ok(await call(as(alice), 'POST', 'user/emails', { emails: ['alice2@example.com'] }), 201);
    expect(await last('user.email.add')).toMatchObject({ operator: { name: 'alice' }, target: { type: 'email', name: 'alice2@example.com' } });
    await ok(await call(as(alice), 'DELETE', 'user/emails', { emails: ['alice2@example.com'] }), 204);
    expect(await last('user.email.remove')).toMatchObject({ target: { name: 'alice2@example.com' } });
  });

  it('admin.user.edit lists the fields changed, user.password.change goes with a new password', async () => {
    await ok(await call(admin(), 'PATCH', 'admin/users/bob', { login_name: 'bob', source_id: 0, password: 'another-secret-pw', location: 'Lyon' }));
    bob.password = 'another-secret-pw';
    const edit = await last('admin.user.edit');
    expect(edit.target.name).toBe('bob');
    expect(edit.extra.fields).toEqual(expect.arrayContaining(['location', 'passwd']));
    expect(JSON.stringify(edit)).not.toContain('another-secret-pw');
    expect(await last('user.password.change')).toMatchObject({ operator: { name: s.admin.username }, target: { name: 'bob' } });
  });

  it('org.create, org.rename, team.create, team.member.add/remove, team.delete, org.delete', async () => {
    const org = await createOrg(s, alice, 'acme');
    expect(await last('org.create')).toMatchObject({ target: { type: 'org', id: org.id, name: 'acme' }, owner: { name: 'acme' } });
    await ok(await call(as(alice), 'POST', 'orgs/acme/rename', { new_name: 'acme2' }), 204);
    expect(await last('org.rename')).toMatchObject({ target: { name: 'acme2' }, extra: { old_name: 'acme', new_name: 'acme2' } });
    const team = await ok(await call(as(alice), 'POST', 'orgs/acme2/teams', { name: 'devs', permission: 'write', units: ['repo.code'] }), 201);
    expect(await last('team.create')).toMatchObject({ target: { type: 'team', id: team.id, name: 'acme2/devs' } });
    await ok(await call(as(alice), 'PUT', `teams/${team.id}/members/bob`), 204);
    expect(await last('team.member.add')).toMatchObject({ target: { id: team.id }, extra: { member: 'bob', member_id: bob.id } });
    await ok(await call(as(alice), 'DELETE', `teams/${team.id}/members/bob`), 204);
    expect(await last('team.member.remove')).toMatchObject({ extra: { member: 'bob' } });
    await ok(await call(as(alice), 'DELETE', `teams/${team.id}`), 204);
    expect(await last('team.delete')).toMatchObject({ target: { name: 'acme2/devs' } });
    await ok(await call(as(alice), 'DELETE', 'orgs/acme2'), 204);
    expect(await last('org.delete')).toMatchObject({ target: { name: 'acme2' } });
  });

  it('repo.create, repo.rename, repo.visibility, repo.transfer, repo.delete', async () => {
    const repo = await createRepo(s, alice, 'proj', { auto_init: true });
    expect(await last('repo.create')).toMatchObject({ target: { type: 'repo', id: repo.id, name: 'alice/proj' }, repository: { full_name: 'alice/proj' }, owner: { name: 'alice' } });
    await ok(await call(as(alice), 'PATCH', 'repos/alice/proj', { name: 'proj2' }));
    expect(await last('repo.rename')).toMatchObject({ target: { name: 'alice/proj2' }, extra: { old_name: 'proj', new_name: 'proj2' } });
    await ok(await call(as(alice), 'PATCH', 'repos/alice/proj2', { private: true }));
    expect(await last('repo.visibility')).toMatchObject({ repository: { full_name: 'alice/proj2' }, extra: { private: true } });
    await createOrg(s, alice, 'movers');
    await ok(await call(as(alice), 'POST', 'repos/alice/proj2/transfer', { new_owner: 'movers' }), 202);
    expect(await last('repo.transfer')).toMatchObject({ target: { name: 'movers/proj2' }, owner: { name: 'movers' }, extra: { from: 'alice', to: 'movers' } });
    await ok(await call(as(alice), 'DELETE', 'repos/movers/proj2'), 204);
    expect(await last('repo.delete')).toMatchObject({ target: { id: repo.id, name: 'movers/proj2' } });
  });

  it('repo.collaborator.add, .update and .remove', async () => {
    await createRepo(s, alice, 'shared');
    await ok(await call(as(alice), 'PUT', 'repos/alice/shared/collaborators/bob', { permission: 'read' }), 204);
    expect(await last('repo.collaborator.add')).toMatchObject({ target: { type: 'user', id: bob.id, name: 'bob' }, repository: { full_name: 'alice/shared' } });
    await ok(await call(as(alice), 'PUT', 'repos/alice/shared/collaborators/bob', { permission: 'admin' }), 204);
    expect(await last('repo.collaborator.update')).toMatchObject({ extra: { mode: 3, old_mode: 1 } });
    await ok(await call(as(alice), 'DELETE', 'repos/alice/shared/collaborators/bob'), 204);
    expect(await last('repo.collaborator.remove')).toMatchObject({ target: { name: 'bob' } });
  });

  it('branch and tag protection changes', async () => {
    await createRepo(s, alice, 'guarded', { auto_init: true });
    await ok(await call(as(alice), 'POST', 'repos/alice/guarded/branch_protections', { rule_name: 'main' }), 201);
    expect(await last('repo.branch_protection.create')).toMatchObject({ target: { type: 'protected_branch', name: 'main' }, repository: { full_name: 'alice/guarded' } });
    await ok(await call(as(alice), 'PATCH', 'repos/alice/guarded/branch_protections/main', { enable_push: true }));
    expect(await last('repo.branch_protection.update')).toMatchObject({ target: { name: 'main' } });
    await ok(await call(as(alice), 'DELETE', 'repos/alice/guarded/branch_protections/main'), 204);
    expect(await last('repo.branch_protection.delete')).toMatchObject({ target: { name: 'main' } });
    const tag = await ok(await call(as(alice), 'POST', 'repos/alice/guarded/tag_protections', { name_pattern: 'v*', whitelist_usernames: ['alice'] }), 201);
    expect(await last('repo.tag_protection.create')).toMatchObject({ target: { type: 'protected_tag', id: tag.id, name: 'v*' } });
    await ok(await call(as(alice), 'PATCH', `repos/alice/guarded/tag_protections/${tag.id}`, { name_pattern: 'release-*' }));
    expect(await last('repo.tag_protection.update')).toMatchObject({ target: { name: 'release-*' } });
    await ok(await call(as(alice), 'DELETE', `repos/alice/guarded/tag_protections/${tag.id}`), 204);
    expect(await last('repo.tag_protection.delete')).toMatchObject({ target: { id: tag.id } });
  });

  it('webhook.create, .update and .delete name the destination host, never its token-bearing path', async () => {
    await createRepo(s, alice, 'hooked');
    const hook = await ok(await call(as(alice), 'POST', 'repos/alice/hooked/hooks', {
      type: 'slack', config: { url: 'https://hooks.example.com/services/SECRET123', content_type: 'json', channel: '#x' }, active: true,
    }), 201);
    const created = await last('webhook.create');
    expect(created).toMatchObject({ target: { type: 'webhook', id: hook.id, name: 'slack https://hooks.example.com' }, repository: { full_name: 'alice/hooked' } });
    expect(JSON.stringify(created)).not.toContain('SECRET123');
    await ok(await call(as(alice), 'PATCH', `repos/alice/hooked/hooks/${hook.id}`, { active: false }));
    expect(await last('webhook.update')).toMatchObject({ target: { id: hook.id } });
    await ok(await call(as(alice), 'DELETE', `repos/alice/hooked/hooks/${hook.id}`), 204);
    expect(await last('webhook.delete')).toMatchObject({ target: { id: hook.id }, extra: { scope: 'repo' } });
  });

  it('repo.deploy_key.add and .remove', async () => {
    await createRepo(s, alice, 'deployed');
    const pub = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2IjboUwRPw9NqSJfDA4O0T2cjb0ceAJAm0AKV3UqOm ed@host';
    const key = await ok(await call(as(alice), 'POST', 'repos/alice/deployed/keys', { title: 'ci', key: pub, read_only: true }), 201);
    expect(await last('repo.deploy_key.add')).toMatchObject({ target: { type: 'deploy_key', id: key.id, name: 'ci' }, repository: { full_name: 'alice/deployed' }, extra: { read_only: true } });
    await ok(await call(as(alice), 'DELETE', `repos/alice/deployed/keys/${key.id}`), 204);
    expect(await last('repo.deploy_key.remove')).toMatchObject({ target: { id: key.id, name: 'ci' } });
  });

  it('actions.secret.create, .update and .delete name the secret, never its value', async () => {
    await createRepo(s, alice, 'ci');
    await ok(await call(as(alice), 'PUT', 'repos/alice/ci/actions/secrets/DEPLOY_TOKEN', { data: 's3cr3t-value' }), 201);
    const created = await last('actions.secret.create');
    expect(created).toMatchObject({ target: { type: 'secret', name: 'alice/ci:DEPLOY_TOKEN' }, repository: { full_name: 'alice/ci' }, extra: { scope: 'repo' } });
    await ok(await call(as(alice), 'PUT', 'repos/alice/ci/actions/secrets/DEPLOY_TOKEN', { data: 'other-value' }), 204);
    expect(await last('actions.secret.update')).toMatchObject({ target: { id: created.target.id } });
    await ok(await call(as(alice), 'DELETE', 'repos/alice/ci/actions/secrets/DEPLOY_TOKEN'), 204);
    expect(await last('actions.secret.delete')).toMatchObject({ target: { name: 'alice/ci:DEPLOY_TOKEN' } });
    const all = JSON.stringify(await rows({ operator_id: alice.id }));
    expect(all).not.toContain('s3cr3t-value');
    expect(all).not.toContain('other-value');
  });

  it('user.rename, user.delete and admin.cron.run by the site admin', async () => {
    const carol = await createUser(s, 'carol');
    await ok(await call(admin(), 'POST', 'admin/users/carol/rename', { new_username: 'carola' }), 204);
    expect(await last('user.rename')).toMatchObject({ target: { id: carol.id, name: 'carola' }, extra: { old_name: 'carol' } });
    await ok(await call(admin(), 'DELETE', 'admin/users/carola'), 204);
    expect(await last('user.delete')).toMatchObject({ operator: { name: s.admin.username }, target: { id: carol.id, name: 'carola' } });
    await ok(await call(admin(), 'POST', 'admin/cron/check_repo_stats'), 204);
    expect(await last('admin.cron.run')).toMatchObject({ target: { type: 'cron', name: 'check_repo_stats' } });
  });

  it('user.sudo, and rows made under Sudo name the admin in extra.sudo_by', async () => {
    await ok(await s.request('api/v1/users/bob/tokens', {
      method: 'POST', ...admin(), headers: { Sudo: 'bob' }, json: { name: 'sudo-made', scopes: ['read:user'] },
    }), 201);
    expect(await last('user.sudo')).toMatchObject({ operator: { name: s.admin.username }, target: { id: bob.id, name: 'bob' } });
    expect(await last('user.token.create')).toMatchObject({ operator: { name: 'bob' }, target: { name: 'sudo-made' }, extra: { sudo_by: s.admin.username } });
  });
});

describe('in the transaction of the change', () => {
  it('a rename that fails on disk leaves neither the new name nor a row', async () => {
    await createRepo(s, bob, 'stuff');
    const blocking = path.join(ownerDir(s.hearth.config.repository.root, 'bobby'), 'x.git');
    fs.mkdirSync(blocking, { recursive: true });
    fs.writeFileSync(path.join(blocking, 'HEAD'), 'ref: refs/heads/main\n');
    const before = await count('user.rename');
    expect((await call(admin(), 'POST', 'admin/users/bob/rename', { new_username: 'bobby' })).status).toBe(409);
    expect(await count('user.rename')).toBe(before);
    await ok(await call(admin(), 'GET', 'users/bob'));
  });

  it('recordAudit in a transaction that rolls back leaves no row', async () => {
    const db = s.hearth.db;
    const before = await count('org.create');
    await expect(db.transaction().execute(async (trx) => {
      await recordAudit(trx, { op: 'org.create', target: { type: 'org', id: 999, name: 'ghost' } });
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await count('org.create')).toBe(before);
  });
});

describe('search', () => {
  it('filters by operation type, operator id, operator name and time, newest first, paged', async () => {
    const byAlice = await rows({ operator_id: alice.id });
    expect(byAlice.length).toBeGreaterThan(5);
    expect(byAlice.every((r) => r.operator.id === alice.id)).toBe(true);
    expect(byAlice.map((r) => r.id)).toEqual([...byAlice.map((r) => r.id)].sort((a, b) => b - a));
    expect((await rows({ q: 'ALI' })).every((r) => r.operator.name.toLowerCase().includes('ali'))).toBe(true);
    expect(await rows({ q: 'nobody-at-all' })).toEqual([]);
    const now = Math.floor(Date.now() / 1000);
    expect(await rows({ start_unix: now + 100 })).toEqual([]);
    expect((await rows({ end_unix: now + 100, operation_type: 'repo.create' })).length).toBeGreaterThan(0);
    const res = await call(admin(), 'GET', 'admin/audit-logs?operator_id=' + alice.id + '&limit=2&page=2');
    const page = await ok(res);
    expect(page.map((r: Row) => r.id)).toEqual(byAlice.slice(2, 4).map((r) => r.id));
    expect(res.headers.get('x-total-count')).toBe(String(byAlice.length));
    expect(res.headers.get('link')).toContain('rel="next"');
  });

  it('an unknown operation type is 422', async () => {
    expect((await call(admin(), 'GET', 'admin/audit-logs?operation_type=user.nope')).status).toBe(422);
  });

  it('both endpoints are extensions whose swagger description lists every operation type', async () => {
    const paths = (buildSwagger(await loadedRoutes(apiRoutes), 'http://localhost/') as unknown as { paths: Record<string, { get: { description?: string; 'x-hearth-extension'?: boolean } }> }).paths;
    for (const p of ['/admin/audit-logs', '/admin/audit-logs/export']) {
      expect(paths[p]!.get['x-hearth-extension']).toBe(true);
      for (const op of AUDIT_OPERATIONS) expect(paths[p]!.get.description).toContain(op);
    }
  });

  it('is for site admins only', async () => {
    for (const p of ['admin/audit-logs', 'admin/audit-logs/export']) {
      expect((await call(as(alice), 'GET', p)).status).toBe(403);
      expect((await s.request(`api/v1/${p}`)).status).toBe(401);
    }
  });
});

describe('CSV export', () => {
  it('streams every matching row as text/csv, parsed back equal to the listing', async () => {
    const res = await call(admin(), 'GET', `admin/audit-logs/export?operator_id=${alice.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('audit-logs.csv');
    const records = parse(await res.text(), { columns: true }) as Record<string, string>[];
    const listed = await rows({ operator_id: alice.id });
    expect(records.map((r) => Number(r.id))).toEqual(listed.map((r) => r.id));
    const first = records[0]!;
    expect(Object.keys(first)).toEqual(['id', 'operation_time', 'operation_type', 'operator_id', 'operator_name', 'target_type', 'target_id',
      'target_name', 'owner_id', 'owner_name', 'repo_id', 'repo_name', 'ip_address', 'message', 'extra']);
    expect(first).toMatchObject({ operator_name: 'alice', operation_type: listed[0]!.operation_type, message: listed[0]!.message });
    expect(JSON.parse(first.extra!)).toEqual(listed[0]!.extra);
  });

  it('handles names with commas, quotes and newlines', async () => {
    await recordAudit(s.hearth.db, {
      op: 'user.signin.failure', target: { type: 'user', id: 0, name: 'a,"b"\nc' }, actor: { id: 0, name: 'a,"b"\nc', ip: '10.0.0.1' },
    });
    const res = await call(admin(), 'GET', 'admin/audit-logs/export?operation_type=user.signin.failure&q=%22b%22');
    const records = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ target_name: 'a,"b"\nc', ip_address: '10.0.0.1' });
  });

  it('of more rows than two chunks keeps every row once', async () => {
    const db = s.hearth.db;
    const now = Math.floor(Date.now() / 1000);
    const values = Array.from({ length: 10_500 }, (_, i) => ({
      ...BLANK, operation_type: 'user.signin', operator_id: 424242, operator_name: `bulk${i}`, created_unix: now, extra: '{}',
    }));
    for (let i = 0; i < values.length; i += 500) await db.insertInto('audit_log').values(values.slice(i, i + 500)).execute();
    const res = await call(admin(), 'GET', 'admin/audit-logs/export?operator_id=424242');
    const records = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(10_500);
    expect(new Set(records.map((r) => r.id)).size).toBe(10_500);
  });
});

describe('retention', () => {
  it('cleanup_audit_logs deletes rows older than [audit] retention_days', async () => {
    const db = s.hearth.db;
    const old = Math.floor(Date.now() / 1000) - 400 * 86_400;
    await db.insertInto('audit_log').values({ ...BLANK, operation_type: 'user.signin', operator_id: 777, operator_name: 'old', created_unix: old, extra: '{}' }).execute();
    expect(await rows({ operator_id: 777 })).toHaveLength(1);
    await ok(await call(admin(), 'POST', 'admin/cron/cleanup_audit_logs'), 204);
    await eventually(async () => (await rows({ operator_id: 777 })).length === 0, 10_000, 'the old row deleted');
    expect((await json(await call(admin(), 'GET', 'admin/audit-logs?limit=1'))).length).toBe(1);
  });
});
