import type { Logger as CronLogger } from 'node-cron';
import type { Logger } from '../../lib/logger';
import { parseDuration } from './duration';

// Required, not imported: an import makes the bundler take node-cron's ESM build, whose
// import.meta.url is empty in the CommonJS executable and throws as it loads.
type NodeCron = typeof import('node-cron');
let nodeCron: NodeCron | null = null;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const cron = (): NodeCron => (nodeCron ??= require('node-cron') as NodeCron);

/** How a schedule fires: a cron expression node-cron runs, or a fixed interval. */
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

/** Starts calling `fire` on the trigger; timers are unref'd: they never keep the process up. */
export function startTimer(trigger: Trigger, fire: () => void, log: Logger): Timer {
  if (trigger.kind === 'every') return everyTimer(trigger.ms, fire);
  // A run found late (a blocked event loop, a suspended machine) still happens, once, as with
  // Gitea's scheduler; node-cron would otherwise drop a run more than a second late.
  const task = cron().createTask(trigger.expression, () => { fire(); }, {
    unref: true, logger: cronLogger(log), missedExecutionTolerance: Number.POSITIVE_INFINITY,
  });
  void task.start();
  return { next: () => task.getNextRun(), stop: () => { void task.destroy(); } };
}

function everyTimer(ms: number, fire: () => void): Timer {
  let next = Date.now() + ms;
  let handle: NodeJS.Timeout | null = null;
  let stopped = false;
  const arm = () => {
    handle = setTimeout(tick, Math.max(0, Math.min(next - Date.now(), MAX_TIMEOUT)));
    handle.unref();
  };
  const tick = () => {
    if (stopped) return;
    if (Date.now() >= next) {
      // As robfig/cron's ConstantDelaySchedule: the next run counts from this one.
      next = Date.now() + ms;
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
