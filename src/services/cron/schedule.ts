import type { Logger as CronLogger } from 'node-cron';
import { nodeCron } from '../../lib/lazy-require';
import type { Logger } from '../../lib/logger';
import { parseDuration } from './duration';

/** How a schedule fires: a cron expression, or a fixed interval. */
export type Trigger = { kind: 'cron'; expression: string } | { kind: 'every'; ms: number };

/** A started trigger: when it fires next, and how to stop it for good. */
export type Timer = { next: () => Date | null; stop: () => void };

// robfig/cron's descriptors (behind Gitea's scheduler) as plain cron expressions.
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

// setTimeout takes at most 2^31-1 ms (~24.8 days); longer waits are cut into pieces.
const MAX_TIMEOUT = 2 ** 31 - 1;

/**
 * Gitea's schedule syntax to a trigger. `@every D` needs an interval: cron fields cannot say
 * "every 7h" or "every 72h". Like robfig/cron's Every, D is whole seconds, at least one.
 */
export function toTrigger(schedule: string): Trigger {
  const s = schedule.trim();
  const every = /^@every\s+(\S+)$/.exec(s);
  if (every) return { kind: 'every', ms: Math.max(1000, Math.floor(parseDuration(every[1]!) / 1000) * 1000) };
  const described = DESCRIPTORS[s];
  if (described) return { kind: 'cron', expression: described };
  const fields = s.split(/\s+/);
  if (fields.length === 5 || fields.length === 6) return { kind: 'cron', expression: fields.join(' ') };
  throw new Error(`invalid schedule "${schedule}"`);
}

/** Starts triggers; timers are unref'd: they never keep the process up. */
export type Timers = (trigger: Trigger, fire: () => void) => Timer;

type CalendarUnit = 'hour' | 'day' | 'week' | 'month' | 'year';
// The descriptors' expressions, run without node-cron: it finds a next run through
// Intl.DateTimeFormat, whose first use loads ICU's calendar data (10 ms of every start, and
// memory) for what Date's local-time arithmetic answers exactly.
const CALENDAR: Record<string, CalendarUnit> = {
  '0 * * * *': 'hour', '0 0 * * *': 'day', '0 0 * * 0': 'week', '0 0 1 * *': 'month', '0 0 1 1 *': 'year',
};

/** The first start of an hour, a day, a week (Sunday), a month or a year after `from`, local time. */
export function nextCalendarTime(unit: CalendarUnit, from: Date): Date {
  const d = new Date(from.getTime());
  if (unit === 'hour') d.setMinutes(60, 0, 0);
  else if (unit === 'day') d.setHours(24, 0, 0, 0);
  else if (unit === 'week') d.setHours(24 * (7 - d.getDay()), 0, 0, 0);
  else if (unit === 'month') { d.setMonth(d.getMonth() + 1, 1); d.setHours(0, 0, 0, 0); }
  else { d.setFullYear(d.getFullYear() + 1, 0, 1); d.setHours(0, 0, 0, 0); }
  return d;
}

/** A scheduler's timers: intervals and the descriptors' calendar times natively, the rest through node-cron. */
export function timers(log: Logger): Timers {
  return (trigger, fire) => {
    if (trigger.kind === 'every') return steppedTimer(Date.now() + trigger.ms, () => Date.now() + trigger.ms, fire);
    const unit = CALENDAR[trigger.expression];
    if (unit) {
      const after = () => nextCalendarTime(unit, new Date()).getTime();
      return steppedTimer(after(), after, fire);
    }
    // A run found late (a blocked event loop, a suspended machine) still happens, once, as with
    // Gitea's scheduler; node-cron would otherwise drop a run more than a second late.
    const task = nodeCron().createTask(trigger.expression, () => { fire(); }, {
      unref: true, logger: cronLogger(log), missedExecutionTolerance: Number.POSITIVE_INFINITY,
    });
    void task.start();
    return { next: () => task.getNextRun(), stop: () => { void task.destroy(); } };
  };
}

/**
 * Fires at `first`, then at what `after()` says once a run is done: as robfig/cron, a run found
 * late still happens, once, and the next one counts from it.
 */
function steppedTimer(first: number, after: () => number, fire: () => void): Timer {
  let next = first;
  let handle: NodeJS.Timeout | null = null;
  let stopped = false;
  const arm = () => {
    handle = setTimeout(tick, Math.max(0, Math.min(next - Date.now(), MAX_TIMEOUT)));
    handle.unref();
  };
  const tick = () => {
    if (stopped) return;
    if (Date.now() >= next) {
      next = after();
      fire();
    }
    arm();
  };
  arm();
  return {
    next: () => (stopped ? null : new Date(next)),
    stop: () => {
      stopped = true;
      if (handle) clearTimeout(handle);
    },
  };
}

/** node-cron's own messages (a missed run when the event loop was blocked) go to the log. */
function cronLogger(log: Logger): CronLogger {
  return {
    info: (message) => log.info({ source: 'node-cron' }, message),
    warn: (message) => log.warn({ source: 'node-cron' }, message),
    error: (message, err) => log.error({ source: 'node-cron', err: err ?? message }, String(message)),
    debug: (message) => log.debug({ source: 'node-cron' }, String(message)),
  };
}
