import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BASELINE_FILE, baselineModule, baselineStatements } from '../../scripts/postgres-baseline';
import { migrations, POSTGRES_BASELINE_COVERS } from '../../src/db/migrations';
import { columnType, defaultValue, expression } from '../../scripts/postgres-baseline-sql';

// PostgreSQL's baseline is generated from SQLite's migrations up to POSTGRES_BASELINE_COVERS, and
// checked in so the executable needs no script. A hand edit of the generated file, or an edit of
// a migration it stands for, fails here until `npx tsx scripts/postgres-baseline.ts` is run again.

describe('PostgreSQL baseline', () => {
  it('is what the generator writes from SQLite\'s migrations now', async () => {
    const expected = await baselineModule();
    expect(fs.readFileSync(BASELINE_FILE, 'utf8'), 'run npx tsx scripts/postgres-baseline.ts').toBe(expected);
  });

  it('stands for a migration that exists, and holds no SQLite-only words', async () => {
    expect(Object.keys(migrations)).toContain(POSTGRES_BASELINE_COVERS);
    const text = (await baselineStatements()).join('\n');
    expect(text).not.toMatch(/AUTOINCREMENT|\bINTEGER\b|\bBLOB\b|fts5|WITHOUT ROWID|CREATE TRIGGER/i);
    expect(text).toContain('USING gin ("title" gin_trgm_ops)');
    expect(text).toContain('USING gin ("content" gin_trgm_ops)');
  });

  it('translates by fixed rules and refuses what no rule covers', () => {
    expect(['INTEGER', 'text', 'BLOB', 'REAL', 'varchar(255)'].map((t) => columnType('t', 'c', t))).toEqual(['BIGINT', 'TEXT', 'BYTEA', 'DOUBLE PRECISION', 'VARCHAR(255)']);
    expect(() => columnType('t', 'c', '')).toThrow(/t\.c/);
    expect(() => columnType('t', 'c', 'DATETIME')).toThrow(/DATETIME/);
    expect(['0', '-1', "''", "'[]'", "'it''s'", '(28800)'].map((v) => defaultValue('t', 'c', v))).toEqual(['0', '-1', "''", "'[]'", "'it''s'", '28800']);
    expect(() => defaultValue('t', 'c', "strftime('%s')")).toThrow(/no rule/);
    expect(expression('ix', "concurrency_group != '' AND issue_id == 0")).toBe(`"concurrency_group" != '' AND "issue_id" = 0`);
    expect(expression('ix', 'ifnull(lower([name]), "index") IS NOT NULL')).toBe('coalesce(lower("name"), "index") IS NOT NULL');
    expect(() => expression('ix', "json_extract(meta, '$.a') > 0")).toThrow(/json_extract/);
    expect(() => expression('ix', "name GLOB 'a*'")).toThrow(/GLOB/);
    expect(() => expression('ix', "name LIKE 'a%'")).toThrow(/LIKE/);
    expect(() => expression('ix', 'a ; b')).toThrow(/cannot read/);
  });
});
