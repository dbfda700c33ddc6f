import { createHash } from 'node:crypto';
import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { Database } from '../schema';
import type { StatementStats } from '../statement-cache';
import { trackStatements, type DB } from '../connect';
import { withCommitHooks } from '../commit-hooks';
import { NotFoundError, NulByteError } from '../../lib/errors';
import { connectFailure, describeTarget, type PostgresTarget } from './errors';
import { NamedQuery, type RowShape } from './prepared-query';

// PostgreSQL's connection layer, loaded only when [database] driver = "postgres" (src/db/connect.ts
// reaches it through import(), so a SQLite start never evaluates `pg`). It makes PostgreSQL's rows
// look like SQLite's to the models (counts and ids as numbers) and keeps one prepared statement per
// SQL text and connection, the counterpart of statement-cache.ts.

/**
 * `namedStatements: false` runs every statement unnamed; `describeEachRun: true` has the server
 * describe a named statement's rows on every run, as pg does by itself (bench/postgres-statements.ts
 * measures each against the default).
 */
export type PostgresOptions = { url: string; poolSize: number; namedStatements?: boolean; describeEachRun?: boolean };

const INT8 = 20;
const NUMERIC = 1700;

/**
 * BIGINT ids and COUNT(*) (int8) and SUM() (numeric) arrive as strings from `pg`: as numbers here,
 * as SQLite gives them. A value past 2^53 cannot be a JavaScript number without losing digits, so
 * it stays a string (no id or count of hearth's gets there).
 */
const parseInt8 = (v: string): number | string => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
};
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 && format !== 'binary') return parseInt8;
    if (oid === NUMERIC && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** Opens a pool on `url`, checks that one connection can be made, and returns Kysely on it. */
export async function openPostgres(opts: PostgresOptions): Promise<DB> {
  const target = describeTarget(opts.url);
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize,
    client_encoding: 'UTF8',
    // Unix seconds are computed in JavaScript; UTC keeps any date PostgreSQL renders the same on every node.
    options: [target.options, '-c TimeZone=UTC'].filter(Boolean).join(' '),
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
    types,
  });
  // An idle connection the server closed (a restart, a dropped database) is taken out of the
  // pool by pg-pool; without a listener its 'error' event would end the process.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw connectFailure(err, target);
  }
  const stats: StatementStats = { executed: 0, prepared: 0 };
  const dialect = new PostgresDialect({ pool: withNamedStatements(pool, stats, opts.namedStatements ?? true, opts.describeEachRun ?? false) });
  const db = new Kysely<Database>({ dialect: withCommitHooks(dialect) });
  trackStatements(db, stats);
  return db;
}

export type { PostgresTarget };

// Statements worth preparing: what Kysely compiles for the models. DDL, transaction control and
// multi-statement scripts (the migrations) run unnamed, as before.
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\s/i;
/** Distinct texts named per process; past this a text runs unnamed (PostgreSQL keeps every named one per connection). */
const MAX_NAMED = 2000;
const names = new Map<string, string>();

/** A stable statement name for `text` (the same on every connection), or undefined: run it unnamed. */
function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED || !PREPARABLE.test(text)) return known;
  const name = `h_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
  names.set(text, name);
  return name;
}

/**
 * Parameters the server refuses before the statement runs, which SQLite took: the caller's bad
 * input, told as such rather than as a failure of the server's. A NUL byte in text ("invalid
 * byte sequence for encoding UTF8: 0x00", SQLSTATE 22021) is a 422. A number no integer column
 * holds (NaN, 1.5, 10^23 from an id the route did not check; hearth has no other numeric columns)
 * is refused as a bigint (22P02, 22003) where SQLite matched nothing: a 404. Any other error
 * passes unchanged.
 */
function refusedInput(values: readonly unknown[] | undefined) {
  return (err: unknown): never => {
    const code = (err as { code?: string })?.code;
    if (code === '22021' && /0x00/.test((err as Error).message)) throw new NulByteError();
    const inexact = (v: unknown) => typeof v === 'number' && !Number.isSafeInteger(v);
    if ((code === '22P02' || code === '22003') && values?.some(inexact)) throw new NotFoundError();
    throw err;
  };
}

/**
 * Each client's queries carry a name derived from their text: `pg` parses a named statement once
 * per connection and then only binds and executes it: a lookup by id took 0.46-0.65x the time of
 * the unnamed statement here (bench/postgres-statements.ts on a loaded 2-core machine: 261 -> 121
 * and 191 -> 123 µs). Counts statements as statement-cache.ts does for SQLite.
 * A table altered after a `SELECT *` on it was prepared on a connection would fail that statement
 * ("cached plan must not change result type"): hearth alters tables only in migrations, before
 * anything else runs.
 */
function withNamedStatements(pool: pg.Pool, stats: StatementStats, named: boolean, describeEachRun: boolean): PostgresPool {
  // One wrapper per pg client: Kysely keys its connection objects on the client's identity.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const prepared = new Set<string>();
    const shapes = new Map<string, RowShape>();
    const query = (text: unknown, values?: readonly unknown[]) => {
      if (typeof text !== 'string') return client.query(text as pg.Submittable);
      stats.executed++;
      const name = named ? statementName(text) : undefined;
      if (name === undefined || !prepared.has(name)) stats.prepared++;
      // The text alone: pg copies a config object property by property (~4 µs a statement).
      if (name === undefined) return client.query(text, values as unknown[]).catch(refusedInput(values));
      if (describeEachRun) return client.query({ name, text, values: values as unknown[] }).then((r) => { prepared.add(name); return r; }, refusedInput(values));
      return new Promise<pg.QueryResult>((resolve, reject) => {
        client.query(new NamedQuery(shapes, name, text, (values ?? []) as unknown[], (err, res) => (err ? reject(err) : resolve(res))) as unknown as pg.Submittable);
      }).then((r) => { prepared.add(name); return r; }, refusedInput(values));
    };
    return { query, release: () => client.release() } as unknown as PostgresPoolClient;
  };
  return {
    async connect() {
      const client = await pool.connect();
      let w = wrappers.get(client);
      if (!w) wrappers.set(client, (w = wrap(client)));
      return w;
    },
    end: () => pool.end(),
  };
}
