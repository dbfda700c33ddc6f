import type { DB } from '../../db/connect';
import type { Hearth } from '../../hearth';
import { timers, toTrigger, type Timer } from './schedule';
import { CRON_TASKS } from './tasks';
import type { BaseCronSettings, CronResult, CronRow, CronTask } from './types';

export type RunReason = 'schedule' | 'start' | 'manual';
/** What asking for a run did: `running` and `stopped` mean it was skipped. */
export type RunOutcome = 'started' | 'running' | 'stopped';

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

  constructor(private readonly deps: SchedulerDeps, tasks: Record<string, CronTask> = CRON_TASKS) {
    const configured = deps.config.cron as Record<string, Record<string, unknown> | undefined>;
    for (const [name, task] of Object.entries(tasks)) {
      const overrides = Object.entries(configured[name] ?? {}).filter(([, v]) => v !== undefined);
      const settings = { ...task.defaults, ...Object.fromEntries(overrides) } as BaseCronSettings;
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
    if (atStart.length) setImmediate(() => { for (const e of atStart) this.run(e.name, 'start'); });
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
    try {
      const message = await e.task.run({ ...this.deps, log, signal: this.abort.signal }, e.settings);
      e.last = { status: 'finished', message, finished: new Date(), ms: ms() };
      log.info({ reason, by, ms: e.last.ms, outcome: 'finished', result: message }, 'cron task finished');
    } catch (err) {
      const status = this.abort.signal.aborted ? 'cancelled' : 'error';
      e.last = { status, message: (err as Error)?.message ?? String(err), finished: new Date(), ms: ms() };
      log.error({ reason, by, ms: e.last.ms, outcome: status, err }, `cron task ${status === 'error' ? 'failed' : 'cancelled'}`);
    }
  }
}

/** Starts the scheduler of a running server; stop() it when the server closes. */
export function startCron(deps: SchedulerDeps): CronScheduler {
  const scheduler = new CronScheduler(deps);
  scheduler.start();
  return scheduler;
}

export function cronOf(db: DB): CronScheduler | undefined {
  return schedulers.get(db);
}
