import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { deriveRootUrl } from './config/load';
import type { Config } from './config/schema';
import { locateGit } from './git/locate';
import { sshListenPort } from './lib/clone-url';
import { closeHearth, openHearth, type Hearth } from './hearth';
import { acquirePidLock, makeDirectory, type PidLock } from './lib/pid-lock';
import { allFollowUpsSettled } from './services/pull/pull-follow-queue';
import { createApp } from './routes/app';
import { setUpBackground } from './services/background';
import { recoverPendingOps } from './services/recovery/recover';
import { resyncAfterUncleanStop } from './services/recovery/unclean-stop';
import { removeSpooledUploads } from './services/issue/attachment-files';
import { startEmbeddedRunner } from './services/actions/embedded-runner';
import { startCron } from './services/cron/scheduler';
import { ensureInitialAdmin, type InitialAdmin } from './services/user/setup';

export type RunningServer = {
  hearth: Hearth;
  server: http.Server;
  url: string;
  /** The built-in SSH server's port, when it runs. */
  sshPort: number | null;
  initialAdmin: InitialAdmin | null;
  /** Stops accepting, lets requests in flight finish, then closes the database. */
  close: () => Promise<void>;
};

/** The lock file naming the process that serves a data directory. */
export const pidFileOf = (config: Config) => path.join(config.server.data_dir, 'hearth.pid');

/**
 * Locks the data directory, opens and migrates the database, listens, and only then creates
 * the first admin when none exists: a start that fails (port in use) leaves no account whose
 * password was never shown.
 */
export async function startServer(config: Config, opts: { host?: string; port?: number } = {}): Promise<RunningServer> {
  // git first: without it nothing is made. Then the directory and the lock: an unwritable data
  // directory fails here, by name.
  locateGit();
  makeDirectory(config.server.data_dir);
  const lock = acquirePidLock(pidFileOf(config));
  let hearth: Hearth;
  try {
    // Uploads a killed process was receiving: none can be under way before this server listens.
    removeSpooledUploads(config);
    hearth = await openHearth(config);
  } catch (err) {
    lock.release();
    throw err;
  }
  // Subscribers before the first request: what a request emits reaches them.
  const background = setUpBackground(hearth);
  // Before serving: work a crash interrupted is finished or undone (what it emits reaches the
  // subscribers; their jobs wait in the database for the job queue to start).
  try {
    await recoverPendingOps(hearth.db, config, hearth.log);
    if (lock.takenOver) await resyncAfterUncleanStop(hearth);
  } catch (err) {
    await closeHearth(hearth);
    lock.release();
    throw err;
  }
  const server = http.createServer(createApp(hearth));
  server.keepAliveTimeout = 5_000;
  const host = opts.host ?? config.server.http_addr;
  let initialAdmin: InitialAdmin | null;
  let ssh: RunningSsh | null = null;
  let sshStart: Promise<RunningSsh | null> = Promise.resolve(null);
  try {
    await listen(server, opts.port ?? config.server.http_port, host);
    // SSH after HTTP listens: ssh2 loads (and host keys are made) while HTTP already answers;
    // before the first admin, so that a start failing there leaves no unseen password either.
    sshStart = startSsh(hearth, host);
    ssh = await sshStart;
    initialAdmin = await ensureInitialAdmin(hearth.db, config);
  } catch (err) {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
    await sshStart.then((started) => started?.close(), () => undefined);
    await closeHearth(hearth);
    lock.release();
    throw err;
  }
  return serve({ hearth, server, host, background, lock, initialAdmin, ssh });
}

type RunningSsh = { port: number; close: () => Promise<void> };
const SSH_START_DELAY_MS = 20;

/** The built-in SSH server when [server] start_ssh_server is on; its code is not even loaded otherwise. */
async function startSsh(hearth: Hearth, httpHost: string): Promise<RunningSsh | null> {
  const s = hearth.config.server;
  if (!s.start_ssh_server) return null;
  // ssh2 loads synchronously (~40 ms): the requests that came with the listen go through first.
  await new Promise((resolve) => setTimeout(resolve, SSH_START_DELAY_MS));
  const { startSshServer } = await import('./ssh/server');
  const running = await startSshServer(hearth, s.ssh_listen_host || httpHost, sshListenPort(hearth.config));
  // Clone URLs show the port clients reach: the configured one, else the one listened on.
  if (!s.ssh_port) s.ssh_port = running.port;
  return running;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); resolve(); });
  });
}

type Listening = {
  hearth: Hearth; server: http.Server; host: string; background: ReturnType<typeof setUpBackground>;
  lock: PidLock; initialAdmin: InitialAdmin | null; ssh: RunningSsh | null;
};

/** Starts the background work on a listening server and returns how to stop it all. */
async function serve({ hearth, server, host, background, lock, initialAdmin, ssh }: Listening): Promise<RunningServer> {
  const { config } = hearth;
  const address = server.address() as AddressInfo;
  if (config.rootUrlDerived) config.server.root_url = deriveRootUrl(host, address.port);
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // Jobs once root_url is known (a job left by the last run may start at once).
  await background.start();
  const cron = startCron(hearth);
  const runner = await startEmbeddedRunner(hearth, `http://${shownHost === '[::]' ? '[::1]' : shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`);
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= (async () => {
    // the embedded runner cancels its jobs and reports them while the server still answers
    await runner?.stop();
    await Promise.all([ssh?.close(), new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    })]);
    // Every timer cleared, runs in progress cancelled and waited for: they use the database.
    await cron.stop();
    // Pull request updates queued by the last pushes finish before the database closes, then
    // the jobs in progress (the others wait in the database for the next start).
    await allFollowUpsSettled();
    await background.stop();
    await closeHearth(hearth);
    lock.release();
  })());
  return { hearth, server, url: `http://${shownHost}:${address.port}/`, sshPort: ssh?.port ?? null, initialAdmin, close };
}
