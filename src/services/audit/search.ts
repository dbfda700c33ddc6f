import type { DB } from '../../db/connect';
import type { AuditLog } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { auditLogChunks as chunks, searchAuditLogs, type AuditFilter } from '../../models/audit-log';
import { isAuditOperation } from './operations';

function checked(f: AuditFilter): AuditFilter {
  if (f.operationType && !isAuditOperation(f.operationType)) {
    throw new InvalidError(`unknown operation_type "${f.operationType}"`, 'operation_type');
  }
  if (f.startUnix !== undefined && f.endUnix !== undefined && f.startUnix > f.endUnix) {
    throw new InvalidError('start_unix is after end_unix', 'start_unix');
  }
  return f;
}

/** One page of rows, newest first, and how many match. */
export const listAuditLogs = (db: DB, f: AuditFilter, page: { offset: number; limit: number }) =>
  searchAuditLogs(db, checked(f), page);

/** Every matching row, newest first, a chunk at a time (the CSV export). */
export function auditLogChunks(db: DB, f: AuditFilter): AsyncGenerator<AuditLog[]> {
  return chunks(db, checked(f));
}
