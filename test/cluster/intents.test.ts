import { afterAll, beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { closeHearth, type Hearth } from '../../src/hearth';
import { joinCluster } from '../../src/services/cluster/node';
import { recordIntent } from '../../src/services/recovery/intent';
import { adoptOrphanedIntents, recoverPendingOps } from '../../src/services/recovery/recover';
import { freshDatabase, openNode } from '../helpers/cluster';
import { git, tempDir } from '../helpers/git';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';

// Intents with several nodes on one PostgreSQL: each row names its owner node; a live node
// adopts and recovers the rows of a node whose heartbeat expired, and leaves a live node's alone.

let server: TempPostgres;
let counter = 0;
beforeAll(() => { if (postgresInstalled) server = startPostgres(); }, 60_000);
afterAll(() => server?.stop());

/** A bare repository a 'repo.create' intent at its 'files' step names: the recovery removes it. */
async function halfMadeRepo(h: Hearth, name: string): Promise<{ dir: string; id: number }> {
  const dir = path.join(tempDir(), `${name}.git`);
  await git(path.dirname(dir), 'init', '-q', '--bare', dir);
  const id = await recordIntent(h.db, 'repo.create', { step: 'files', ownerId: 1, ownerName: 'nobody', name, dir });
  return { dir, id };
}

withPostgres('intents on PostgreSQL', () => {
  it("a dead node's intent is adopted and recovered by a live node; a live node's is left alone", async () => {
    const url = await freshDatabase(server, `intents_${process.pid}_${++counter}`);
    const [dead, live, adopter] = [await openNode(url), await openNode(url), await openNode(url)];
    const members = [await joinCluster(dead), await joinCluster(live), await joinCluster(adopter)];
    try {
      for (const h of [dead, live, adopter]) await recoverPendingOps(h); // nothing yet; names each node's intents
      const orphan = await halfMadeRepo(dead, 'orphan');
      const busy = await halfMadeRepo(live, 'busy');
      const owners = await adopter.db.selectFrom('pending_op').select(['id', 'owner']).orderBy('id').execute();
      expect(owners).toEqual([{ id: orphan.id, owner: dead.nodeId }, { id: busy.id, owner: live.nodeId }]);

      // Both nodes live: nothing to adopt.
      expect(await adoptOrphanedIntents(adopter)).toBe(0);
      expect(fs.existsSync(orphan.dir)).toBe(true);

      // The dead node stops beating (killed): its heartbeat is a minute old in database time.
      await members[0]!.stop();
      await adopter.db.insertInto('node').values({ id: dead.nodeId, host: 'gone', pid: 1, started: 0, heartbeat: sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint - 60000` }).execute();
      expect(await adoptOrphanedIntents(adopter)).toBe(1);
      expect(fs.existsSync(orphan.dir)).toBe(false);
      expect(fs.existsSync(busy.dir)).toBe(true);
      const left = await adopter.db.selectFrom('pending_op').select(['id', 'owner']).execute();
      expect(left).toEqual([{ id: busy.id, owner: live.nodeId }]);
      // A second round (or another node's) finds nothing more.
      expect(await adoptOrphanedIntents(adopter)).toBe(0);
    } finally {
      for (const m of members) await m.stop();
      for (const h of [dead, live, adopter]) await closeHearth(h);
    }
  });

  it("a dead node's row goes once, and the node that removed it resyncs the branch rows (as after an unclean stop on SQLite)", async () => {
    const url = await freshDatabase(server, `intents_${process.pid}_${++counter}`);
    const [a, b] = [await openNode(url), await openNode(url)];
    const members = [await joinCluster(a), await joinCluster(b)];
    const resyncs = () => a.db.selectFrom('job').select('id').where('kind', '=', 'recovery.branch-rows').execute();
    try {
      // Live nodes only: nothing removed, nothing resynced.
      expect(await adoptOrphanedIntents(a)).toBe(0);
      expect(await resyncs()).toEqual([]);
      // A node killed a minute ago (its row left behind).
      await a.db.insertInto('node').values({ id: 'killed-node', host: 'gone', pid: 1, started: 0, heartbeat: sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint - 60000` }).execute();
      await Promise.all([adoptOrphanedIntents(a), adoptOrphanedIntents(b)]);
      expect((await a.db.selectFrom('node').select('id').execute()).map((r) => r.id).sort()).toEqual([a.nodeId, b.nodeId].sort());
      expect((await resyncs()).length).toBe(1);
      await adoptOrphanedIntents(b);
      expect((await resyncs()).length).toBe(1);
    } finally {
      for (const m of members) await m.stop();
      for (const h of [a, b]) await closeHearth(h);
    }
  });

  it('a failed recovery stays with its adopter under a lease: another node does not take it meanwhile', async () => {
    const url = await freshDatabase(server, `intents_${process.pid}_${++counter}`);
    const [a, b] = [await openNode(url), await openNode(url)];
    const members = [await joinCluster(a), await joinCluster(b)];
    try {
      // An intent of a kind no recovery knows, owned by no live node: the recovery fails.
      await a.db.insertInto('pending_op').values({ kind: 'unknown', payload: '{}', created_unix: 0, owner: 'gone-node' }).execute();
      expect(await adoptOrphanedIntents(a)).toBe(0);
      const row = await a.db.selectFrom('pending_op').select(['owner', 'lease_until']).executeTakeFirstOrThrow();
      expect(row.owner).toBe(a.nodeId);
      expect(Number(row.lease_until)).toBeGreaterThan(Date.now() + 60_000);
      expect(await adoptOrphanedIntents(b)).toBe(0);
      expect((await b.db.selectFrom('pending_op').select('owner').executeTakeFirstOrThrow()).owner).toBe(a.nodeId);
    } finally {
      for (const m of members) await m.stop();
      for (const h of [a, b]) await closeHearth(h);
    }
  });
});
