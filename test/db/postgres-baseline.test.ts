import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BASELINE_FILE, baselineModule, baselineStatements } from '../../scripts/postgres-baseline';
import { migrations, POSTGRES_BASELINE_COVERS } from '../../src/db/migrations';

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
});
