import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/services/doctor/doctor';
import type { CheckResult } from '../../src/services/doctor/types';
import { cronOf } from '../../src/services/cron/scheduler';
import { createRepo, git, remoteUrl, tempDir, workTree } from '../helpers/git';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { sqliteOnly, testsOnPostgres } from '../helpers/test-database';
import { eventually } from '../helpers/wait';

// The cron tasks Gitea registers for repositories that lost their directory, old activity rows
// and the issue search index: reinit_missing_repos, delete_missing_repos, delete_old_actions and
// rebuild_issue_indexer, run through the admin API against the real server.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let rx: Receiver;

const admin = () => ({ basic: [s.admin.username, s.admin.password] as [string, string] });
const repoPath = (name: string) => path.join(s.hearth.config.repository.root, 'alice', `${name}.git`);
const getRepo = (name: string) => s.request(`api/v1/repos/alice/${name}`, { auth: as(alice) });
const runAndWait = async (task: string) => {
  expect((await s.request(`api/v1/admin/cron/${task}`, { method: 'POST', auth: admin() })).status).toBe(204);
  const scheduler = cronOf(s.hearth.db)!;
  await scheduler.idle();
  return scheduler.list().find((r) => r.name === task)!.last;
};
const doctor = async () => {
  const ctx = { config: s.hearth.config, fix: false, fsckTimeoutMs: 60_000, stamp: 'STAMP', signal: new AbortController().signal };
  return Object.fromEntries((await runDoctor(s.hearth.db, ctx)).map((r) => [r.name, r])) as Record<string, CheckResult>;
};

beforeAll(async () => {
  s = await startTestServer({ HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
  alice = await createUser(s, 'alice');
  rx = await startReceiver();
  await ok(await s.request('api/v1/user/hooks', {
    method: 'POST', auth: as(alice), json: { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['repository'] },
  }), 201);
  for (const name of ['kept', 'lost']) await createRepo(s, alice, name, { auto_init: true, default_branch: 'main' });
}, 60_000);
afterAll(async () => {
  await s.stop();
  await rx.close();
});

describe('repositories whose directory is gone', () => {
  it('doctor lists them and names the two cron tasks that resolve it', async () => {
    fs.rmSync(repoPath('lost'), { recursive: true });
    const r = (await doctor())['repository-directories']!;
    expect(r.problems).toEqual([`alice/lost: no directory ${repoPath('lost')}`]);
    expect(r.hint).toMatch(/reinit_missing_repos .*delete_missing_repos/);
  });

  it('reinit_missing_repos makes an empty repository of each, a push and a clone work again, the others untouched', async () => {
    const before = await ok(await getRepo('kept'));
    const last = await runAndWait('reinit_missing_repos');
    expect(last).toMatchObject({ status: 'finished', message: 'reinitialised 1 repositories without a directory as empty ones' });
    expect(fs.existsSync(path.join(repoPath('lost'), 'HEAD'))).toBe(true);
    expect(await ok(await getRepo('lost'))).toMatchObject({ empty: true, default_branch: 'main' });
    expect(await ok(await s.request('api/v1/repos/alice/lost/branches', { auth: as(alice) }))).toEqual([]);
    const after = await ok(await getRepo('kept'));
    expect([after.empty, after.size]).toEqual([false, before.size]);
    const d = await doctor();
    expect([d['repository-directories']!.problems, d['branch-rows']!.problems, d['git-fsck']!.problems]).toEqual([[], [], []]);

    const url = remoteUrl(s, 'alice', 'lost', alice.username, alice.password);
    const work = await workTree({ 'again.txt': 'back\n' });
    await git(work, 'push', '-q', url, 'main');
    expect(await ok(await getRepo('lost'))).toMatchObject({ empty: false });
    const clone = path.join(tempDir(), 'lost');
    await git(path.dirname(clone), 'clone', '-q', url, clone);
    expect(fs.readFileSync(path.join(clone, 'again.txt'), 'utf8')).toBe('back\n');
    expect((await runAndWait('reinit_missing_repos'))?.message).toBe('reinitialised 0 repositories without a directory as empty ones');
  });

  it('delete_missing_repos deletes each through the ordinary deletion, as the system, the others kept', async () => {
    fs.rmSync(repoPath('lost'), { recursive: true });
    const last = await runAndWait('delete_missing_repos');
    expect(last).toMatchObject({ status: 'finished', message: 'deleted 1 repositories without a directory' });
    expect((await getRepo('lost')).status).toBe(404);
    expect(await ok(await getRepo('kept'))).toMatchObject({ full_name: 'alice/kept', empty: false });
    const owner = await s.hearth.db.selectFrom('user').select('num_repos').where('id', '=', alice.id).executeTakeFirstOrThrow();
    expect(owner.num_repos).toBe(1);
    const audit = await s.hearth.db.selectFrom('audit_log').select(['operator_id', 'operator_name'])
      .where('operation_type', '=', 'repo.delete').where('repo_name', '=', 'alice/lost').execute();
    expect(audit).toEqual([{ operator_id: -1, operator_name: '(system)' }]);
    // The owner's webhook hears of it as of any deletion, sent by Gitea's cron doer.
    await eventually(async () => rx.requests.some((r) => JSON.parse(r.body).action === 'deleted'));
    const deleted = JSON.parse(rx.requests.find((r) => JSON.parse(r.body).action === 'deleted')!.body);
    expect(deleted).toMatchObject({ repository: { full_name: 'alice/lost' }, sender: { login: '(Cron)' } });
    expect((await doctor())['repository-directories']!.problems).toEqual([]);
  });
});

describe('delete_old_actions', () => {
  it('deletes the activity feed rows older than older_than (a year) and keeps the recent ones', async () => {
    const db = s.hearth.db;
    const rows = await db.selectFrom('action').select(['id', 'created_unix']).orderBy('id').execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const old = Math.floor(Date.now() / 1000) - 366 * 86_400;
    await db.updateTable('action').set({ created_unix: old }).where('id', '=', rows[0]!.id).execute();
    const last = await runAndWait('delete_old_actions');
    expect(last).toMatchObject({ status: 'finished', message: 'deleted 1 activity feed rows older than 8760h' });
    const left = await db.selectFrom('action').select('id').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual(rows.slice(1).map((r) => r.id));
  });
});

describe('rebuild_issue_indexer', () => {
  // Empties SQLite's FTS5 index behind the issues' back, which PostgreSQL's trigram indexes have no counterpart for.
  sqliteOnly('rebuilds the issue search index from the issues', async () => {
    await ok(await s.request('api/v1/repos/alice/kept/issues', { method: 'POST', auth: as(alice), json: { title: 'the zanzibar crash' } }), 201);
    const search = async () => (await json(await s.request('api/v1/repos/alice/kept/issues?q=zanzibar&state=all', { auth: as(alice) })) as { title: string }[])
      .map((i) => i.title);
    expect(await search()).toEqual(['the zanzibar crash']);
    await sql`INSERT INTO issue_fts (issue_fts) VALUES ('delete-all')`.execute(s.hearth.db);
    expect(await search()).toEqual([]);
    expect(await runAndWait('rebuild_issue_indexer')).toMatchObject({ status: 'finished', message: 'rebuilt the search indexes issue_fts' });
    expect(await search()).toEqual(['the zanzibar crash']);
  });

  it('rebuilds each engine\'s search indexes, and search finds the issues after', async () => {
    await ok(await s.request('api/v1/repos/alice/kept/issues', { method: 'POST', auth: as(alice), json: { title: 'the quokka report', body: 'Seen in PERTH' } }), 201);
    const search = async (q: string) => (await json(await s.request(`api/v1/repos/alice/kept/issues?q=${q}&state=all`, { auth: as(alice) })) as { title: string }[])
      .map((i) => i.title);
    const indexes = testsOnPostgres ? 'idx_issue_content_trgm, idx_issue_title_trgm' : 'issue_fts';
    expect(await runAndWait('rebuild_issue_indexer')).toMatchObject({ status: 'finished', message: `rebuilt the search indexes ${indexes}` });
    expect(await search('QUOKKA')).toEqual(['the quokka report']);
    expect(await search('perth')).toEqual(['the quokka report']);
  });
});
