import net from 'node:net';

// Gitea's validation of the addresses a repository points users to (external tracker and wiki):
// an absolute http(s) URL with a valid port, not into this server's API, and not on loopback.

function parse(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

const isLoopback = (host: string) => {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  return h === '::1';
};

/** An address users may be sent to: http(s), not this server's API, not loopback. */
export function isValidExternalUrl(raw: string, rootUrl: string): boolean {
  const u = parse(raw);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return false;
  if (raw.toLowerCase().startsWith(`${rootUrl}api`.toLowerCase())) return false;
  return !isLoopback(u.hostname);
}

/**
 * An external tracker's issue address format: a valid external address whose {user}, {repo} and
 * {index} placeholders are whole (a `{user/` or `repo}` typo is refused).
 */
export function isValidExternalTrackerFormat(raw: string, rootUrl: string): boolean {
  if (!isValidExternalUrl(raw, rootUrl)) return false;
  for (const m of raw.matchAll(/(\{?)(?:user|repo|index)+?(\}?)/g)) {
    if ((m[1] === '{') !== (m[2] === '}')) return false;
  }
  return true;
}
