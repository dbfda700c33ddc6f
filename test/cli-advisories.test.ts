import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { hearthCommand } from './helpers/process';

// `hearth admin advisories import`: OSV files into an existing database, recorded in the audit log.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-osv-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const hearth = (...args: string[]) => {
  const [cmd, argv] = hearthCommand(args);
  const r = spawnSync(cmd, argv, {
    encoding: 'utf8', env: { ...process.env, HEARTH__SERVER__DATA_DIR: path.join(dir, 'data'), HEARTH__LOG__LEVEL: 'warn' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('hearth admin advisories import', () => {
  it('imports a directory of OSV files and says what it did', () => {
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
    const db = new Database(path.join(dir, 'data', 'hearth.db'), { readonly: true });
    expect(db.prepare('SELECT osv_id, ecosystem, package FROM advisory').all()).toEqual([{ osv_id: 'GHSA-cli-test', ecosystem: 'crates.io', package: 'serde' }]);
    expect(db.prepare("SELECT operator_name, target_name FROM audit_log WHERE operation_type = 'admin.advisories.import'").all())
      .toEqual([{ operator_name: 'CLI', target_name: osv }]);
    db.close();
    expect(hearth('admin', 'advisories', 'import', path.join(dir, 'missing')).code).not.toBe(0);
  }, 60_000);
});
