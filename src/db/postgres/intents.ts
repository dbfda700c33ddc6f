import { sql } from 'kysely';
import type { DB } from '../connect';
import type { PendingOp } from '../schema';
import { dbNowMs } from './cluster';

// Adopting the intents of dead nodes (issue 35), in database time. Reached through import() from
// the recovery service, so a SQLite start never evaluates it.

/**
 * Claims for `me`, under a lease of `leaseMs`, the rows whose owner has no heartbeat younger than
 * `staleMs` (a dead node, one that is gone, or none) and whose last adopter's lease ran out.
 * SKIP LOCKED: two nodes adopting at once share the rows out, never recover one twice at once.
 */
export function adoptPendingOps(db: DB, me: string, staleMs: number, leaseMs: number): Promise<PendingOp[]> {
  const orphans = db.selectFrom('pending_op as p').select('p.id')
    .where('p.lease_until', '<', dbNowMs)
    // A row without an owner (recorded outside a server's handle) is left its first moments.
    .where((eb) => eb.or([eb('p.owner', '<>', ''), eb(sql<number>`p.created_unix * 1000`, '<', sql<number>`${dbNowMs} - ${staleMs}`)]))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('node as n').select('n.id')
      .whereRef('n.id', '=', 'p.owner').where('n.heartbeat', '>', sql<number>`${dbNowMs} - ${staleMs}`))))
    .orderBy('p.id').forUpdate().skipLocked();
  return db.updateTable('pending_op').set({ owner: me, lease_until: sql<number>`${dbNowMs} + ${leaseMs}` })
    .where('id', 'in', orphans).returningAll().execute();
}
