import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';

// What SQL hearth writes differently per database engine, in one place: SQLite (the embedded
// default) and PostgreSQL. Models ask `dialectOf(db)` (the engine is a property of the Kysely
// instance, transactions included) and never spell an engine's own function or syntax
// themselves; test/db/raw-sql.test.ts keeps raw SQL elsewhere to what both engines read alike.
// JSON columns are TEXT in both schemas: PostgreSQL casts them to jsonb where it reads into them.

export type Engine = 'sqlite' | 'postgres';

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

export type Dialect = {
  engine: Engine;
  /** A number stored under `key` of a JSON object column (null when absent). */
  jsonNumber(column: string, key: string): RawBuilder<number | null>;
  /** A flag stored under `key` of a JSON object column, `absent` when it is not set. */
  jsonFlag(column: string, key: string, absent: boolean): RawBuilder<SqlBool>;
  /** The JSON array column holds `value` (compared in lower case). */
  jsonArrayHasLower(column: string, value: string): RawBuilder<SqlBool>;
  /** A FROM item of a JSON array column's elements as `alias.value` (text). */
  jsonElements(column: string, alias: string): RawBuilder<unknown>;
  /** The larger of two values. */
  greatest(a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<number>;
  /** The `like` operator that ignores case for ASCII letters (SQLite's LIKE does; PostgreSQL's ILIKE). */
  likeOperator: 'like' | 'ilike';
  /** `column` matched against a LIKE pattern with `\` as its escape, ignoring case. */
  likeInsensitive(column: string, pattern: string): RawBuilder<SqlBool>;
  /** `@name` in `column`, after a space or bracket and not followed by a name character. */
  mentions(column: string, name: string): RawBuilder<SqlBool>;
  /** Issues (`issueId`, alias i) whose title or body contains `keyword` (3 characters or more): the trigram index. */
  issueText(issueId: string, keyword: string): RawBuilder<SqlBool>;
  /** The table exists (tasks that may run before the migration creating it). */
  tableExists(db: AnyDb, name: string): Promise<boolean>;
  /** The table's column names in their order (what `SELECT *` returns). */
  tableColumns(db: AnyDb, name: string): Promise<string[]>;
  /** The error is a unique constraint's refusal. */
  isUniqueViolation(err: unknown): boolean;
  /**
   * Holds the row `id` of `table` until the transaction ends, so that writers recounting its
   * children take turns. SQLite serializes writers already (nothing to run); PostgreSQL's
   * statements each read a fresh snapshot, so a recount after this lock sees every child the
   * previous holder wrote. Call it before the transaction's first write: a child insert takes a
   * key-share lock on its parent, and two of those wanting to turn into this lock deadlock.
   * PostgreSQL takes it FOR NO KEY UPDATE (no locker changes an id): writers still take turns,
   * while the key-share checks of other transactions' child rows pass it (an issue written twice
   * checks its repository's key; with FOR UPDATE, a comment holding its issue waited there on a
   * close holding the repository and waiting for that issue: a deadlock).
   */
  lockRow(db: AnyDb, table: LockedTable, id: number): Promise<void>;
  /**
   * What a new job's INSERT also returns to wake the other nodes' queues (PostgreSQL: a NOTIFY,
   * sent when the transaction commits, in the same statement); null where one process runs them.
   */
  jobsWakeUp(): RawBuilder<unknown> | null;
};

/** The channel of jobs-wake-up notifications (PostgreSQL's LISTEN/NOTIFY). */
export const JOBS_CHANNEL = 'hearth_jobs';

/** The parents whose counters are recounted from their children's rows. */
export type LockedTable = 'repository' | 'issue' | 'milestone' | 'label' | 'user' | 'team';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const sqlite: Dialect = {
  engine: 'sqlite',
  jsonNumber: (column, key) => sql<number | null>`json_extract(${sql.ref(column)}, ${`$.${key}`})`,
  jsonFlag: (column, key, absent) => sql<SqlBool>`COALESCE(json_extract(${sql.ref(column)}, ${`$.${key}`}), ${absent ? 1 : 0}) != 0`,
  jsonArrayHasLower: (column, value) => sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${sql.ref(column)}) WHERE lower(json_each.value) = ${value})`,
  jsonElements: (column, alias) => sql`json_each(${sql.ref(column)}) ${sql.raw(alias)}`,
  greatest: (a, b) => sql<number>`max(${a}, ${b})`,
  likeOperator: 'like',
  likeInsensitive: (column, pattern) => sql<SqlBool>`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`,
  mentions: (column, name) => sql<SqlBool>`(' ' || lower(${sql.ref(column)}) || ' ') GLOB ${`*[ \t\n([]@${name}[^a-z0-9_-]*`}`,
  issueText: (issueId, keyword) => sql<SqlBool>`${sql.ref(issueId)} IN (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ${`"${keyword.replace(/"/g, '""')}"`})`,
  async tableExists(db, name) {
    const r = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${name}`.execute(db);
    return Number(r.rows[0]?.n ?? 0) > 0;
  },
  async tableColumns(db, name) {
    const r = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${name}) ORDER BY cid`.execute(db);
    return r.rows.map((c) => c.name);
  },
  isUniqueViolation: (err) => /UNIQUE constraint failed/.test((err as Error)?.message ?? ''),
  lockRow: async () => {},
  jobsWakeUp: () => null,
};

const postgres: Dialect = {
  engine: 'postgres',
  jsonNumber: (column, key) => sql<number | null>`((${sql.ref(column)})::jsonb ->> ${key})::numeric`,
  jsonFlag: (column, key, absent) => sql<SqlBool>`COALESCE(((${sql.ref(column)})::jsonb ->> ${key})::boolean, ${absent})`,
  jsonArrayHasLower: (column, value) => sql<SqlBool>`EXISTS (SELECT 1 FROM jsonb_array_elements_text((${sql.ref(column)})::jsonb) AS e(value) WHERE lower(e.value) = ${value})`,
  jsonElements: (column, alias) => sql`jsonb_array_elements_text((${sql.ref(column)})::jsonb) AS ${sql.raw(alias)}(value)`,
  greatest: (a, b) => sql<number>`GREATEST(${a}, ${b})`,
  likeOperator: 'ilike',
  likeInsensitive: (column, pattern) => sql<SqlBool>`${sql.ref(column)} ILIKE ${pattern} ESCAPE '\\'`,
  mentions: (column, name) => sql<SqlBool>`(' ' || lower(${sql.ref(column)}) || ' ') ~ ${`[ \t\n(\\[]@${escapeRegex(name)}[^a-z0-9_-]`}`,
  issueText: (issueId, keyword) => {
    const like = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<SqlBool>`${sql.ref(issueId)} IN (SELECT id FROM issue WHERE title ILIKE ${like} ESCAPE '\\' OR content ILIKE ${like} ESCAPE '\\')`;
  },
  async tableExists(db, name) {
    const r = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ${name}`.execute(db);
    return Number(r.rows[0]?.n ?? 0) > 0;
  },
  async tableColumns(db, name) {
    const r = await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${name} ORDER BY ordinal_position`.execute(db);
    return r.rows.map((c) => c.name);
  },
  isUniqueViolation: (err) => (err as { code?: string })?.code === '23505',
  async lockRow(db, table, id) {
    // Outside a transaction the lock would end with its own statement: a caller's mistake.
    if (!db.isTransaction) throw new Error(`lockRow(${table}) outside a transaction holds nothing`);
    await sql`SELECT 1 FROM ${sql.table(table)} WHERE id = ${id} FOR NO KEY UPDATE`.execute(db);
  },
  jobsWakeUp: () => sql`pg_notify(${JOBS_CHANNEL}, '')`,
};

/** The dialect of the engine behind this Kysely instance (or transaction). */
export function dialectOf(db: AnyDb): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgres : sqlite;
}

/** `dialectOf(db).lockRow`: a parent row held until the transaction ends (PostgreSQL only). */
export function lockRow(db: AnyDb, table: LockedTable, id: number): Promise<void> {
  return dialectOf(db).lockRow(db, table, id);
}

type Ids = Iterable<number | null | undefined>;

/**
 * Several rows of one table locked in id order (two transactions wanting the same rows then
 * queue instead of deadlocking). `ids` may be a function: it runs only where locks are taken,
 * so SQLite pays no query to learn which rows a lock would cover.
 */
export async function lockRows(db: AnyDb, table: LockedTable, ids: Ids | (() => Promise<Ids>)): Promise<void> {
  const d = dialectOf(db);
  if (d.engine === 'sqlite') return;
  const list = typeof ids === 'function' ? await ids() : ids;
  const sorted = [...new Set([...list].filter((id): id is number => typeof id === 'number' && id > 0))].sort((a, b) => a - b);
  for (const id of sorted) await d.lockRow(db, table, id);
}

/** `fn` inside the caller's transaction, or in one of its own: where row locks have something to hold. */
export function atomically<T>(db: AnyDb, fn: (trx: AnyDb) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
