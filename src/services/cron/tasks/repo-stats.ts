import { findCounterDrift, recountCounters } from '../../../models/repo-counters';
import type { CronContext } from '../types';

const SHOWN = 20;

/**
 * check_repo_stats: the stored counters of each repository (issues, pulls, stars, forks,
 * watchers, releases) recounted from their rows, and the ones that drifted corrected.
 */
export async function checkRepoStats(ctx: CronContext): Promise<string> {
  const drift = await findCounterDrift(ctx.db);
  if (!drift.length) return 'every repository counter matches its rows';
  await recountCounters(ctx.db, drift.map((d) => d.id));
  const described = drift.map((d) => {
    const changes = d.off.map((c) => `${c.counter} ${c.stored} -> ${c.actual}`).join(', ');
    ctx.log.warn({ repo: `${d.ownerName}/${d.name}`, changes }, 'repository counters corrected');
    return `${d.ownerName}/${d.name} (${changes})`;
  });
  const more = described.length > SHOWN ? `; and ${described.length - SHOWN} more` : '';
  return `corrected the counters of ${drift.length} repositories: ${described.slice(0, SHOWN).join('; ')}${more}`;
}
