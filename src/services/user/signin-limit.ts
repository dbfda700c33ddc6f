import type { DB } from '../../db/connect';
import { TooManyRequestsError } from '../../lib/errors';

// Slows password guessing without locking the owner out. Per client address: 10 failures in
// 5 minutes refuse every further sign-in from it (429) until the oldest failure leaves the
// window. Per user name: past 20 failures in 15 minutes each attempt waits a second first, from
// any address, so a distributed guesser gains nothing while the owner still signs in.
// Counted in memory (one server process): the checks sit on every Basic-authenticated request.

const ADDRESS_WINDOW_MS = 5 * 60_000;
const ADDRESS_MAX = 10;
const NAME_WINDOW_MS = 15 * 60_000;
const NAME_FREE = 20;
const NAME_DELAY_MS = 1000;
const MAX_KEYS = 50_000;

class Window {
  private hits = new Map<string, number[]>();
  constructor(private span: number) {}

  /** Failures still inside the window, dropping the older ones. */
  count(key: string, now: number): number {
    const list = this.hits.get(key);
    if (!list) return 0;
    while (list.length && list[0]! <= now - this.span) list.shift();
    if (!list.length) this.hits.delete(key);
    return list.length;
  }

  oldest(key: string): number | undefined { return this.hits.get(key)?.[0]; }

  add(key: string, now: number): void {
    // A flood of new keys forgets the old ones rather than growing without bound.
    if (this.hits.size >= MAX_KEYS && !this.hits.has(key)) this.hits.clear();
    const list = this.hits.get(key) ?? [];
    list.push(now);
    this.hits.set(key, list);
  }
}

export class SignInLimiter {
  private byAddress = new Window(ADDRESS_WINDOW_MS);
  private byName = new Window(NAME_WINDOW_MS);
  constructor(private now: () => number = Date.now) {}

  /** Throws 429 (with the seconds to wait) when the address has used up its failures. */
  assertAddressAllowed(ip: string): void {
    const now = this.now();
    if (this.byAddress.count(ip, now) < ADDRESS_MAX) return;
    const oldest = this.byAddress.oldest(ip) ?? now;
    throw new TooManyRequestsError(Math.max(1, Math.ceil((oldest + ADDRESS_WINDOW_MS - now) / 1000)));
  }

  /** How long an attempt for this user name waits before it is checked. */
  delayFor(login: string): number {
    return this.byName.count(login.toLowerCase(), this.now()) >= NAME_FREE ? NAME_DELAY_MS : 0;
  }

  recordFailure(ip: string, login: string): void {
    const now = this.now();
    this.byAddress.add(ip, now);
    if (login) this.byName.add(login.toLowerCase(), now);
  }

  /**
   * The checks before one sign-in attempt: the address's 429, then the name's wait. The OAuth2
   * token endpoint and every password check call this, then recordFailure on a failure.
   */
  async beforeAttempt(ip: string, login: string): Promise<void> {
    this.assertAddressAllowed(ip);
    const wait = this.delayFor(login);
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

const limiters = new WeakMap<DB, SignInLimiter>();

/** The limiter of a server (keyed by its database: tests run several servers in one process). */
export function signInLimiter(db: DB): SignInLimiter {
  let limiter = limiters.get(db);
  if (!limiter) limiters.set(db, (limiter = new SignInLimiter()));
  return limiter;
}
