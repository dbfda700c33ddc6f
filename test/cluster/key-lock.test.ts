import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeHearth } from '../../src/hearth';
import { openKeyLocks } from '../../src/db/postgres/key-locks';
import { withKeyLock } from '../../src/lib/keyed-lock';
import { joinCluster } from '../../src/services/cluster/node';
import { freshDatabase, openNode } from '../helpers/cluster';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';

// withKeyLock across nodes on PostgreSQL: a key one node holds waits on the other (an advisory
// lock on a small pool of its own), other keys do not; nested holders never run the pool dry;
// a member node's withKeyLock takes the advisory lock.

let server: TempPostgres;
let counter = 0;
beforeAll(() => { if (postgresInstalled) server = startPostgres(); }, 60_000);
afterAll(() => server?.stop());

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fresh = () => freshDatabase(server, `locks_${process.pid}_${++counter}`);

withPostgres('withKeyLock across nodes on PostgreSQL', () => {
  it('makes a second node wait for a key the first holds, and no other key', async () => {
    const url = await fresh();
    const [a, b] = [openKeyLocks(url), openKeyLocks(url)];
    try {
      const events: string[] = [];
      const first = a.withLock('refs:1', async () => { events.push('a in'); await pause(500); events.push('a out'); });
      await pause(100);
      const other = b.withLock('refs:2', async () => { events.push('b other'); });
      const second = b.withLock('refs:1', async () => { events.push('b in'); });
      await Promise.all([first, other, second]);
      expect(events).toEqual(['a in', 'b other', 'a out', 'b in']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lets nested holders reuse their connection: more holders than connections all finish', async () => {
    const url = await fresh();
    const locks = openKeyLocks(url);
    try {
      const done: number[] = [];
      await Promise.all(Array.from({ length: 10 }, (_, i) => locks.withLock(`merge:${i}`, async () => {
        await pause(20);
        await locks.withLock(`refs:${i}`, async () => { await pause(20); done.push(i); });
      })));
      expect(done.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      await locks.close();
    }
  });

  it('takes the advisory lock in a member node\'s withKeyLock, and only while it holds the key', async () => {
    const h = await openNode(await fresh());
    const member = await joinCluster(h);
    const advisory = async () => Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted`.execute(h.db)).rows[0]!.n);
    try {
      expect(await advisory()).toBe(0);
      const inside = await withKeyLock('wiki:7', advisory);
      expect(inside).toBe(1);
      expect(await advisory()).toBe(0);
    } finally {
      await member.stop();
      await closeHearth(h);
    }
    // After the stop the process's withKeyLock is local again.
    expect(await withKeyLock('wiki:7', async () => 'ran')).toBe('ran');
  });
});
