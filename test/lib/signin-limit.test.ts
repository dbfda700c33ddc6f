import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../src/lib/errors';
import { SignInLimiter } from '../../src/services/user/signin-limit';

// The limiter's windows on a clock of the test's own.

describe('SignInLimiter', () => {
  it('refuses an address after 10 failures in 5 minutes, until the oldest leaves the window', () => {
    let now = 1_000_000;
    const l = new SignInLimiter(() => now);
    for (let i = 0; i < 10; i++) {
      l.assertAddressAllowed('10.0.0.1');
      l.recordFailure('10.0.0.1', `user${i}`);
      now += 1000;
    }
    let err: unknown;
    try { l.assertAddressAllowed('10.0.0.1'); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(TooManyRequestsError);
    expect((err as TooManyRequestsError).retryAfter).toBe(290);
    // Another address is not concerned.
    expect(() => l.assertAddressAllowed('10.0.0.2')).not.toThrow();
    now += 290_000;
    expect(() => l.assertAddressAllowed('10.0.0.1')).not.toThrow();
  });

  it('slows a user name by a second per attempt after 20 failures in 15 minutes, from any address, never locks it', () => {
    let now = 5_000_000;
    const l = new SignInLimiter(() => now);
    for (let i = 0; i < 20; i++) {
      expect(l.delayFor('Owner')).toBe(0);
      l.recordFailure(`10.0.${i}.1`, 'owner');
      now += 1000;
    }
    expect(l.delayFor('owner')).toBe(1000);
    expect(l.delayFor('OWNER')).toBe(1000);
    expect(l.delayFor('someone-else')).toBe(0);
    now += 15 * 60_000;
    expect(l.delayFor('owner')).toBe(0);
  });
});
