import pg from 'pg';
import { DatabaseConnectError } from '../connect';
import { maskUrlPassword } from '../../lib/url-password';

// Why a PostgreSQL database could not be opened, as one line naming the server and the database
// (never the password): what `hearth web` and the admin commands print before exiting.

export type PostgresTarget = { host: string; port: number; database: string; user: string; options: string; where: string };

const SETTING = '[database] url (HEARTH__DATABASE__URL)';

/** Host, port, database and user the URL names, as `pg` reads it (its defaults filled in). */
export function describeTarget(url: string): PostgresTarget {
  let p: { host: string; port: number; database?: string; user?: string; options?: string };
  try {
    p = (new pg.Client({ connectionString: url }) as unknown as { connectionParameters: typeof p }).connectionParameters;
  } catch {
    throw new DatabaseConnectError(`${SETTING} is not a valid URL: expected postgres://user:password@host:port/database`);
  }
  if (!Number.isInteger(p.port) || p.port <= 0 || p.port > 65535) {
    throw new DatabaseConnectError(`${SETTING} names no valid port: expected postgres://user:password@host:port/database`);
  }
  const database = p.database ?? p.user ?? '';
  const user = p.user ?? '';
  const server = p.host.startsWith('/') ? `socket ${p.host}/.s.PGSQL.${p.port}` : `${p.host.includes(':') ? `[${p.host}]` : p.host}:${p.port}`;
  return { host: p.host, port: p.port, database, user, options: p.options ?? '', where: `PostgreSQL at ${server}, database "${database}"` };
}

const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running and listening there?)',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name could not be resolved now (EAI_AGAIN)',
  ENOENT: 'no server socket there (is the server running, with that socket directory and port?)',
  EACCES: 'permission denied on the socket',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'the server closed the connection',
};

// SQLSTATEs of a refused start: https://www.postgresql.org/docs/current/errcodes-appendix.html
const SERVER: Record<string, (message: string, t: PostgresTarget) => string> = {
  '28P01': (_m, t) => `password authentication failed for user "${t.user}"`,
  '28000': (m) => `the server refused the connection: ${m}`,
  '3D000': (_m, t) => `database "${t.database}" does not exist (create it, or name another in the url)`,
  '53300': () => 'the server has no connection left (too many clients)',
  '57P03': () => 'the server is starting up or shutting down',
};

/** The error `pg` gave on connecting, as a DatabaseConnectError of one line. */
export function connectFailure(err: unknown, target: PostgresTarget): DatabaseConnectError {
  const e = err as { code?: string; message?: string };
  const message = String(e?.message ?? err);
  let reason: string;
  if (e?.code && NETWORK[e.code]) reason = NETWORK[e.code]!;
  else if (e?.code && SERVER[e.code]) reason = SERVER[e.code]!(message, target);
  else if (/client password must be a string/.test(message)) reason = `the server asks for a password for user "${target.user}" and the url has none`;
  else if (/timeout/i.test(message)) reason = 'no answer within 10 s';
  else reason = maskUrlPassword(message.split('\n')[0]!);
  return new DatabaseConnectError(`cannot connect to ${target.where}: ${reason}; check ${SETTING}`);
}
