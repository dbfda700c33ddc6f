import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

// The one allowlist check for outgoing requests (webhooks, federation): made on the address the
// connection actually uses, so a name that resolves to a forbidden address is refused too.

export type Allows = (host: string, ip: string) => boolean;
export type Refusal = (host: string, addresses: string[]) => string;

/** A resolver for undici's `connect.lookup`: only allowed addresses come back. */
export function checkedLookup(allows: Allows, refusal: Refusal): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const found = addresses as dns.LookupAddress[];
      const ok = found.filter((a) => allows(hostname, a.address));
      if (!ok.length) return callback(Object.assign(new Error(refusal(hostname, found.map((a) => a.address))), { code: 'EHOSTDENIED' }));
      if (options.all) return callback(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  }) as LookupFunction;
}

/** Node connects to an IP literal without a lookup: such addresses are checked here ('' = allowed). */
export function literalRefusal(allows: Allows, refusal: Refusal, url: string): string {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return !net.isIP(host) || allows(host, host) ? '' : refusal(host, [host]);
}
