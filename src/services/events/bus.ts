import type { DB } from '../../db/connect';
import { dialectOf } from '../../db/dialect';
import { backgroundError } from '../../lib/background-log';
import type { DomainEvents } from './types';

// The in-process event bus, in the spirit of Gitea's services/notify notifier list: a service
// commits its change, then emits one domain event; the feed, notifications, pull request
// follow-ups, webhooks (and later mirrors and Actions) subscribe. A failing subscriber is
// logged and never fails the request. Subscribers are registered per database (one per
// server: tests run several in one process); a database nobody subscribed to (a service test)
// emits into the void.

export type EventName = keyof DomainEvents;
export type Subscriber<K extends EventName> = (event: DomainEvents[K]) => Promise<void> | void;
type Any = (event: unknown) => Promise<void> | void;

export type EventBus = {
  on: <K extends EventName>(name: K, label: string, fn: Subscriber<K>) => void;
  /** emit() on the database the bus was made for (the instance's, never a transaction). */
  emit: <K extends EventName>(name: K, event: DomainEvents[K]) => Promise<void>;
};

const buses = new WeakMap<object, Map<EventName, { label: string; fn: Any }[]>>();

/** The bus of a server's database, where its subscribers register (at start). */
export function eventBus(db: DB): EventBus {
  let subs = buses.get(db);
  if (!subs) buses.set(db, (subs = new Map()));
  const table = subs;
  return {
    on(name, label, fn) {
      const list = table.get(name) ?? [];
      list.push({ label, fn: fn as Any });
      table.set(name, list);
    },
    emit: (name, event) => emit(db, name, event),
  };
}

const loaders = new WeakMap<object, () => Promise<void>>();

/** Subscribers that `load` registers: the first event of this database waits for them. */
export function subscribeOnFirstEmit(db: DB, load: () => Promise<void>): void {
  loaders.set(db, load);
}

/**
 * Events whose subscribers (the feed, notifications, webhooks, Actions' triggers) each read and
 * write rows of their own and depend on no other's: on PostgreSQL they run side by side, each on
 * a pool connection of its own, so that a request waits for the longest chain of round trips
 * instead of their sum (an issue create: 5 sequential statements became 2). SQLite, in-process
 * and synchronous, gains nothing from it and keeps registration order.
 */
const SIDE_BY_SIDE: ReadonlySet<EventName> = new Set<EventName>(['issue.opened', 'comment.created']);

async function run(name: EventName, label: string, fn: Any, event: unknown): Promise<void> {
  try {
    await fn(event);
  } catch (err) {
    backgroundError({ err, event: name, subscriber: label }, 'event subscriber failed');
  }
}

/**
 * Tells the subscribers, in registration order, after the change committed (never from inside
 * a transaction: `db` is the server's database). Resolves when all have run; never throws.
 */
export async function emit<K extends EventName>(db: DB, name: K, event: DomainEvents[K]): Promise<void> {
  const load = loaders.get(db);
  if (load) {
    try {
      await load();
      loaders.delete(db);
    } catch (err) {
      backgroundError({ err, event: name }, 'event subscribers could not be loaded');
      return;
    }
  }
  const subs = buses.get(db)?.get(name) ?? [];
  if (subs.length > 1 && SIDE_BY_SIDE.has(name) && dialectOf(db).engine === 'postgres') {
    await Promise.all(subs.map(({ label, fn }) => run(name, label, fn, event)));
    return;
  }
  for (const { label, fn } of subs) await run(name, label, fn, event);
}
