import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deriveRootUrl } from './config/load';
import type { Config } from './config/schema';
import { closeHearth, openHearth, type Hearth } from './hearth';
import { allFollowUpsSettled } from './services/pull/pull-follow-queue';
import { createApp } from './routes/app';
import { setUpBackground } from './services/background';
import { startCron } from './services/cron/scheduler';
import { ensureInitialAdmin, type InitialAdmin } from './services/user/setup';

export type RunningServer = {
  hearth: Hearth;
  server: http.Server;
  url: string;
  initialAdmin: InitialAdmin | null;
  /** Stops accepting, lets requests in flight finish, then closes the database. */
  close: () => Promise<void>;
};

/** Opens and migrates the database, creates the first admin when none exists, then listens. */
export async function startServer(config: Config, opts: { host?: string; port?: number } = {}): Promise<RunningServer> {
  const hearth = await openHearth(config);
  const initialAdmin = await ensureInitialAdmin(hearth.db, config);
  // Subscribers before the first request: what a request emits reaches them.
  const background = setUpBackground(hearth);
  const server = http.createServer(createApp(hearth));
  server.keepAliveTimeout = 5_000;
  const port = opts.port ?? config.server.http_port;
  const host = opts.host ?? config.server.http_addr;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => { server.off('error', reject); resolve(); });
    });
  } catch (err) {
    await closeHearth(hearth);
    throw err;
  }
  const address = server.address() as AddressInfo;
  if (config.rootUrlDerived) config.server.root_url = deriveRootUrl(host, address.port);
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // Jobs once root_url is known (a job left by the last run may start at once).
  await background.start();
  const cron = startCron(hearth);
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= (async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    // Every timer cleared, runs in progress cancelled and waited for: they use the database.
    await cron.stop();
    // Pull request updates queued by the last pushes finish before the database closes, then
    // the jobs in progress (the others wait in the database for the next start).
    await allFollowUpsSettled();
    await background.stop();
    await closeHearth(hearth);
  })());
  return { hearth, server, url: `http://${shownHost}:${address.port}/`, initialAdmin, close };
}
