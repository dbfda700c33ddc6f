import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load';
import type { DB } from '../../src/db/connect';
import type { Database } from '../../src/db/schema';
import type { Hearth } from '../../src/hearth';
import { parseDuration } from '../../src/services/cron/duration';
import { nextCalendarTime, toTrigger } from '../../src/services/cron/schedule';
import { CronScheduler, cronOf } from '../../src/services/cron/scheduler';
import { cleanupHookTasks } from '../../src/services/cron/tasks/hook-tasks';
import type { CronTask } from '../../src/services/cron/types';
import { createRepo } from '../helpers/git';
import { createToken, createUser, json, startTestServer, type Auth, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// Gitea's task names, in Gitea's order, and hearth's cleanup_audit_logs.
const TASKS = [
  'update_mirrors', 'repo_health_check', 'check_repo_stats', 'archive_cleanup', 'sync_external_users', 'deleted_branches_cleanup',
  'update_migration_poster_id', 'cleanup_hook_task_table', 'cleanup_packages', 'sync_repo_licenses', 'delete_inactive_accounts', 'delete_repo_archives', 'git_gc_repos',
  'resync_all_sshkeys', 'resync_all_sshprincipals', 'resync_all_hooks', 'reinit_missing_repos', 'delete_missing_repos',
  'delete_generated_repository_avatars', 'delete_old_actions', 'update_checker', 'delete_old_system_notices', 'gc_lfs',
  'rebuild_issue_indexer',
  'stop_zombie_tasks', 'stop_endless_tasks', 'cancel_abandoned_jobs', 'start_schedule_tasks', 'cleanup_actions',
  'cleanup_audit_logs',
];
const ZERO = '0001-01-01T00:00:00Z';
// The scheduler requires node-cron (its CommonJS build): the same module, so the same registry.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { getTasks } = require('node-cron') as typeof import('node-cron');

describe('schedule translation', () => {
  it.each([
    ['@midnight', '0 0 * * *'], ['@daily', '0 0 * * *'], ['@hourly', '0 * * * *'], ['@weekly', '0 0 * * 0'],
    ['@monthly', '0 0 1 * *'], ['@yearly', '0 0 1 1 *'], ['@annually', '0 0 1 1 *'],
    ['30 4 * * *', '30 4 * * *'], ['  0   3 * * 1-5 ', '0 3 * * 1-5'], ['15 30 4 * * *', '15 30 4 * * *'],
  ])('%j runs as the cron expression %j', (schedule, expression) => {
    expect(toTrigger(schedule)).toEqual({ kind: 'cron', expression });
  });

  it.each([
    ['@every 10m', 600_000], ['@every 72h', 259_200_000], ['@every 1h30m', 5_400_000],
    ['@every 90s', 90_000], ['@every 1500ms', 1000], ['@every 100ms', 1000],
  ])('%j is an interval of %d ms (whole seconds, at least one, as robfig/cron)', (schedule, ms) => {
    expect(toTrigger(schedule)).toEqual({ kind: 'every', ms });
  });

  it('finds the descriptors\' next runs in local time, strictly after the moment given', () => {
    const at = (...a: [number, number, number, number?, number?, number?, number?]) => new Date(...a);
    const cases: [Parameters<typeof nextCalendarTime>[0], Date, Date][] = [
      ['hour', at(2026, 10, 25, 13, 59, 59, 999), at(2026, 10, 25, 14)],
      ['hour', at(2026, 10, 25, 14), at(2026, 10, 25, 15)],
      ['day', at(2026, 10, 25, 6, 30), at(2026, 10, 26)],
      ['day', at(2026, 11, 31, 0), at(2027, 0, 1)],
      ['week', at(2026, 10, 25, 12), at(2026, 10, 29)], // a Wednesday: the next Sunday
      ['week', at(2026, 10, 29, 0), at(2026, 11, 6)], // Sunday at midnight: the Sunday after
      ['month', at(2026, 0, 31, 12), at(2026, 1, 1)],
      ['month', at(2026, 11, 1), at(2027, 0, 1)],
      ['year', at(2026, 5, 15), at(2027, 0, 1)],
    ];
    for (const [unit, from, want] of cases) expect([unit, nextCalendarTime(unit, from).toString()]).toEqual([unit, want.toString()]);
  });

  it('rejects what is no schedule', () => {
    for (const bad of ['@every', '@every soon', '@sometimes', '* * *', '']) expect(() => toTrigger(bad)).toThrow();
  });

  it('parses Go durations', () => {
    expect(parseDuration('168h')).toBe(604_800_000);
    expect(parseDuration('1h2m3s')).toBe(3_723_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('0')).toBe(0);
    for (const bad of ['', '10', '1d', 'h', '1h x', '-1h']) expect(() => parseDuration(bad)).toThrow();
  });
});

describe('the scheduler', () => {
  type Line = { msg: string; task?: string; outcome?: string; ms?: number; result?: string };
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (l: string) => { lines.push(JSON.parse(l) as Line); } });
  const deps = (env: Record<string, string> = {}) => ({ ...({} as Hearth), db: {} as DB, config: loadConfig(null, {}, env), log });
  const task = (run: CronTask['run'], schedule = '@every 1h', enabled = true, runAtStart = false): CronTask =>
    ({ defaults: { enabled, run_at_start: runAtStart, schedule }, run });

  afterEach(() => { vi.useRealTimers(); lines.length = 0; });

  it('never runs a task alongside itself, and logs each run and each skip', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let runs = 0;
    const c = new CronScheduler(deps(), { slow: task(async () => { runs += 1; await gate; return 'done'; }) });
    c.start();
    expect(c.run('slow', 'manual')).toBe('started');
    expect(c.run('slow', 'manual')).toBe('running');
    expect(c.run('slow', 'schedule')).toBe('running');
    expect(c.run('nope', 'manual')).toBeUndefined();
    release();
    await c.idle();
    expect(runs).toBe(1);
    const row = c.list()[0]!;
    expect(row).toMatchObject({ name: 'slow', execTimes: 1, running: false, last: { status: 'finished', message: 'done' } });
    expect(lines.filter((l) => l.msg.includes('skipped'))).toHaveLength(2);
    expect(lines.find((l) => l.msg === 'cron task finished')).toMatchObject({ task: 'slow', outcome: 'finished', result: 'done' });
    await c.stop();
  });

  it('keeps a failure as the last result and logs it as an error', async () => {
    const c = new CronScheduler(deps(), { bad: task(async () => { throw new Error('boom'); }) });
    c.start();
    c.run('bad', 'manual');
    await c.idle();
    expect(c.list()[0]!.last).toMatchObject({ status: 'error', message: 'boom' });
    expect(lines.find((l) => l.msg === 'cron task failed')).toMatchObject({ task: 'bad', outcome: 'error' });
    await c.stop();
  });

  it('fires @every tasks on their interval and runs run_at_start tasks once at start', async () => {
    vi.useFakeTimers();
    let ticks = 0;
    let starts = 0;
    const c = new CronScheduler(deps(), {
      tick: task(async () => `tick ${(ticks += 1)}`, '@every 10s'),
      boot: task(async () => `boot ${(starts += 1)}`, '@every 24h', true, true),
      off: task(async () => 'never', '@every 1s', false, true),
    });
    c.start();
    expect(c.list().find((r) => r.name === 'tick')!.next!.getTime()).toBe(Date.now() + 10_000);
    await vi.advanceTimersByTimeAsync(35_000);
    expect(ticks).toBe(3);
    expect(starts).toBe(1);
    expect(c.list().find((r) => r.name === 'off')).toMatchObject({ schedule: '-', next: null, execTimes: 0 });
    await c.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ticks).toBe(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stop() clears every timer, node-cron tasks included, and a stopped scheduler runs nothing', async () => {
    const before = getTasks().size;
    const c = new CronScheduler(deps(), {
      nightly: task(async () => 'x', '@midnight'), often: task(async () => 'y', '*/5 * * * * *'), gap: task(async () => 'z', '@every 1h'),
    });
    c.start();
    // @midnight runs on a native timer (no node-cron task, no ICU at start); the expression does not.
    expect(getTasks().size).toBe(before + 1);
    const nightly = c.list().find((r) => r.name === 'nightly')!.next as Date;
    expect(nightly.getTime()).toBe(nextCalendarTime('day', new Date()).getTime());
    expect(c.list().every((r) => r.next instanceof Date)).toBe(true);
    await c.stop();
    expect(getTasks().size).toBe(before);
    expect(c.list().every((r) => r.next === null)).toBe(true);
    expect(c.run('gap', 'manual')).toBe('stopped');
  });

  it('cancels a run in progress when stopped, and waits for it', async () => {
    let ended = false;
    const c = new CronScheduler(deps(), {
      long: task(async (ctx) => {
        await new Promise((r) => { ctx.signal.addEventListener('abort', r); });
        ended = true;
        throw new Error('stopped');
      }),
    });
    c.start();
    c.run('long', 'manual');
    await c.stop();
    expect(ended).toBe(true);
    expect(c.list()[0]!.last).toMatchObject({ status: 'cancelled', message: 'stopped' });
    expect(lines.find((l) => l.msg === 'cron task cancelled')).toMatchObject({ task: 'long', outcome: 'cancelled' });
  });

  it('takes the config over the task defaults', () => {
    const c = new CronScheduler(deps({ HEARTH__CRON__GIT_GC_REPOS__ENABLED: 'true', HEARTH__CRON__CHECK_REPO_STATS__ENABLED: 'false' }));
    const rows = c.list();
    expect(rows.map((r) => r.name)).toEqual(TASKS);
    expect(rows.find((r) => r.name === 'git_gc_repos')!.schedule).toBe('@every 72h');
    expect(rows.find((r) => r.name === 'check_repo_stats')!.schedule).toBe('-');
  });
});

describe('the admin cron API', () => {
  let s: TestServer;
  let alice: { username: string; password: string; id: number };
  let admin: Auth;

  const get = (p: string, auth: Auth = admin) => s.request(`api/v1/${p}`, { auth });
  const post = (p: string, auth: Auth = admin) => s.request(`api/v1/${p}`, { method: 'POST', auth });
  const scheduler = () => cronOf(s.hearth.db)!;
  const row = (name: string) => scheduler().list().find((r) => r.name === name)!;
  const runAndWait = async (name: string) => {
    expect((await post(`admin/cron/${name}`)).status).toBe(204);
    await scheduler().idle();
    return row(name);
  };

  beforeAll(async () => {
    s = await startTestServer({
      HEARTH__CRON__GIT_GC_REPOS__ENABLED: 'true',
      HEARTH__CRON__GIT_GC_REPOS__SCHEDULE: '@every 1h',
      HEARTH__CRON__ARCHIVE_CLEANUP__ENABLED: 'false',
      HEARTH__CRON__REPO_HEALTH_CHECK__SCHEDULE: '30 4 * * *',
      HEARTH__CRON__REPO_HEALTH_CHECK__TIMEOUT: '30s',
    });
    admin = { basic: [s.admin.username, s.admin.password] };
    alice = await createUser(s, 'alice');
    for (const name of ['one', 'two', 'three']) await createRepo(s, alice, name, { auto_init: true });
    await scheduler().idle();
  }, 60_000);
  afterAll(async () => { await s.stop(); });

  it('lists Gitea\'s tasks with their schedules; a disabled one shows "-"', async () => {
    const res = await get('admin/cron');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe(String(TASKS.length));
    const body = await json(res) as { name: string; schedule: string; next: string; prev: string; exec_times: number }[];
    expectShape(body, '[Cron]');
    expect(body.map((t) => t.name)).toEqual(TASKS);
    const byName = Object.fromEntries(body.map((t) => [t.name, t]));
    const next = new Date(byName.repo_health_check!.next);
    expect(byName.repo_health_check!.schedule).toBe('30 4 * * *');
    expect([next.getHours(), next.getMinutes(), next.getTime() > Date.now()]).toEqual([4, 30, true]);
    expect(byName.git_gc_repos!.schedule).toBe('@every 1h');
    expect(Math.abs(Date.parse(byName.git_gc_repos!.next) - Date.now() - 3_600_000)).toBeLessThan(120_000);
    expect(byName.archive_cleanup).toEqual({ name: 'archive_cleanup', schedule: '-', next: ZERO, prev: ZERO, exec_times: 0 });
    expect(byName.delete_repo_archives!.schedule).toBe('-');
    // Gitea's update_checker is on; hearth never calls out, so its stays off.
    expect(byName.update_checker!.schedule).toBe('-');
    // run_at_start: check_repo_stats and deleted_branches_cleanup ran once when the server started.
    expect(byName.check_repo_stats!.exec_times).toBe(1);
    expect(Date.parse(byName.check_repo_stats!.prev)).toBeGreaterThan(Date.now() - 120_000);
    expect(byName.deleted_branches_cleanup!.exec_times).toBe(1);
    expect(byName.cleanup_hook_task_table).toMatchObject({ schedule: '@midnight', prev: ZERO, exec_times: 0 });
  });

  it('pages with page and limit, X-Total-Count the whole table', async () => {
    const res = await get('admin/cron?page=2&limit=3');
    expect(res.headers.get('x-total-count')).toBe(String(TASKS.length));
    expect((await json(res) as { name: string }[]).map((t) => t.name)).toEqual(TASKS.slice(3, 6));
    expect(await json(await get('admin/cron?page=20&limit=3'))).toEqual([]);
  });

  it('is for site admins: 403 for others, 401 anonymous, write:admin scope to run', async () => {
    const asAlice: Auth = { basic: [alice.username, alice.password] };
    expect((await get('admin/cron', asAlice)).status).toBe(403);
    expect((await post('admin/cron/resync_all_hooks', asAlice)).status).toBe(403);
    expect((await s.request('api/v1/admin/cron')).status).toBe(401);
    expect((await s.request('api/v1/admin/cron/resync_all_hooks', { method: 'POST' })).status).toBe(401);
    const readOnly: Auth = { token: await createToken(s, s.admin, ['read:admin']) };
    expect((await get('admin/cron', readOnly)).status).toBe(200);
    expect((await post('admin/cron/resync_all_hooks', readOnly)).status).toBe(403);
    expect(row('resync_all_hooks').execTimes).toBe(0);
  });

  it('runs a task on demand (204), even a disabled one; 404 for an unknown name', async () => {
    const done = await runAndWait('resync_all_hooks');
    expect(done.execTimes).toBe(1);
    expect(done.last).toMatchObject({ status: 'finished' });
    expect(fs.existsSync(path.join(s.dataDir, 'hooks', 'pre-receive'))).toBe(true);
    const listed = (await json(await get('admin/cron')) as { name: string; prev: string; exec_times: number }[])
      .find((t) => t.name === 'resync_all_hooks')!;
    expect(listed.exec_times).toBe(1);
    expect(listed.prev).not.toBe(ZERO);
    const missing = await post('admin/cron/no_such_task');
    expect(missing.status).toBe(404);
    expect(Object.keys(await json(missing)).sort()).toEqual(['message', 'url']);
  });

  it('never overlaps: two runs asked at once make one run', async () => {
    const before = row('repo_health_check').execTimes;
    const [a, b] = await Promise.all([post('admin/cron/repo_health_check'), post('admin/cron/repo_health_check')]);
    expect([a.status, b.status]).toEqual([204, 204]);
    await scheduler().idle();
    expect(row('repo_health_check').execTimes).toBe(before + 1);
    expect(row('repo_health_check').last).toMatchObject({ status: 'finished', message: '3 repositories checked: all healthy' });
  });

  it('check_repo_stats corrects counters that drifted from their rows', async () => {
    await s.request('api/v1/user/starred/alice/one', { method: 'PUT', auth: admin });
    await s.request('api/v1/repos/alice/one/issues', { method: 'POST', auth: admin, json: { title: 'an issue' } });
    const repos = s.hearth.db.updateTable('repository').where('owner_name', '=', 'alice');
    await repos.set({ num_stars: 42, num_issues: 7, num_closed_issues: 3, num_forks: 2, num_watches: 9 }).where('name', '=', 'one').execute();
    await repos.set({ num_releases: 5 }).where('name', '=', 'two').execute();
    const done = await runAndWait('check_repo_stats');
    expect(done.last?.status).toBe('finished');
    expect(done.last?.message).toMatch(/corrected the counters of 2 repositories: alice\/one \(num_issues 7 -> 1, .*num_stars 42 -> 1/);
    const rows = await s.hearth.db.selectFrom('repository').selectAll().where('owner_name', '=', 'alice').orderBy('id').execute();
    expect(rows.map((r) => [r.name, r.num_stars, r.num_issues, r.num_closed_issues, r.num_forks, r.num_releases])).toEqual([
      ['one', 1, 1, 0, 0, 0], ['two', 0, 0, 0, 0, 0], ['three', 0, 0, 0, 0, 0],
    ]);
    const watchers = await s.hearth.db.selectFrom('watch').select('uid').where('repo_id', '=', rows[0]!.id).execute();
    expect(rows[0]!.num_watches).toBe(watchers.length);
    expect((await runAndWait('check_repo_stats')).last?.message).toBe('every repository counter matches its rows');
  });

  it('repo_health_check names a repository whose objects are broken, and only it', async () => {
    await createRepo(s, alice, 'broken', { auto_init: true });
    const objects = path.join(s.hearth.config.repository.root, 'alice', 'broken.git', 'objects');
    for (const entry of fs.readdirSync(objects)) {
      if (/^[0-9a-f]{2}$/.test(entry) || entry === 'pack') fs.rmSync(path.join(objects, entry), { recursive: true });
    }
    const done = await runAndWait('repo_health_check');
    expect(done.last?.status).toBe('finished');
    expect(done.last?.message).toMatch(/^1 of 4 repositories failed the health check: alice\/broken: /);
    expect(done.last?.message).not.toMatch(/alice\/(one|two|three)/);
    fs.rmSync(path.join(s.hearth.config.repository.root, 'alice', 'broken.git'), { recursive: true });
    expect((await runAndWait('repo_health_check')).last?.message).toMatch(/alice\/broken: the repository directory is missing/);
  });

  it('git_gc_repos collects every repository it finds', async () => {
    await s.hearth.db.deleteFrom('repository').where('name', '=', 'broken').execute();
    const done = await runAndWait('git_gc_repos');
    expect(done.last).toMatchObject({ status: 'finished', message: '3 repositories garbage collected' });
    const one = await s.hearth.db.selectFrom('repository').select('size').where('name', '=', 'one').executeTakeFirstOrThrow();
    expect(one.size).toBeGreaterThan(0);
  });

  it('delete_inactive_accounts deletes accounts never activated, older than older_than', async () => {
    const old = Math.floor(Date.now() / 1000) - 4 * 3600;
    for (const name of ['idle-old', 'idle-new', 'busy-old']) await createUser(s, name);
    // An account that owns a repository stays, as in Gitea.
    await createRepo(s, { username: 'busy-old', password: 'pw-busy-old-secret' }, 'keep');
    const users = s.hearth.db.updateTable('user');
    await users.set({ is_active: 0, created_unix: old }).where('lower_name', 'in', ['idle-old', 'busy-old']).execute();
    await users.set({ is_active: 0 }).where('lower_name', '=', 'idle-new').execute();
    const done = await runAndWait('delete_inactive_accounts');
    expect(done.last).toMatchObject({ status: 'finished' });
    expect(done.last?.message).toMatch(/^deleted 1 inactive accounts; kept busy-old/);
    const left = await s.hearth.db.selectFrom('user').select('lower_name').where('lower_name', 'in', ['idle-old', 'idle-new', 'busy-old']).execute();
    expect(left.map((u) => u.lower_name).sort()).toEqual(['busy-old', 'idle-new']);
  });

  it('cleanup_hook_task_table deletes delivered deliveries older than older_than, or all but the newest per webhook', async () => {
    const db = s.hearth.db;
    const now = Date.now();
    const created = Math.floor(now / 1000);
    const hook = async () => (await db.insertInto('webhook').values({ type: 'gitea', url: 'http://example.com/', created_unix: created, updated_unix: created })
      .returning('id').executeTakeFirstOrThrow()).id;
    const [h1, h2] = [await hook(), await hook()];
    const day = 86_400_000;
    const task = (hookId: number, delivered: boolean, at: number) => ({
      hook_id: hookId, uuid: `u-${Math.random()}`, event: 'push', event_type: 'push', payload_content: '{}',
      is_delivered: delivered ? 1 : 0, delivered_unix: delivered ? at : 0, created_unix: created,
    });
    await db.insertInto('hook_task').values([
      task(h1, true, now - 10 * day), task(h1, false, 0), task(h1, true, now - 2 * day), task(h1, true, now - day),
      task(h1, true, now - 3600_000), task(h2, true, now - 9 * day), task(h2, true, now - 60_000),
    ]).execute();
    const ages = async () => (await db.selectFrom('hook_task').select(['hook_id', 'is_delivered', 'delivered_unix']).orderBy('id').execute())
      .map((r) => [r.hook_id === h1 ? 1 : 2, r.is_delivered ? Math.round((now - r.delivered_unix) / 3600_000) : 'pending']);
    const done = await runAndWait('cleanup_hook_task_table');
    expect(done.last).toMatchObject({ status: 'finished', message: 'deleted 2 webhook deliveries older than 168h' });
    expect(await ages()).toEqual([[1, 'pending'], [1, 48], [1, 24], [1, 1], [2, 0]]);
    const perHook = await cleanupHookTasks(db, { cleanupType: 'PerWebhook', olderThanMs: 0, numberToKeep: 1 });
    expect(perHook).toBe('deleted 2 webhook deliveries, keeping the newest 1 of each webhook');
    expect(await ages()).toEqual([[1, 'pending'], [1, 1], [2, 0]]);
  });

  it('cleanup_hook_task_table does nothing on a database without hook_task', async () => {
    const bare = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    try {
      expect(await cleanupHookTasks(bare, { cleanupType: 'OlderThan', olderThanMs: 1, numberToKeep: 10 }))
        .toBe('no hook_task table: nothing to clean up');
    } finally {
      await bare.destroy();
    }
  });

  it('the tasks without anything to do in hearth say so', async () => {
    for (const [name, why] of [
      ['delete_repo_archives', /keeps none/], ['archive_cleanup', /keeps none/],
      ['deleted_branches_cleanup', /deleted branches/], ['delete_old_system_notices', /system notices/],
      ['resync_all_sshkeys', /no authorized_keys file/], ['resync_all_sshprincipals', /no authorized_principals file/],
      ['delete_generated_repository_avatars', /stores none/], ['update_checker', /does not look for new versions online/],
    ] as const) {
      expect((await runAndWait(name)).last).toMatchObject({ status: 'finished', message: expect.stringMatching(why) });
    }
  });
});
