import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withInstanceDatabase } from './helpers/instance-database';
import { processDatabaseEnv, runHearthSync } from './helpers/process';

// `hearth admin advisories import`: OSV files into an existing database, recorded in the audit log.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-osv-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const dataDir = path.join(dir, 'data');

describe('hearth admin advisories import', () => {
  it('imports a directory of OSV files and says what it did', async () => {
    // The instance's database: hearth.db in the data directory, or one of its own in the PostgreSQL pass.
    const onDb = await processDatabaseEnv();
    const hearth = (...args: string[]) => runHearthSync(args, { HEARTH__SERVER__DATA_DIR: dataDir, ...onDb });
    expect(hearth('migrate').code).toBe(0);
    const osv = path.join(dir, 'osv');
    fs.mkdirSync(osv);
    fs.writeFileSync(path.join(osv, 'a.json'), JSON.stringify({
      id: 'GHSA-cli-test', modified: '2024-01-01T00:00:00Z',
      affected: [{ package: { ecosystem: 'crates.io', name: 'serde' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.0.1' }] }] }],
    }));
    const r = hearth('admin', 'advisories', 'import', osv);
    expect(r.err).toBe('');
    expect(r.out).toContain('Read 1 files: 1 advisories (1 new or changed, 0 files skipped)');
    await withInstanceDatabase(dataDir, onDb, async (db) => {
      expect(await db.selectFrom('advisory').select(['osv_id', 'ecosystem', 'package']).execute())
        .toEqual([{ osv_id: 'GHSA-cli-test', ecosystem: 'crates.io', package: 'serde' }]);
      expect(await db.selectFrom('audit_log').select(['operator_name', 'target_name']).where('operation_type', '=', 'admin.advisories.import').execute())
        .toEqual([{ operator_name: 'CLI', target_name: osv }]);
    });
    expect(hearth('admin', 'advisories', 'import', path.join(dir, 'missing')).code).not.toBe(0);
  }, 60_000);
});
