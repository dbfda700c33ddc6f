import type { Gauge } from 'prom-client';
import { promClient } from '../../lib/lazy-require';
import type { DB } from '../../db/connect';
import { countStatistics, STATISTICS, type Statistics } from '../../models/statistics';
import { sharedRegistry } from './registry';

// Gitea's gauges keep Gitea's names (gitea_users, gitea_repositories, ...) so its dashboards
// work unchanged; what Gitea does not count is named hearth_*.

type Key = keyof Statistics;
const HEARTH_ONLY: Partial<Record<Key, string>> = { pulls: 'hearth_pulls' };
const JOB_STATES = { jobs_pending: 'pending', jobs_running: 'running', jobs_failed: 'failed' } as const;

const help = (k: string) => `Number of ${k.replace(/_/g, ' ')}`;

/** The per-app registry of database gauges; `scrape` renders it with the shared instruments. */
export function metricsScraper(db: DB): { scrape: () => Promise<string>; contentType: string } {
  const { Gauge, Registry } = promClient();
  const shared = sharedRegistry();
  const own = new Registry();
  const gauges = new Map<Key, Gauge>();
  for (const k of STATISTICS) {
    if (k in JOB_STATES) continue;
    const name = HEARTH_ONLY[k] ?? `gitea_${k}`;
    gauges.set(k, new Gauge({ name, help: help(k), registers: [own] }));
  }
  const jobs = new Gauge({ name: 'hearth_jobs_queued', help: 'Background jobs in the queue by state', labelNames: ['state'] as const, registers: [own] });
  return {
    contentType: own.contentType,
    scrape: async () => {
      const stats = await countStatistics(db);
      for (const [k, g] of gauges) g.set(stats[k]);
      for (const [k, state] of Object.entries(JOB_STATES)) jobs.set({ state }, stats[k as Key]);
      return `${await own.metrics()}\n${await shared.metrics()}`;
    },
  };
}
