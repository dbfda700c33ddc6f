import type { AuditLog } from '../db/schema';
import { isoTime } from '../lib/time';

/**
 * The AuditLog record of the seed, flat, as GET /admin/audit-logs lists it: `extra` is the JSON
 * text it is stored as, `operation_time` the instant of the operation.
 */
export const toApiAuditLog = (r: AuditLog) => ({
  id: r.id,
  operation_type: r.operation_type,
  operation_time: isoTime(r.created_unix),
  operator_id: r.operator_id,
  operator_name: r.operator_name,
  target_type: r.target_type,
  target_id: r.target_id,
  target_name: r.target_name,
  owner_id: r.owner_id,
  owner_name: r.owner_name,
  repo_id: r.repo_id,
  repo_name: r.repo_name,
  ip_address: r.ip_address,
  message: r.message,
  extra: r.extra,
});

/** The columns of the CSV export, in order: the record's names. */
export const AUDIT_CSV_COLUMNS = [
  'id', 'operation_time', 'operation_type', 'operator_id', 'operator_name', 'target_type', 'target_id', 'target_name',
  'owner_id', 'owner_name', 'repo_id', 'repo_name', 'ip_address', 'message', 'extra',
] as const;

/**
 * One CSV line's cells; extra stays the JSON text it is stored as. Times in UTC: the server's
 * offset formatting (isoTime) was a fifth of an export's time, and a spreadsheet reads either.
 */
export const toAuditCsvRow = (r: AuditLog): unknown[] => [
  r.id, new Date(r.created_unix * 1000).toISOString().replace('.000Z', 'Z'), r.operation_type, r.operator_id, r.operator_name, r.target_type, r.target_id,
  r.target_name, r.owner_id, r.owner_name, r.repo_id, r.repo_name, r.ip_address, r.message, r.extra,
];
