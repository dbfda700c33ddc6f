import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import type { buildConnector, Dispatcher } from 'undici';
import { undici } from './lazy-require';

// The one allowlist check for outgoing requests (webhooks, federation, migrations and mirrors):
// made on the address each connection actually uses, so a name that resolves to a forbidden
// address is refused, and so is an IP literal, wherever the URL came from (a redirect, an LFS
// action or attachment link a migration source hands out).

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

/** Node connects to an IP literal without a lookup: such a host is checked here ('' = allowed). */
function literalHostRefusal(allows: Allows, refusal: Refusal, hostname: string): string {
  const host = hostname.replace(/^\[|\]$/g, '');
  return !net.isIP(host) || allows(host, host) ? '' : refusal(host, [host]);
}

/** An undici connector that checks IP literals where the connection is made. */
function literalCheckedConnector(connector: buildConnector.connector, allows: Allows, refusal: Refusal): buildConnector.connector {
  return (opts, callback) => {
    const refused = literalHostRefusal(allows, refusal, opts.hostname);
    if (refused) callback(new Error(refused), null);
    else connector(opts, callback);
  };
}

export type AllowlistAgentOptions = { rejectUnauthorized?: boolean; connections?: number; keepAliveTimeout?: number };

/** An undici Agent whose every connection passes the allowlist: names at lookup, IP literals at connect. */
export function allowlistAgent(allows: Allows, refusal: Refusal, o: AllowlistAgentOptions = {}): Dispatcher {
  const { Agent, buildConnector } = undici();
  const connector = buildConnector({ lookup: checkedLookup(allows, refusal), rejectUnauthorized: o.rejectUnauthorized ?? true });
  return new Agent({ connect: literalCheckedConnector(connector, allows, refusal), connections: o.connections, keepAliveTimeout: o.keepAliveTimeout });
}
