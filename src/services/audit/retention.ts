import type { DB } from '../../db/connect';
import { nowUnix } from '../../lib/time';
import { deleteAuditLogsBefore } from '../../models/audit-log';

/** The cleanup_audit_logs cron task: rows older than [audit] retention_days go; 0 keeps all. */
export async function cleanupAuditLogs(db: DB, retentionDays: number): Promise<string> {
  if (retentionDays <= 0) return 'audit retention_days is 0: every row is kept';
  const deleted = await deleteAuditLogsBefore(db, nowUnix() - retentionDays * 86_400);
  return `deleted ${deleted} audit log rows older than ${retentionDays} days`;
}
