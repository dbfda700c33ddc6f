import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { describeTarget } from './errors';

// withKeyLock's cluster half on PostgreSQL (issue 35): a key held in one process is also held as
// a session advisory lock, so two nodes serialize merges into one repository, its ref updates and
// its wiki writes. The locks live on a small pool of connections of their own (never the models'
// pool: a holder waits for other work of that pool). Nested holders (a ref update inside a merge)
// take their lock on the connection their caller holds: a second connection per level could run
// the pool dry with every outer holder waiting for an inner one.

const POOL_SIZE = 4;

/** A key's advisory lock id: the first 63 bits of its SHA-1 (a collision only serializes two keys). */
export function advisoryKey(key: string): string {
  return (createHash('sha1').update(key).digest().readBigUInt64BE(0) >> 1n).toString();
}

export type KeyLocks = {
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export function openKeyLocks(url: string): KeyLocks {
  const target = describeTarget(url);
  const pool = new pg.Pool({
    connectionString: url, max: POOL_SIZE, client_encoding: 'UTF8', keepAlive: true, connectionTimeoutMillis: 10_000,
    options: [target.options, '-c TimeZone=UTC'].filter(Boolean).join(' '),
  });
  pool.on('error', () => undefined);
  // `live` ends with the outermost holder: work it started that goes on afterwards (a promise
  // left running) carries the context but must not use a connection given back to the pool.
  const holder = new AsyncLocalStorage<{ client: pg.PoolClient; live: boolean }>();
  let closed = false;
  const locked = async <T>(held: { client: pg.PoolClient; live: boolean }, key: string, fn: () => Promise<T>): Promise<T> => {
    const id = advisoryKey(key);
    await held.client.query('SELECT pg_advisory_lock($1::bigint)', [id]);
    try {
      return await holder.run(held, fn);
    } finally {
      await held.client.query('SELECT pg_advisory_unlock($1::bigint)', [id]);
    }
  };
  return {
    async withLock(key, fn) {
      const mine = holder.getStore();
      if (mine?.live) return locked(mine, key, fn);
      // A node stopping: what still runs in this process is serialized by withKeyLock's own queue.
      if (closed) return fn();
      const client = await pool.connect();
      const held = { client, live: true };
      let broken: Error | undefined;
      try {
        return await locked(held, key, fn);
      } catch (err) {
        // A connection that failed mid-lock is not given back: its session may hold a lock still.
        if (!(err as { code?: string })?.code) broken = err as Error;
        throw err;
      } finally {
        held.live = false;
        client.release(broken);
      }
    },
    close: () => {
      closed = true;
      return pool.end();
    },
  };
}
