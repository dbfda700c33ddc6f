import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import type { Hearth } from '../../hearth';
import { clusterNodes, type NodeView } from '../cluster/node';
import { maskUrlPassword } from '../../lib/url-password';
import { serverVersion } from '../../lib/version';
import { countStatistics, type Statistics } from '../../models/statistics';
import { listCronTasks } from '../cron/cron-admin';
import type { CronRow } from '../cron/types';
import { adminSearchUsers, assertSiteAdmin } from '../user/admin-users';
import { searchEmails } from '../user/emails';

// What the site administration's dashboard shows: the version, how long the process has run,
// Gitea's statistics (the same counts the metrics endpoint serves), the cron task table and, on
// PostgreSQL, the cluster's nodes.

export type Dashboard = { version: string; uptimeSeconds: number; stats: Statistics; cron: CronRow[]; nodes: NodeView[] | null };

export async function adminDashboard(h: Hearth, doer: User | null): Promise<Dashboard> {
  assertSiteAdmin(doer);
  const [stats, cron, nodes] = await Promise.all([countStatistics(h.db), listCronTasks(h.db), clusterNodes(h)]);
  return { version: serverVersion(), uptimeSeconds: Math.floor(process.uptime()), stats, cron, nodes };
}

/** The admin users list: every individual account, the keyword over names and e-mail addresses. */
export function adminUserList(db: DB, doer: User | null, keyword: string, page: { offset: number; limit: number }) {
  assertSiteAdmin(doer);
  return adminSearchUsers(db, page, { keyword: keyword || undefined, byEmail: { viewerId: doer!.id, admin: true } });
}

const SECRET_KEY = /secret|passw|token|key$|_key|credential|dsn|private/i;

/** The configuration as dotted key = value rows, every value of a secret-looking key and every URL's password masked. */
export function configSummary(config: object, doer: User | null): { key: string; value: string }[] {
  assertSiteAdmin(doer);
  const rows: { key: string; value: string }[] = [];
  const walk = (node: unknown, prefix: string, masked: boolean): void => {
    if (node && typeof node === 'object' && !Array.isArray(node)) {
      for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k, masked || SECRET_KEY.test(k));
      return;
    }
    const shown = Array.isArray(node) ? node.join(', ') : String(node ?? '');
    // A URL keeps its host and database in view, not its password (database.url).
    rows.push({ key: prefix, value: masked && shown !== '' ? '******' : maskUrlPassword(shown) });
  };
  walk(config, '', false);
  return rows;
}

/** Every account's e-mail addresses (GET /admin/emails/search), the keyword over address and names. */
export function adminEmailList(db: DB, doer: User | null, keyword: string, page: { offset: number; limit: number }) {
  assertSiteAdmin(doer);
  return searchEmails(db, { keyword: keyword || undefined, ...page });
}
