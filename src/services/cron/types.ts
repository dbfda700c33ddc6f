import type { CronConfig, CronTaskName } from '../../config/schema';
import type { Hearth } from '../../hearth';

/** What a task runs with; `signal` aborts when the scheduler stops (the server closes) or, on PostgreSQL, when this node stops leading cron. */
export type CronContext = Hearth & { signal: AbortSignal };

/** Every key of a task's [cron.<task>] table, filled from its defaults. */
export type CronSettings<N extends CronTaskName> = Required<NonNullable<CronConfig[N]>>;
export type BaseCronSettings = { enabled: boolean; run_at_start: boolean; schedule: string };

export type CronTask<S extends BaseCronSettings = BaseCronSettings> = {
  /** Gitea's defaults for the task's keys. */
  defaults: S;
  /** What differs when nodes share PostgreSQL (the leader alone runs it): over `defaults`, under the configuration. */
  clusterDefaults?: Partial<S>;
  /** Does the work and says what it did: the task's last result. Throws on failure. */
  run(ctx: CronContext, settings: S): Promise<string>;
};

/** The registry: one task per [cron.<task>] table of the configuration. */
export type CronTaskRegistry = { [N in CronTaskName]: CronTask<CronSettings<N> & BaseCronSettings> };

export type CronResult = { status: 'finished' | 'error' | 'cancelled'; message: string; finished: Date; ms: number };

/** One task as listed: schedule "-" when disabled; next is null when not scheduled. */
export type CronRow = {
  name: string;
  schedule: string;
  next: Date | null;
  prev: Date | null;
  execTimes: number;
  running: boolean;
  last: CronResult | null;
};
