import type { Insertable, Kysely, SelectQueryBuilder } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';
import type { AuditLog, AuditLogTable, Database } from '../db/schema';
import { likeContaining } from '../lib/like';

export type AuditFilter = {
  /** Part of the operator's name (case-insensitive). */
  q?: string;
  operatorId?: number;
  operationType?: string;
  startUnix?: number;
  endUnix?: number;
  /** Part of the target's name (case-insensitive): the admin page's filter. */
  target?: string;
};

type Query = SelectQueryBuilder<Database, 'audit_log', object>;

function filtered(db: Kysely<Database>, f: AuditFilter): Query {
  let q: Query = db.selectFrom('audit_log');
  if (f.q) q = q.where(dialectOf(db).likeInsensitive('operator_name', likeContaining(f.q)));
  if (f.operatorId !== undefined) q = q.where('operator_id', '=', f.operatorId);
  if (f.operationType) q = q.where('operation_type', '=', f.operationType);
  if (f.startUnix !== undefined) q = q.where('created_unix', '>=', f.startUnix);
  if (f.endUnix !== undefined) q = q.where('created_unix', '<=', f.endUnix);
  if (f.target) q = q.where(dialectOf(db).likeInsensitive('target_name', likeContaining(f.target)));
  return q;
}

export async function insertAuditLog(db: Kysely<Database>, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

/** Newest first. */
export async function searchAuditLogs(db: DB, f: AuditFilter, page: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    filtered(db, f).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    filtered(db, f).select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Every matching row, newest first, in chunks read by id (keyset): memory stays flat however
 * many rows match, and no statement stays open between chunks. A single better-sqlite3
 * iterate() over the whole export would hold Kysely's one connection for the whole download,
 * and every other request would wait behind it. Chunks, not rows: a yield per row cost more
 * than the query itself (bench/audit).
 */
export async function* auditLogChunks(db: DB, f: AuditFilter, chunk = 5000): AsyncGenerator<AuditLog[]> {
  let before = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = await filtered(db, f).selectAll().where('id', '<', before).orderBy('id', 'desc').limit(chunk).execute();
    if (rows.length) yield rows;
    if (rows.length < chunk) return;
    before = rows[rows.length - 1]!.id;
  }
}

/** Deletes rows created before `unix`; returns how many. */
export async function deleteAuditLogsBefore(db: DB, unix: number): Promise<number> {
  const r = await db.deleteFrom('audit_log').where('created_unix', '<', unix).executeTakeFirst();
  return Number(r.numDeletedRows);
}
