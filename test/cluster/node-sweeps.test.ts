import { afterAll, beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/load';
import { closeHearth, openHearth } from '../../src/hearth';
import { joinCluster } from '../../src/services/cluster/node';
import { nodeTmpDir, sweepTmpAtStart } from '../../src/services/cluster/node-tmp';
import { removeDebrisLocks } from '../../src/services/recovery/unclean-stop';
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

  it('removes git lock files past STALE_LOCK_MS only, whatever the age of the process', async () => {
    const { a, b } = await twoNodesOneDir();
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

      expect(removeDebrisLocks(b)).toEqual([old]);
      expect(fs.existsSync(fresh)).toBe(true);
      expect(fs.existsSync(old)).toBe(false);
    } finally {
      await closeHearth(a);
      await closeHearth(b);
    }
  });
});
