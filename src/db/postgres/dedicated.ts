import pg from 'pg';
import { connectFailure, describeTarget } from './errors';

// A connection of its own, outside the pool, for what lives as long as the session: LISTEN (a
// pooled connection goes back to the pool and its LISTEN with it) and session advisory locks
// (the cron leader's). TCP keepalives on both ends make a vanished peer (a node's machine gone,
// a cut cable) an error instead of a socket that waits forever. The server's side matters most:
// it probes an idle client after 10 s, every 5 s, 3 times, so a dead node's backend ends and its
// session locks are released within about 25 s (Node can set only the client's first delay).
// Unix-socket connections have no keepalives and need none: a dead process closes its socket.

export const KEEPALIVE_DELAY_MS = 10_000;
const SERVER_KEEPALIVES = '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3';

/**
 * Connects one client on `url` (UTC, keepalives); rejects with the one-line connect failure.
 * `applicationName` names the session in pg_stat_activity (the cron leader's: who leads).
 */
export async function openDedicatedClient(url: string, applicationName?: string): Promise<pg.Client> {
  const target = describeTarget(url);
  const client = new pg.Client({
    connectionString: url,
    client_encoding: 'UTF8',
    options: [target.options, '-c TimeZone=UTC', SERVER_KEEPALIVES].filter(Boolean).join(' '),
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    connectionTimeoutMillis: 10_000,
    ...(applicationName ? { application_name: applicationName } : {}),
  });
  // An 'error' without a listener would end the process; the owner learns of it through 'end'.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw connectFailure(err, target);
  }
  return client;
}
