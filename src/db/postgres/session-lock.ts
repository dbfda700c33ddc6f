import type pg from 'pg';
import { openDedicatedClient } from './dedicated';

// A session advisory lock held on a dedicated connection (openDedicatedClient: TCP keepalives):
// held for as long as that connection lives. A node that dies, or whose connection breaks, loses
// it at once on the server's side, where the next taker finds it free.

export type SessionLock = {
  /** Tries to take the lock (connecting first if needed); true while this node holds it. */
  tryTake(): Promise<boolean>;
  held(): boolean;
  /** Releases the lock and closes the connection. */
  close(): Promise<void>;
};

export function sessionLock(url: string, key: number, onLost: (err?: unknown) => void, applicationName?: string): SessionLock {
  let client: pg.Client | null = null;
  let holding = false;
  let closed = false;
  const drop = (err?: unknown) => {
    const was = holding;
    holding = false;
    client = null;
    if (was && !closed) onLost(err);
  };
  return {
    async tryTake() {
      if (closed) return false;
      if (holding) return true;
      if (!client) {
        const c = await openDedicatedClient(url, applicationName);
        c.on('end', () => { if (client === c) drop(); });
        client = c;
      }
      const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
      holding = r.rows[0]?.ok === true;
      return holding;
    },
    held: () => holding,
    async close() {
      closed = true;
      const c = client;
      client = null;
      holding = false;
      // Ending the session releases its advisory locks.
      await c?.end().catch(() => undefined);
    },
  };
}
