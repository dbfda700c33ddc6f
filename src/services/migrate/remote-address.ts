import dns from 'node:dns';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { allowlistAgent } from '../../lib/checked-lookup';
import { hostMatcher, normalizeIp } from '../../lib/host-matcher';

// Where migrations and mirrors may connect ([migrations], as Gitea's IsMigrateURLAllowed):
// allowed_domains (when set) must match the host, blocked_domains must not, and unless
// allow_localnetworks every address the host resolves to must be external. git connects by
// itself, so it is pinned to the address checked here (http.curloptResolve): a name that
// resolves elsewhere the second time is not followed. The REST client connects through
// migrationDispatcher, which checks the address it actually connects to.

export type MigrationRules = { allows: (host: string, ip: string) => boolean; describe: string };

export function migrationRules(config: Config): MigrationRules {
  const m = config.migrations;
  const allowed = m.allowed_domains.trim() ? hostMatcher(m.allowed_domains) : null;
  const blocked = m.blocked_domains.trim() ? hostMatcher(m.blocked_domains) : null;
  const network = hostMatcher(m.allow_localnetworks ? '*' : 'external');
  const allows = (host: string, ip: string) => {
    if (blocked?.allows(host, ip)) return false;
    if (allowed && !allowed.allows(host, ip)) return false;
    return network.allows(host, ip);
  };
  return { allows, describe: `allowed_domains=${m.allowed_domains || '*'}, blocked_domains=${m.blocked_domains}, allow_localnetworks=${m.allow_localnetworks}` };
}

export const DISALLOWED = 'You can not import from disallowed hosts.';

/** A remote that passed the check: its address without credentials, and how git must reach it. */
export type CheckedRemote = {
  /** The address with any user:password removed (what is stored and shown). */
  address: string;
  username: string;
  password: string;
  /** A local path (site admins, allow_local_paths) rather than a URL. */
  local: boolean;
  /** `-c` options for git: the checked address pinned for the remote's host and port. */
  gitConfig: string[];
};

async function resolveAll(host: string): Promise<string[]> {
  if (net.isIP(host)) return [host];
  try {
    return (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new InvalidError(`the host of the remote address could not be resolved: ${host}`, 'clone_addr');
  }
}

function checkLocal(config: Config, raw: string, doer: User): CheckedRemote {
  if (!config.migrations.allow_local_paths || !doer.is_admin) throw new InvalidError(DISALLOWED, 'clone_addr');
  const p = raw.startsWith('file://') ? new URL(raw).pathname : raw;
  if (!path.isAbsolute(p) || !fs.existsSync(p)) throw new InvalidError('the local path does not exist', 'clone_addr');
  return { address: p, username: '', password: '', local: true, gitConfig: [] };
}

/**
 * Checks a clone or push address against [migrations]; 422 when it is not allowed. http(s) and
 * git:// URLs; a local path (or file://) only for site admins under allow_local_paths.
 */
export async function checkRemote(config: Config, raw: string, doer: User): Promise<CheckedRemote> {
  const text = raw.trim();
  if (!text) throw new InvalidError('[CloneAddr]: Required', 'clone_addr');
  if (text.startsWith('/') || text.startsWith('file://')) return checkLocal(config, text, doer);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidError('Invalid Url', 'clone_addr');
  }
  if (!['http:', 'https:', 'git:'].includes(url.protocol)) throw new InvalidError('Invalid Url', 'clone_addr');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const rules = migrationRules(config);
  const ips = await resolveAll(host);
  if (!ips.length || ips.some((ip) => !rules.allows(host, ip))) throw new InvalidError(DISALLOWED, 'clone_addr');
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '9418');
  const ip = normalizeIp(ips[0]!).ip;
  const pinned = net.isIPv6(ip) ? `[${ip}]` : ip;
  const gitConfig = url.protocol === 'git:' || net.isIP(host) ? [] : ['-c', `http.curloptResolve=${host}:${port}:${pinned}`];
  return { address: url.toString(), username, password, local: false, gitConfig };
}

/**
 * Environment and `-c` options that hand git the credentials without putting them in its
 * arguments, its config or the log: a credential helper that reads two environment variables.
 */
export function gitCredentials(username: string, password: string): { config: string[]; env: Record<string, string> } {
  if (!username && !password) return { config: [], env: {} };
  const helper = '!f() { test "$1" = get && printf \'username=%s\\npassword=%s\\n\' "$HEARTH_REMOTE_USER" "$HEARTH_REMOTE_PASSWORD"; }; f';
  return {
    config: ['-c', 'credential.helper=', '-c', `credential.helper=${helper}`],
    env: { HEARTH_REMOTE_USER: username || 'oauth2', HEARTH_REMOTE_PASSWORD: password },
  };
}

/**
 * An undici dispatcher whose connections must reach an address [migrations] allows: a name
 * through the checked lookup, an IP literal here (Node connects to one without a lookup). The
 * importers follow addresses the source hands out (LFS actions, attachments), not only the
 * remote that checkRemote saw.
 */
export function migrationDispatcher(config: Config): Dispatcher {
  // One per configuration: every migration and mirror sync shares its pool (idle sockets close after 10 s).
  let agent = dispatchers.get(config);
  if (agent) return agent;
  const rules = migrationRules(config);
  agent = allowlistAgent((host, ip) => rules.allows(host, ip), () => DISALLOWED, { keepAliveTimeout: 10_000, connections: 8 });
  dispatchers.set(config, agent);
  return agent;
}

const dispatchers = new WeakMap<Config, Dispatcher>();
