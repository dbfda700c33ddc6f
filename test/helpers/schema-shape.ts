import { sql, type Kysely } from 'kysely';

// A database's schema as engine-neutral lines, so SQLite's and PostgreSQL's can be compared with
// one toEqual: tables, columns (nullability, default present, type class), indexes and foreign
// keys. SQLite's full-text tables and the migrator's own tables are left out: they have no
// counterpart (PostgreSQL's trigram indexes stand for FTS5; each engine's migrator keeps its list).

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

export type SchemaShape = { tables: string[]; columns: string[]; indexes: string[]; foreignKeys: string[] };

const skipped = (table: string) => /^(sqlite_|kysely_|issue_fts)/.test(table);
const unquote = (s: string) => s.replace(/"/g, '');

function typeClass(declared: string): string {
  const t = declared.toLowerCase();
  if (t === 'integer' || t === 'bigint') return 'integer';
  if (t === 'text') return 'text';
  if (t === 'blob' || t === 'bytea') return 'binary';
  if (t === 'real' || t === 'double precision') return 'real';
  if (/^varchar|^character varying/.test(t)) return 'varchar';
  return `unknown:${t}`;
}

const REFERENTIAL: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

export async function sqliteShape(db: AnyDb): Promise<SchemaShape> {
  const all = async <T>(q: string) => (await sql.raw(q).execute(db)).rows as T[];
  const tables = (await all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).map((t) => t.name).filter((t) => !skipped(t));
  const shape: SchemaShape = { tables, columns: [], indexes: [], foreignKeys: [] };
  for (const t of tables) {
    const cols = await all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(`PRAGMA table_info("${t}")`);
    for (const c of cols) {
      // A primary key column is never null in PostgreSQL (nor, in practice, in hearth's SQLite rows).
      shape.columns.push(`${t}.${c.name} ${typeClass(c.type)} ${c.notnull || c.pk ? 'not null' : 'null'}${c.dflt_value === null ? '' : ' default'}`);
    }
    const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    if (pk.length) shape.indexes.push(`${t} primary key (${pk.join(', ')})`);
    for (const ix of await all<{ name: string; unique: number; origin: string; partial: number }>(`PRAGMA index_list("${t}")`)) {
      if (ix.origin === 'pk') continue;
      const keys = (await all<{ name: string | null; key: number }>(`PRAGMA index_xinfo("${ix.name}")`)).filter((k) => k.key).map((k) => k.name ?? 'expr');
      const name = ix.origin === 'u' ? 'unique constraint' : ix.name;
      shape.indexes.push(`${t} ${name}${ix.unique ? ' unique' : ''} (${keys.join(', ')})${ix.partial ? ' partial' : ''}`);
    }
    const fks = await all<{ id: number; table: string; from: string; to: string | null; on_delete: string; on_update: string }>(`PRAGMA foreign_key_list("${t}")`);
    for (const id of [...new Set(fks.map((f) => f.id))]) {
      const parts = fks.filter((f) => f.id === id);
      const to = parts[0].to === null ? (await all<{ name: string; pk: number }>(`PRAGMA table_info("${parts[0].table}")`)).filter((c) => c.pk).map((c) => c.name) : parts.map((f) => f.to);
      shape.foreignKeys.push(`${t} (${parts.map((f) => f.from).join(', ')}) -> ${parts[0].table} (${to.join(', ')}) on delete ${parts[0].on_delete} on update ${parts[0].on_update}`);
    }
  }
  return sorted(shape);
}

export async function postgresShape(db: AnyDb): Promise<SchemaShape> {
  const all = async <T>(q: string) => (await sql.raw(q).execute(db)).rows as T[];
  const tables = (await all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"))
    .map((t) => t.name).filter((t) => !skipped(t));
  const shape: SchemaShape = { tables, columns: [], indexes: [], foreignKeys: [] };
  const cols = await all<{ t: string; name: string; type: string; nullable: string; dflt: string | null; identity: string }>(
    `SELECT table_name AS t, column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt, is_identity AS identity
     FROM information_schema.columns WHERE table_schema = current_schema()`);
  for (const c of cols.filter((x) => !skipped(x.t))) {
    shape.columns.push(`${c.t}.${c.name} ${typeClass(c.type)} ${c.nullable === 'YES' ? 'null' : 'not null'}${c.dflt === null ? '' : ' default'}`);
  }
  const indexes = await all<{ t: string; name: string; unique: boolean; primary: boolean; partial: boolean; constraint: boolean; method: string; keys: string[] }>(
    `SELECT t.relname AS t, i.relname AS name, x.indisunique AS unique, x.indisprimary AS primary, x.indpred IS NOT NULL AS partial,
       EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype = 'u') AS constraint, am.amname AS method,
       ARRAY(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) k ORDER BY k) AS keys
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_am am ON am.oid = i.relam
     WHERE n.nspname = current_schema()`);
  for (const ix of indexes.filter((x) => !skipped(x.t))) {
    const keys = ix.keys.map((k) => (/^"?\w+"?$/.test(k) ? unquote(k) : 'expr'));
    if (ix.primary) shape.indexes.push(`${ix.t} primary key (${keys.join(', ')})`);
    else if (ix.method !== 'btree') shape.indexes.push(`${ix.t} ${ix.name} ${ix.method} (${keys.join(', ')})`);
    else shape.indexes.push(`${ix.t} ${ix.constraint ? 'unique constraint' : ix.name}${ix.unique ? ' unique' : ''} (${keys.join(', ')})${ix.partial ? ' partial' : ''}`);
  }
  const fks = await all<{ t: string; parent: string; del: string; upd: string; from: string[]; to: string[] }>(
    `SELECT c.conrelid::regclass::text AS t, c.confrelid::regclass::text AS parent, c.confdeltype AS del, c.confupdtype AS upd,
       ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS from,
       ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS to
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = current_schema()`);
  for (const f of fks) {
    shape.foreignKeys.push(`${unquote(f.t)} (${f.from.join(', ')}) -> ${unquote(f.parent)} (${f.to.join(', ')}) on delete ${REFERENTIAL[f.del]} on update ${REFERENTIAL[f.upd]}`);
  }
  return sorted(shape);
}

const sorted = (s: SchemaShape): SchemaShape => ({
  tables: [...s.tables].sort(), columns: [...s.columns].sort(), indexes: [...s.indexes].sort(), foreignKeys: [...s.foreignKeys].sort(),
});
