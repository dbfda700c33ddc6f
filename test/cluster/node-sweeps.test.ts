import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load';
import { closeHearth, openHearth } from '../../src/hearth';
import { joinCluster } from '../../src/services/cluster/node';
import { insertNode } from '../../src/db/postgres/cluster';
import { pidScope } from '../../src/lib/local-process';
import { nodeTmpDir, sweepTmpAtStart } from '../../src/services/cluster/node-tmp';
import { resyncAfterUncleanStop } from '../../src/services/recovery/unclean-stop';
import { STALE_LOCK_MS } from '../../src/git/stale-locks';
import { clusterEnv, freshDatabase } from '../helpers/cluster';
import { quietLog } from '../helpers/database';
import { git, tempDir } from '../helpers/git';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';

// The start's sweeps with several nodes on one data directory (PostgreSQL): a node removes the
// temp directories of nodes that are gone, never a live node's, and only git lock files past
// STALE_LOCK_MS (a live node's push may hold a fresh one).

let server: TempPostgres;
let counter = 0;
beforeAll(() => { if (postgresInstalled) server = startPostgres(); }, 60_000);
afterAll(() => server?.stop());

/** Two nodes over one database and one data directory (a shared file system). */
async function twoNodesOneDir() {
  const url = await freshDatabase(server, `sweeps_${process.pid}_${++counter}`);
  const dataDir = tempDir('hearth-shared-');
  const open = () => openHearth(loadConfig(null, { dataDir }, clusterEnv(url)), quietLog());
  return { dataDir, a: await open(), b: await open() };
}

withPostgres('start-up sweeps per node', () => {
  it("removes a gone node's temp directory and keeps a live node's", async () => {
    const { dataDir, a, b } = await twoNodesOneDir();
    const member = await joinCluster(a);
    try {
      const liveUpload = path.join(nodeTmpDir(a), 'upload-in-flight');
      fs.writeFileSync(liveUpload, 'arriving');
      const liveHandshake = fs.mkdtempSync(path.join(nodeTmpDir(a), 'push-'));
      const gone = path.join(dataDir, 'tmp', 'node-gone-node');
      fs.mkdirSync(path.join(gone, 'push-x'), { recursive: true });

      await sweepTmpAtStart(b);
      expect(fs.existsSync(gone)).toBe(false);
      expect(fs.readFileSync(liveUpload, 'utf8')).toBe('arriving');
      expect(fs.existsSync(liveHandshake)).toBe(true);

      // Once a stops (its row gone), the next start takes its directory too.
      await member.stop();
      await sweepTmpAtStart(b);
      expect(fs.existsSync(path.dirname(liveUpload))).toBe(false);
    } finally {
      await member.stop();
      await closeHearth(a);
      await closeHearth(b);
    }
  });

  it('removes git lock files past STALE_LOCK_MS only while another node is live, every lock older than the process when alone', async () => {
    const { a, b } = await twoNodesOneDir();
    const member = await joinCluster(a);
    try {
      const repo = path.join(a.config.repository.root, 'alice', 'proj.git');
      fs.mkdirSync(path.dirname(repo), { recursive: true });
      await git(path.dirname(repo), 'init', '-q', '--bare', repo);
      fs.mkdirSync(path.join(repo, 'refs', 'heads'), { recursive: true });
      const fresh = path.join(repo, 'refs', 'heads', 'main.lock');
      const old = path.join(repo, 'refs', 'heads', 'old.lock');
      fs.writeFileSync(fresh, '');
      fs.writeFileSync(old, '');
      // Older than this process, younger than STALE_LOCK_MS: a live node's push may hold it.
      const then = (Date.now() - process.uptime() * 1000 - 60_000) / 1000;
      fs.utimesSync(fresh, then, then);
      const stale = (Date.now() - STALE_LOCK_MS - 60_000) / 1000;
      fs.utimesSync(old, stale, stale);

      await resyncAfterUncleanStop(b);
      expect(fs.existsSync(fresh)).toBe(true);
      expect(fs.existsSync(old)).toBe(false);
      // Once a stops, b is alone: no git but its own can hold the fresh one (bug: a single node
      // restarted after a crash kept it, and the branch refused every move for an hour).
      await member.stop();
      await resyncAfterUncleanStop(b);
      expect(fs.existsSync(fresh)).toBe(false);
    } finally {
      await member.stop();
      await closeHearth(a);
      await closeHearth(b);
    }
  });

  it("takes a node that ran on this machine and whose process is gone for dead at once, never a live one's or another machine's", async () => {
    const { a, b } = await twoNodesOneDir();
    try {
      const gonePid = spawnSync('true').pid!; // exited and reaped: nobody has it now
      const here = { host: os.hostname(), pidScope: pidScope() };
      await insertNode(a.db, { id: 'gone-here', ...here, pid: gonePid });
      await insertNode(a.db, { id: 'live-here', ...here, pid: process.ppid });
      await insertNode(a.db, { id: 'gone-elsewhere', host: here.host, pidScope: 'another-boot/pid:[1]', pid: gonePid });
      const job = await a.db.insertInto('job').values({ kind: 'x', payload: '{}', state: 'running', locked_by: 'gone-here', lease_until: Date.now() + 3_600_000, run_at: Date.now(), created_unix: Math.floor(Date.now() / 1000) })
        .returning('id').executeTakeFirstOrThrow();

      const member = await joinCluster(b);
      await member.stop();
      const rows = await a.db.selectFrom('node').select(['id', 'heartbeat']).orderBy('id').execute();
      const beat = Object.fromEntries(rows.map((r) => [r.id, Number(r.heartbeat)]));
      expect(beat['gone-here']).toBe(0);
      expect(beat['live-here']).toBeGreaterThan(0);
      expect(beat['gone-elsewhere']).toBeGreaterThan(0);
      const leased = await a.db.selectFrom('job').select('lease_until').where('id', '=', job.id).executeTakeFirstOrThrow();
      expect(Number(leased.lease_until)).toBe(0);
    } finally {
      await closeHearth(a);
      await closeHearth(b);
    }
  });
});
