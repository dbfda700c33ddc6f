import { describe, expect, it } from 'vitest';
import { nextLink, quotaWait, rateLimitWait } from '../../src/services/migrate/rate-limit';

// How long the importer waits when a source says so, as GitHub, GitLab and AWS state their limits.

const NOW = Date.parse('2026-01-01T00:00:00Z');
const epoch = (ms: number) => String(Math.floor(ms / 1000));

describe('rate limits of migration sources', () => {
  it('a 403 or 429 with Retry-After waits that long (seconds or an HTTP date)', () => {
    expect(rateLimitWait(429, { 'retry-after': '3' }, NOW)).toBe(3000);
    expect(rateLimitWait(403, { 'retry-after': '60' }, NOW)).toBe(60_000);
    expect(rateLimitWait(429, { 'retry-after': new Date(NOW + 5000).toUTCString() }, NOW)).toBe(5000);
  });

  it('an exhausted window (GitHub X-RateLimit-*, GitLab RateLimit-*) waits until its reset, a second more', () => {
    expect(rateLimitWait(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epoch(NOW + 10_000) }, NOW)).toBe(11_000);
    expect(rateLimitWait(429, { 'ratelimit-remaining': '0', 'ratelimit-reset': epoch(NOW + 2000) }, NOW)).toBe(3000);
    expect(quotaWait({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epoch(NOW + 1000) }, NOW)).toBe(2000);
    expect(quotaWait({ 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': epoch(NOW + 1000) }, NOW)).toBe(0);
  });

  it('a plain 403 is a refusal, not a limit; a bare 429 waits a second; AWS throttling backs off', () => {
    expect(rateLimitWait(403, {}, NOW)).toBeNull();
    // GitHub's secondary limit without a time: wait a minute, as its documentation asks.
    expect(rateLimitWait(403, {}, NOW, '{"message":"You have exceeded a secondary rate limit."}')).toBe(60_000);
    expect(rateLimitWait(404, { 'retry-after': '1' }, NOW)).toBeNull();
    expect(rateLimitWait(429, {}, NOW)).toBe(1000);
    expect(rateLimitWait(400, { 'x-amzn-errortype': 'ThrottlingException:http://internal' }, NOW)).toBe(1000);
    expect(rateLimitWait(400, { 'x-amzn-errortype': 'ValidationException:' }, NOW)).toBeNull();
  });

  it('finds the next page of a Link header', () => {
    expect(nextLink({ link: '<https://api.example/x?page=2>; rel="next", <https://api.example/x?page=5>; rel="last"' })).toBe('https://api.example/x?page=2');
    expect(nextLink({ link: '<https://api.example/x?page=1>; rel="first"' })).toBeNull();
    expect(nextLink({})).toBeNull();
  });
});
