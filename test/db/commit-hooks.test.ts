import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBackgroundLogger } from '../../src/lib/background-log';
import type { DB } from '../../src/db/connect';
import { afterCommit } from '../../src/db/commit-hooks';
import { tempDatabase } from '../helpers/database';

// afterCommit on the database hearth opens (SQLite, or PostgreSQL in its pass): a hook waits for
// its transaction's COMMIT, after which another connection sees the rows, and a rollback drops it.

let db: DB;
let close: () => Promise<void>;
beforeEach(async () => { ({ db, close } = await tempDatabase()); });
afterEach(async () => { await close(); });

/** The lines a real pino logger, registered as the background logger, writes from now on. */
function capturedLog(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>); done(); } });
  setBackgroundLogger(pino({ level: 'info' }, sink));
  return lines;
}

const setting = (trx: DB, name: string) => trx.insertInto('topic').values({ name, created_unix: 0, updated_unix: 0 }).execute();
const visible = async (name: string) => Boolean(await db.selectFrom('topic').select('id').where('name', '=', name).executeTakeFirst());

describe('afterCommit', () => {
  it('runs at once outside a transaction', async () => {
    let ran = false;
    await afterCommit(db, () => { ran = true; });
    expect(ran).toBe(true);
  });

  it('runs a transaction\'s hooks after its commit, in the order they were added', async () => {
    const ran: string[] = [];
    let seenInside = false;
    await db.transaction().execute(async (trx) => {
      await setting(trx, 'hooked');
      await afterCommit(trx, () => ran.push('first'));
      await afterCommit(trx, () => ran.push('second'));
      seenInside = ran.length > 0;
    });
    expect(seenInside).toBe(false);
    expect(ran).toEqual(['first', 'second']);
    // When the hooks ran, the commit was done: a query on the pool sees the row.
    expect(await visible('hooked')).toBe(true);
  });

  it('drops the hooks of a transaction that rolls back, for good', async () => {
    const ran: string[] = [];
    await expect(db.transaction().execute(async (trx) => {
      await setting(trx, 'dropped');
      await afterCommit(trx, () => ran.push('dropped'));
      throw new Error('rollback');
    })).rejects.toThrow('rollback');
    // The next transaction (on SQLite the same connection) commits only its own hooks.
    await db.transaction().execute(async (trx) => { await afterCommit(trx, () => ran.push('next')); });
    expect(ran).toEqual(['next']);
    expect(await visible('dropped')).toBe(false);
  });

  it('keeps a committed transaction committed when a hook throws', async () => {
    const log = capturedLog();
    const ran: string[] = [];
    await db.transaction().execute(async (trx) => {
      await setting(trx, 'kept');
      await afterCommit(trx, () => { throw new Error('hook failed'); });
      await afterCommit(trx, () => ran.push('after'));
    });
    expect(ran).toEqual(['after']);
    expect(await visible('kept')).toBe(true);
    expect(log).toHaveLength(1);
  });

  it('logs a failing hook by its name, and still runs the hooks after it', async () => {
    const log = capturedLog();
    const ran: string[] = [];
    await db.transaction().execute(async (trx) => {
      await setting(trx, 'logged');
      await afterCommit(trx, () => { throw new Error('wake-up broke'); }, 'test wake-up');
      await afterCommit(trx, async function rejecting() { throw new Error('async hook broke'); });
      await afterCommit(trx, () => ran.push('last'));
    });
    expect(ran).toEqual(['last']);
    expect(await visible('logged')).toBe(true);
    // The rejected promise is logged once it settles.
    await new Promise((r) => setTimeout(r, 20));
    const failures = log.map((l) => ({ hook: l.hook, msg: l.msg, err: (l.err as { message?: string } | undefined)?.message, level: l.level }));
    expect(failures).toEqual([
      { hook: 'test wake-up', msg: 'a hook run after a commit failed', err: 'wake-up broke', level: 50 },
      { hook: 'rejecting', msg: 'a hook run after a commit failed', err: 'async hook broke', level: 50 },
    ]);
  });

  it('logs a failing hook run at once outside a transaction, without throwing', async () => {
    const log = capturedLog();
    await expect(afterCommit(db, () => { throw new Error('no transaction'); }, 'outside')).resolves.toBeUndefined();
    expect(log.map((l) => [l.hook, (l.err as { message: string }).message])).toEqual([['outside', 'no transaction']]);
  });
});
