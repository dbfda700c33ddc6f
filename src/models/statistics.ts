import { sql } from 'kysely';
import type { DB } from '../db/connect';

// Gitea's statistics (models/activities/statistic.go): plain row counts. One statement of
// scalar subqueries, each a count over a table or an index, read at scrape time.

const COUNTS = {
  users: 'SELECT count(*) FROM "user" WHERE type = 0',
  organizations: 'SELECT count(*) FROM "user" WHERE type = 1',
  repositories: 'SELECT count(*) FROM repository',
  mirrors: 'SELECT count(*) FROM mirror',
  issues: 'SELECT count(*) FROM issue',
  issues_open: 'SELECT count(*) FROM issue WHERE is_closed = 0',
  issues_closed: 'SELECT count(*) FROM issue WHERE is_closed = 1',
  pulls: 'SELECT count(*) FROM issue WHERE is_pull = 1',
  comments: 'SELECT count(*) FROM comment',
  labels: 'SELECT count(*) FROM label',
  milestones: 'SELECT count(*) FROM milestone',
  releases: 'SELECT count(*) FROM "release"',
  webhooks: 'SELECT count(*) FROM webhook',
  hooktasks: 'SELECT count(*) FROM hook_task',
  stars: 'SELECT count(*) FROM star',
  follows: 'SELECT count(*) FROM follow',
  watches: 'SELECT count(*) FROM watch',
  teams: 'SELECT count(*) FROM team',
  publickeys: 'SELECT count(*) FROM public_key',
  attachments: 'SELECT count(*) FROM attachment',
  oauths: 'SELECT count(*) FROM oauth2_application',
  actions: 'SELECT count(*) FROM action',
  jobs_pending: 'SELECT count(*) FROM job WHERE state = \'pending\'',
  jobs_running: 'SELECT count(*) FROM job WHERE state = \'running\'',
  jobs_failed: 'SELECT count(*) FROM job WHERE state = \'failed\'',
} as const;

export type Statistics = Record<keyof typeof COUNTS, number>;
export const STATISTICS = Object.keys(COUNTS) as (keyof typeof COUNTS)[];

export async function countStatistics(db: DB): Promise<Statistics> {
  // Fixed text above, no input: sql.raw is safe here.
  const select = STATISTICS.map((k) => `(${COUNTS[k]}) AS ${k}`).join(', ');
  const { rows } = await sql<Statistics>`SELECT ${sql.raw(select)}`.execute(db);
  const row = rows[0]!;
  return Object.fromEntries(STATISTICS.map((k) => [k, Number(row[k])])) as Statistics;
}
