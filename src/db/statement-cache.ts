import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// Kysely's SQLite driver prepares every statement anew: under load that was 14% of the samples
// (better-sqlite3's prepare) beside 16% in Kysely itself. This wrapper keeps the prepared
// statements by SQL text (bounded, least recently used out), so each distinct statement is
// prepared once per process; a statement still being iterated (streamed) is never handed out
// twice. It also counts the statements run, for the tests that keep N+1 queries away.
//
// Rows are read as arrays and shaped into objects by a function made once per statement:
// better-sqlite3 builds each row object property by property through V8's API, which was more
// than half the cost of a 50-issue page (261 -> 115 us for its main query).

export type StatementStats = { executed: number; prepared: number };

const MAX_STATEMENTS = 1000;

type RowMaker = (row: unknown[]) => Record<string, unknown>;
type Cached = { stmt: SQLite.Statement; api: SqliteStatement };

/** A function returning `{col0: r[0], ...}`: objects of one shape, built by compiled code. */
function rowMaker(columns: string[]): RowMaker {
  // Later duplicates win, as in better-sqlite3's own objects (SELECT a.*, b.id).
  const body = columns.map((c, i) => `${JSON.stringify(c)}: r[${i}]`).join(', ');
  return new Function('r', `return {${body}};`) as RowMaker;
}

function shaped(stmt: SQLite.Statement): SqliteStatement {
  if (!stmt.reader) return stmt as unknown as SqliteStatement;
  stmt.raw(true);
  let make = rowMaker(stmt.columns().map((c) => c.name));
  let width = stmt.columns().length;
  // SQLite re-prepares a statement after a schema change; `SELECT *` may then have new columns.
  const fresh = (r: unknown[]) => {
    if (r.length !== width) {
      make = rowMaker(stmt.columns().map((c) => c.name));
      width = r.length;
    }
    return make(r);
  };
  return {
    reader: true,
    all(params) {
      const rows = stmt.all(params) as unknown[][];
      const out = new Array<unknown>(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = fresh(rows[i]!);
      return out;
    },
    run: (params) => stmt.run(params),
    *iterate(params) {
      for (const r of stmt.iterate(params) as IterableIterator<unknown[]>) yield fresh(r);
    },
  };
}

const DDL = /^\s*(?:create|alter|drop)\s/i;

/**
 * SQLite ends a transaction by itself after some errors (a full disk: SQLITE_FULL, an I/O error);
 * Kysely's ROLLBACK then failed with "cannot rollback - no transaction is active", and that error
 * replaced the one that said what happened. A ROLLBACK with nothing to roll back does nothing.
 */
const NOTHING_TO_ROLL_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  *iterate() { /* no rows */ },
};

export function withStatementCache(sqlite: SQLite.Database, stats: StatementStats, max = MAX_STATEMENTS): SqliteDatabase {
  const cache = new Map<string, Cached>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      stats.executed++;
      if (sql === 'rollback' && !sqlite.inTransaction) return NOTHING_TO_ROLL_BACK;
      const hit = cache.get(sql);
      if (hit && !hit.stmt.busy) {
        // Most recently used last: Map keeps insertion order.
        cache.delete(sql);
        cache.set(sql, hit);
        return hit.api;
      }
      stats.prepared++;
      // After a schema change every cached shape may be stale: start over.
      if (DDL.test(sql)) cache.clear();
      const stmt = sqlite.prepare(sql);
      const entry = { stmt, api: shaped(stmt) };
      if (!hit && !DDL.test(sql)) {
        cache.set(sql, entry);
        if (cache.size > max) cache.delete(cache.keys().next().value!);
      }
      return entry.api;
    },
  };
}
