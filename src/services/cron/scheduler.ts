import type { DB } from '../../db/connect';
import type { Hearth } from '../../hearth';
import { claimCronSlot, finishCronRun, lastCronRuns } from '../../models/cron-run';
import { timers, toTrigger, type Timer, type Trigger } from './schedule';
import type { Leadership } from './cluster-cron';
import { CRON_TASKS } from './tasks';
import type { BaseCronSettings, CronResult, CronRow, CronTask } from './types';

export type RunReason = 'schedule' | 'start' | 'manual';
/** What asking for a run did: `running`, `stopped` and `follower` (not the cluster's cron leader) mean it was skipped. */
export type RunOutcome = 'started' | 'running' | 'stopped' | 'follower';

/** `leaderRetryMs`: on PostgreSQL, how often a node that is not the cron leader tries to become it. */
export type SchedulerOptions = { leaderRetryMs?: number };

type Entry = {
  name: string;
  task: CronTask;
  settings: BaseCronSettings;
  timer: Timer | null;
  running: Promise<void> | null;
  execTimes: number;
  prev: Date | null;
  last: CronResult | null;
};

type SchedulerDeps = Hearth;

// The started scheduler of each database, for the admin API (routes reach services by db).
const schedulers = new WeakMap<DB, CronScheduler>();

/**
 * The in-process scheduler, as Gitea's services/cron: each task runs on its schedule and on
 * demand, never alongside itself; every run and its outcome is logged, the last one kept.
 */
export class CronScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly abort = new AbortController();
  private state: 'new' | 'started' | 'stopped' = 'new';
  /** PostgreSQL: the scheduled runs are the cron leader's alone, each slot once (cluster-cron.ts). */
  private clustered = false;
  private leadership: Leadership | null = null;
  private campaigning: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SchedulerDeps, tasks: Record<string, CronTask> = CRON_TASKS, private readonly opts: SchedulerOptions = {}) {
    const configured = deps.config.cron as Record<string, Record<string, unknown> | undefined>;
    for (const [name, task] of Object.entries(tasks)) {
      const overrides = Object.entries(configured[name] ?? {}).filter(([, v]) => v !== undefined);
      const defaults = deps.config.database.driver === 'postgres' ? { ...task.defaults, ...task.clusterDefaults } : task.defaults;
      const settings = { ...defaults, ...Object.fromEntries(overrides) } as BaseCronSettings;
      // A bad schedule fails here, at start, rather than at the first run.
      if (settings.enabled) toTrigger(settings.schedule);
      this.entries.set(name, { name, task, settings, timer: null, running: null, execTimes: 0, prev: null, last: null });
    }
  }

  /** Arms the enabled tasks' schedules, then runs the run_at_start ones once (next turn). */
  start(): void {
    if (this.state !== 'new') return;
    this.state = 'started';
    schedulers.set(this.deps.db, this);
    const startTimer = timers(this.deps.log);
    for (const e of this.entries.values()) {
      if (!e.settings.enabled) continue;
      e.timer = startTimer(toTrigger(e.settings.schedule), () => { this.run(e.name, 'schedule'); });
    }
    // On the next turn of the event loop, not in the start's own: the runs read the database
    // synchronously (better-sqlite3), and a request already waiting is answered first.
    const atStart = [...this.entries.values()].filter((e) => e.settings.enabled && e.settings.run_at_start);
    const runAtStart = () => { for (const e of atStart) this.run(e.name, 'start'); };
    if (this.deps.config.database.driver === 'postgres') {
      this.clustered = true;
      this.campaigning = this.campaign(runAtStart);
    } else if (atStart.length) setImmediate(runAtStart);
  }

  /** Runs for cron leadership; run_at_start tasks run when this node leads a cluster it started alone. */
  private async campaign(runAtStart: () => void): Promise<void> {
    try {
      const { campaign, LEADER_RETRY_MS } = await import('./cluster-cron');
      const leadership = await campaign(this.deps, this.opts.leaderRetryMs ?? LEADER_RETRY_MS, (first) => { if (first) runAtStart(); });
      if (this.state === 'stopped') await leadership.stop();
      else this.leadership = leadership;
    } catch (err) {
      this.deps.log.error({ err }, 'cron leadership could not start: scheduled tasks do not run on this node');
    }
  }

  /** Whether this node runs the scheduled tasks: always on SQLite, the leader's alone on PostgreSQL. */
  isLeader(): boolean {
    return !this.clustered || (this.leadership?.isLeader() ?? false);
  }

  /** Clears every timer, cancels the runs in progress and waits for them to end. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    if (schedulers.get(this.deps.db) === this) schedulers.delete(this.deps.db);
    for (const e of this.entries.values()) {
      e.timer?.stop();
      e.timer = null;
    }
    this.abort.abort();
    await this.idle();
    // Leadership last: another node takes over once this one runs nothing.
    await this.campaigning;
    await this.leadership?.stop();
    this.leadership = null;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Starts a run in the background; undefined for an unknown task. */
  run(name: string, reason: RunReason, by?: string): RunOutcome | undefined {
    const e = this.entries.get(name);
    if (!e) return undefined;
    const log = this.deps.log;
    if (this.state === 'stopped') return 'stopped';
    if (reason === 'schedule' && !this.isLeader()) return 'follower';
    if (e.running) {
      log.info({ task: name, reason, by }, 'cron task still running: this run is skipped');
      return 'running';
    }
    e.execTimes += 1;
    e.prev = new Date();
    e.running = this.execute(e, reason, by).finally(() => { e.running = null; });
    return 'started';
  }

  /** Resolves once no run is in progress (runs started meanwhile included). */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.entries.values()].map((e) => e.running).filter((p) => p !== null);
      if (!running.length) return;
      await Promise.allSettled(running);
    }
  }

  /** Gitea's task table: in registration order, schedule "-" for a disabled task. */
  list(): CronRow[] {
    return [...this.entries.values()].map((e) => ({
      name: e.name,
      schedule: e.settings.enabled ? e.settings.schedule : '-',
      next: e.timer?.next() ?? null,
      prev: e.prev,
      execTimes: e.execTimes,
      running: e.running !== null,
      last: e.last,
    }));
  }

  private async execute(e: Entry, reason: RunReason, by: string | undefined): Promise<void> {
    const log = this.deps.log.child({ task: e.name });
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    log.debug({ reason, by }, 'cron task started');
    const slot = this.clustered ? slotOf(e, reason, this.deps.nodeId) : null;
    if (slot !== null && !(await this.claim(e.name, slot, reason))) {
      log.info({ reason, slot }, 'cron slot already run by another node: skipped');
      return;
    }
    // On PostgreSQL a scheduled run stops too when this node's term as cron leader ends: the next
    // leader runs the schedule now (each slot once: a slot cut short here is not run again). An
    // admin's run goes on where it was asked for, leader or not.
    const term = this.clustered && reason !== 'manual' ? this.leadership?.term() : undefined;
    const signal = term ? AbortSignal.any([this.abort.signal, term]) : this.abort.signal;
    try {
      const message = await e.task.run({ ...this.deps, log, signal }, e.settings);
      e.last = { status: 'finished', message, finished: new Date(), ms: ms() };
      log.info({ reason, by, ms: e.last.ms, outcome: 'finished', result: message }, 'cron task finished');
    } catch (err) {
      const status = signal.aborted ? 'cancelled' : 'error';
      e.last = { status, message: (err as Error)?.message ?? String(err), finished: new Date(), ms: ms() };
      log.error({ reason, by, ms: e.last.ms, outcome: status, err }, `cron task ${status === 'error' ? 'failed' : 'cancelled'}`);
    }
    if (slot !== null && e.last) {
      const { status, message, finished, ms } = e.last;
      await finishCronRun(this.deps.db, e.name, slot, { status, message, finished: finished.getTime(), ms })
        .catch((err: unknown) => log.warn({ err }, 'cron run not recorded'));
    }
  }

  private async claim(task: string, slot: string, reason: RunReason): Promise<boolean> {
    return claimCronSlot(this.deps.db, { task, slot, node: this.deps.nodeId, reason, started: Date.now() });
  }

  /** list() with each task's last run of the cluster (PostgreSQL: whichever node ran it). */
  async listRuns(): Promise<CronRow[]> {
    const rows = this.list();
    if (!this.clustered) return rows;
    const runs = new Map((await lastCronRuns(this.deps.db)).map((r) => [r.task, r]));
    return rows.map((row) => {
      const r = runs.get(row.name);
      if (!r) return row;
      const last = r.status === 'running' ? row.last
        : { status: r.status as NonNullable<CronRow['last']>['status'], message: r.message, finished: new Date(r.finished), ms: r.ms };
      return { ...row, prev: new Date(r.started), running: row.running || r.status === 'running', last };
    });
  }
}

/**
 * The slot a run takes: a scheduled one, its time (the interval's bucket, or the minute of a cron
 * expression), the same on every node; a start or a manual run, one of this node's own.
 */
function slotOf(e: Entry, reason: RunReason, nodeId: string): string {
  const now = Date.now();
  if (reason === 'start') return `start:${nodeId}`;
  if (reason === 'manual') return `manual:${nodeId}:${now}`;
  const trigger: Trigger = toTrigger(e.settings.schedule);
  const step = trigger.kind === 'every' ? trigger.ms : 60_000;
  return new Date(Math.floor(now / step) * step).toISOString();
}

/** Starts the scheduler of a running server; stop() it when the server closes. */
export function startCron(deps: SchedulerDeps, opts: SchedulerOptions = {}): CronScheduler {
  const scheduler = new CronScheduler(deps, CRON_TASKS, opts);
  scheduler.start();
  return scheduler;
}

export function cronOf(db: DB): CronScheduler | undefined {
  return schedulers.get(db);
}
