import type { DatabaseConnection, Dialect, DatabaseIntrospector, Driver, Kysely } from 'kysely';
import { backgroundError } from '../lib/background-log';

// Work that must wait until a transaction's rows are visible to other connections: the job
// queue's wake-up is the case in point (a worker querying on another pool connection before the
// commit finds nothing, and on PostgreSQL nothing wakes it again until its poll). Kysely has no
// commit callback, so the driver each database opens with is wrapped: hooks registered on a
// transaction's connection run once its COMMIT succeeded and are dropped when it rolls back.

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

/** A hook and what it is called in the log should it fail. */
type Hook = { run: () => unknown; name: string };

const pending = new WeakMap<DatabaseConnection, Hook[]>();
/** Adapters of the dialects wrapped here: a Kysely made elsewhere (a test's bare one) runs hooks at once. */
const hookedAdapters = new WeakSet<object>();

/** `dialect` with commit hooks: what openDatabase and openPostgres build Kysely on. */
export function withCommitHooks(dialect: Dialect): Dialect {
  return {
    createAdapter() {
      const adapter = dialect.createAdapter();
      hookedAdapters.add(adapter);
      return adapter;
    },
    createDriver: () => hookDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db: AnyDb): DatabaseIntrospector => dialect.createIntrospector(db),
  };
}

function hookDriver(d: Driver): Driver {
  return {
    init: () => d.init(),
    acquireConnection: () => d.acquireConnection(),
    releaseConnection: (c) => d.releaseConnection(c),
    destroy: () => d.destroy(),
    beginTransaction(c, settings) {
      pending.delete(c);
      return d.beginTransaction(c, settings);
    },
    async commitTransaction(c) {
      await d.commitTransaction(c);
      const hooks = pending.get(c);
      pending.delete(c);
      for (const hook of hooks ?? []) runHook(hook);
    },
    async rollbackTransaction(c) {
      // A failed COMMIT lands here too: its hooks go with it.
      pending.delete(c);
      await d.rollbackTransaction(c);
    },
    savepoint: d.savepoint?.bind(d),
    rollbackToSavepoint: d.rollbackToSavepoint?.bind(d),
    releaseSavepoint: d.releaseSavepoint?.bind(d),
  };
}

/**
 * A hook's failure must not turn a committed transaction into an error, nor keep the hooks after
 * it from running: it is logged (with the hook's name) and the next one runs. A hook that returns
 * a promise is not awaited (COMMIT is done); its rejection is logged the same way.
 */
function runHook(hook: Hook): void {
  const failed = (err: unknown) => backgroundError({ err, hook: hook.name }, 'a hook run after a commit failed');
  try {
    const result = hook.run();
    if (result instanceof Promise) result.catch(failed);
  } catch (err) {
    failed(err);
  }
}

/**
 * Runs `hook` once `db`'s transaction commits (never if it rolls back), or now when `db` is no
 * transaction: its writes are committed already. A savepoint rolled back keeps the hook (a
 * spurious wake-up is harmless; hooks must be). `name` says which hook failed in the log
 * (default: the function's own name).
 */
export async function afterCommit(db: AnyDb, run: () => unknown, name = run.name || 'anonymous'): Promise<void> {
  const hook: Hook = { run, name };
  const executor = db.getExecutor();
  if (!db.isTransaction || !hookedAdapters.has(executor.adapter)) {
    runHook(hook);
    return;
  }
  // A transaction's executor holds its one connection: the one its COMMIT will name.
  const connection = await executor.provideConnection(async (c) => c);
  const hooks = pending.get(connection);
  if (hooks) hooks.push(hook);
  else pending.set(connection, [hook]);
}
