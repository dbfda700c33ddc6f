import type { IncomingHttpHeaders } from 'node:http';

// How long a source asks us to wait, from its answer's headers, as each service documents it:
// GitHub's X-RateLimit-Remaining/X-RateLimit-Reset (epoch seconds) and, for its secondary limits,
// a 403 or 429 with Retry-After; AWS's 400 ThrottlingException; GitLab's RateLimit-Remaining/RateLimit-Reset and a 429 with
// Retry-After; any other source's 429 with Retry-After (seconds or an HTTP date).

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

function retryAfterMs(h: IncomingHttpHeaders, now: number): number | null {
  const raw = header(h, 'retry-after');
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/** Milliseconds until the window resets when the source says none are left, else null. */
function exhaustedMs(h: IncomingHttpHeaders, now: number): number | null {
  const remaining = header(h, 'x-ratelimit-remaining') ?? header(h, 'ratelimit-remaining');
  const reset = header(h, 'x-ratelimit-reset') ?? header(h, 'ratelimit-reset');
  if (remaining === undefined || Number(remaining) > 0 || !reset || !/^\d+$/.test(reset)) return null;
  // A second more: the reset time is rounded down to the second.
  return Math.max(0, Number(reset) * 1000 - now) + 1000;
}

/**
 * The wait a refused answer asks for, or null when the status is no rate limit: 429 always is
 * (1 s when it says nothing), 403 only with rate-limit headers or GitHub's secondary-limit
 * message (a minute, as GitHub asks, when it names no time); else it is a real refusal.
 */
export function rateLimitWait(status: number, h: IncomingHttpHeaders, now = Date.now(), body = ''): number | null {
  // AWS's JSON APIs refuse with 400 and the error type in a header; AWS asks for a backoff.
  if (status === 400 && /^Throttling/.test(header(h, 'x-amzn-errortype') ?? '')) return retryAfterMs(h, now) ?? 1000;
  if (status !== 429 && status !== 403) return null;
  const wait = retryAfterMs(h, now) ?? exhaustedMs(h, now);
  if (wait !== null) return wait;
  if (/secondary rate limit|abuse detection/i.test(body)) return 60_000;
  return status === 429 ? 1000 : null;
}

/** After a good answer: the wait before the next request when it was the window's last one. */
export function quotaWait(h: IncomingHttpHeaders, now = Date.now()): number {
  return exhaustedMs(h, now) ?? 0;
}

/** The rel="next" address of a Link header (GitHub, GitLab), or null. */
export function nextLink(h: IncomingHttpHeaders): string | null {
  const link = header(h, 'link');
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (m && m[2]!.split(/\s+/).includes('next')) return m[1]!;
  }
  return null;
}
