// A long command (dump, restore) stopped with Ctrl-C or SIGTERM undoes what it started (the
// partial archive, the database copy, a half-restored data directory) instead of Node's default
// leaving them behind; a second signal exits at once.

import { onStopSignals } from './signals';

/** What the signal aborts with: `interrupted (SIGINT)`. */
export class Interrupted extends Error {}

/** An AbortSignal that SIGINT/SIGTERM abort while `fn` runs. */
export async function interruptible<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const remove = onStopSignals((name) => ac.abort(new Interrupted(`interrupted (${name})`)), 130);
  try {
    return await fn(ac.signal);
  } finally {
    remove();
  }
}
