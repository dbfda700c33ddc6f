import { sql, type Kysely } from 'kysely';
import { migrate, type DB } from '../connect';

// `hearth admin db copy`: an instance's SQLite database moved into an empty PostgreSQL one.
// The target is migrated to the same schema, then every table is copied in foreign-key order,
// 1,000 rows an INSERT, all in one transaction (a failure leaves the target migrated and empty,
// ready for another try); identities are then moved past the copied ids. Loaded only by the
// command, never by a server's start.

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

/** SQLite's full-text index and its shadow tables: PostgreSQL's trigram indexes build themselves. */
const SQLITE_ONLY = /^issue_fts(_(data|idx|content|docsize|config))?$/;
const MIGRATIONS = /^kysely_migration/;
const BATCH = 1000;
// PostgreSQL's limit of parameters in one statement.
const MAX_PARAMS = 65_535;

export class CopyRefusedError extends Error {}


export type CopyResult = { tables: { name: string; rows: number }[]; skipped: string[] };

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The target's tables that hold at least one row (its migration bookkeeping aside). */
async function tablesWithRows(target: AnyDb): Promise<string[]> {
  const tables = (await target.introspection.getTables()).map((t) => t.name).filter((n) => !MIGRATIONS.test(n));
  const held: string[] = [];
  for (const name of tables) {
    if (await target.selectFrom(name).select(sql`1`.as('x')).limit(1).executeTakeFirst()) held.push(name);
  }
  return held;
}

/** Parents before children, from the target's foreign keys; a table that refers to itself keeps its id order. */
async function foreignKeyOrder(target: AnyDb, names: string[]): Promise<string[]> {
  const { rows } = await sql<{ child: string; parent: string }>`SELECT cl.relname AS child, pl.relname AS parent
    FROM pg_constraint k JOIN pg_class cl ON cl.oid = k.conrelid JOIN pg_class pl ON pl.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = cl.relnamespace
    WHERE k.contype = 'f' AND n.nspname = current_schema()`.execute(target);
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const r of rows) if (r.child !== r.parent && parents.has(r.parent)) parents.get(r.child)?.add(r.parent);
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < names.length) {
    const ready = names.filter((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p)));
    // A cycle between tables: copied as they come, and the foreign keys will say if it matters.
    const next = ready.length ? ready : names.filter((n) => !placed.has(n)).slice(0, 1);
    for (const n of next) { placed.add(n); order.push(n); }
  }
  return order;
}

const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);

/**
 * What PostgreSQL would refuse in a row SQLite took: text with a NUL byte, or a value that is no
 * integer in an integer column (SQLite's type affinity keeps text there). Told as one line
 * naming the table, the row and the column, instead of the server's error for a whole batch.
 */
function checkRow(table: string, row: Record<string, unknown>, columns: string[], integers: ReadonlySet<string>): void {
  for (const c of columns) {
    const v = row[c];
    let why: string | undefined;
    if (typeof v === 'string' && v.includes('\0')) why = 'holds text with a NUL byte (\\u0000), which PostgreSQL cannot store';
    else if (integers.has(c) && v !== null && typeof v !== 'bigint' && !Number.isInteger(v)) {
      why = `holds ${JSON.stringify(typeof v === 'string' ? v.slice(0, 40) : String(v))} where PostgreSQL's column is an integer`;
    }
    if (why) {
      const id = row.id !== undefined ? ` (id ${String(row.id)})` : '';
      throw new CopyRefusedError(`table ${table}, row ${String(row.__rowid)}${id}: column ${c} ${why}; correct or remove it in the SQLite database, then copy again`);
    }
  }
}

/** One table's rows, read by rowid a page at a time and written a batch per INSERT. */
async function copyTable(source: DB, trx: AnyDb, table: string, columns: string[], integers: ReadonlySet<string>): Promise<number> {
  const per = Math.max(1, Math.min(BATCH, Math.floor(MAX_PARAMS / columns.length)));
  const list = sql.join(columns.map((c) => sql.ref(c)));
  let after = Number.MIN_SAFE_INTEGER;
  let copied = 0;
  for (;;) {
    const { rows } = await sql<Record<string, unknown>>`SELECT rowid AS "__rowid", ${list} FROM ${sql.table(table)}
      WHERE rowid > ${after} ORDER BY rowid LIMIT ${per}`.execute(source);
    if (!rows.length) return copied;
    after = Number(rows[rows.length - 1]!.__rowid);
    for (const r of rows) checkRow(table, r, columns, integers);
    const values = rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])));
    await trx.insertInto(table).values(values).execute();
    copied += rows.length;
  }
}

/** Each identity (or serial) `id` continues past the largest copied id. */
async function advanceIdentities(trx: AnyDb, tables: { name: string; columns: string[] }[]): Promise<void> {
  for (const t of tables.filter((x) => x.columns.includes('id'))) {
    const { rows } = await sql<{ seq: string | null }>`SELECT pg_get_serial_sequence(${quoted(t.name)}, 'id') AS seq`.execute(trx);
    const seq = rows[0]?.seq;
    if (!seq) continue;
    await sql`SELECT setval(${seq}, COALESCE(MAX(id), 0) + 1, false) FROM ${sql.table(t.name)}`.execute(trx);
  }
}

/**
 * Copies `source` (SQLite, up to date, not in use) into `target` (PostgreSQL, empty). Refuses a
 * target holding rows; `progress` hears each table as it is done.
 */
export async function copyDatabase(source: DB, target: AnyDb, progress: (line: string) => void = () => {}): Promise<CopyResult> {
  const held = await tablesWithRows(target);
  if (held.length) {
    throw new CopyRefusedError(`the target database already holds rows (${held.slice(0, 3).join(', ')}${held.length > 3 ? ', ...' : ''}): db copy fills an empty database only`);
  }
  await migrate(target as DB);
  const introspected = await target.introspection.getTables();
  const targetTables = new Map(introspected.map((t) => [t.name, t.columns.map((c) => c.name)]));
  const integerColumns = new Map(introspected.map((t) => [t.name, new Set(t.columns.filter((c) => INTEGER_TYPES.has(c.dataType)).map((c) => c.name))]));
  const sourceTables = (await source.introspection.getTables()).filter((t) => !t.isView && !MIGRATIONS.test(t.name) && !t.name.startsWith('sqlite_'));
  const skipped = sourceTables.filter((t) => SQLITE_ONLY.test(t.name)).map((t) => t.name);
  const copied = sourceTables.filter((t) => !SQLITE_ONLY.test(t.name));
  const missing = copied.filter((t) => !targetTables.has(t.name)).map((t) => t.name);
  if (missing.length) throw new CopyRefusedError(`PostgreSQL's schema has no table ${missing.join(', ')}: is this hearth older than the database?`);
  const plan = copied.map((t) => {
    const columns = targetTables.get(t.name)!;
    const absent = t.columns.map((c) => c.name).filter((c) => !columns.includes(c));
    if (absent.length) throw new CopyRefusedError(`PostgreSQL's table ${t.name} has no column ${absent.join(', ')}`);
    return { name: t.name, columns: t.columns.map((c) => c.name) };
  });
  const byName = new Map(plan.map((p) => [p.name, p]));
  const order = await foreignKeyOrder(target, plan.map((p) => p.name));
  const tables = await target.transaction().execute(async (trx) => {
    const done: CopyResult['tables'] = [];
    for (const name of order) {
      const rows = await copyTable(source, trx, name, byName.get(name)!.columns, integerColumns.get(name)!);
      done.push({ name, rows });
      progress(`${name}: ${rows} rows`);
    }
    await advanceIdentities(trx, plan);
    return done;
  });
  return { tables, skipped };
}
