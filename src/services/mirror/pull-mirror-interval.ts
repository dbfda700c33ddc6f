import type { Config } from '../../config/schema';
import { InvalidError } from '../../lib/errors';
import { parseDuration } from '../cron/duration';

// A pull mirror's interval, as Gitea reads mirror_interval: a Go duration; "0" (or "0s")
// turns scheduled syncs off; anything else below [mirror] MIN_INTERVAL is refused.

/** Seconds between scheduled syncs for `text` (empty: the default interval); 422 when invalid. */
export function parseMirrorInterval(config: Config, text: string | undefined): number {
  const raw = text?.trim() || config.mirror.default_interval;
  let ms: number;
  try {
    ms = parseDuration(raw);
  } catch {
    throw new InvalidError(`[mirror_interval]: invalid duration "${raw}"`, 'mirror_interval');
  }
  if (ms === 0) return 0;
  const min = parseDuration(config.mirror.min_interval);
  if (ms < min) {
    throw new InvalidError(`invalid mirror interval: ${raw} is below minimum interval of ${config.mirror.min_interval}`, 'mirror_interval');
  }
  return Math.round(ms / 1000);
}

/** When a mirror with this interval syncs next (0: never on schedule). */
export const nextUpdateAt = (now: number, intervalSeconds: number): number => (intervalSeconds > 0 ? now + intervalSeconds : 0);
