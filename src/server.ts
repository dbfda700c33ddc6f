import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { deriveRootUrl } from './config/load';
import type { Config } from './config/schema';
import { locateGit } from './git/locate';
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
  initialAdmin: InitialAdmin | null;
  /** Stops accepting, lets requests in flight finish, then closes the database. */
  close: () => Promise<void>;
};

/** The lock file naming the process that serves a data directory. */
export const pidFileOf = (config: Config) => path.join(config.server.data_dir, 'hearth.pid');

export type StartOptions = {
  host?: string; port?: number;
  /** Shows the first admin's password: called before any request is answered. */
  announceAdmin?: (admin: InitialAdmin) => void;
};

/**
 * Listens first, so that a busy port stops the start before anything is made on disk; requests
 * that arrive meanwhile wait in the gate. Then locks the data directory, opens and migrates the
 * database, finishes what a crash interrupted and creates the first admin when none exists, and
 * only then lets requests through: a script that waits for the first answer and signs in with
 * the printed password never finds the account missing.
 */
export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  // git first: without it nothing is made.
  locateGit();
  const gate = requestGate();
  const server = http.createServer(gate.handle);
  server.keepAliveTimeout = 5_000;
  const host = opts.host ?? config.server.http_addr;
  await listen(server, opts.port ?? config.server.http_port, host);
  const address = server.address() as AddressInfo;
  if (config.rootUrlDerived) config.server.root_url = deriveRootUrl(host, address.port);
  let prepared: Prepared;
  try {
    prepared = await prepare(config);
  } catch (err) {
    gate.refuse();
    await new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
    throw err;
  }
  if (prepared.initialAdmin) opts.announceAdmin?.(prepared.initialAdmin);
  gate.open(createApp(prepared.hearth));
  return serve({ ...prepared, server, address });
}

type Prepared = { hearth: Hearth; background: ReturnType<typeof setUpBackground>; lock: PidLock; initialAdmin: InitialAdmin | null };

/** Everything before the first request is served; undone on failure (the lock released, the database closed). */
async function prepare(config: Config): Promise<Prepared> {
  // The directory and the lock: an unwritable data directory fails here, by name.
  makeDirectory(config.server.data_dir);
  const lock = acquirePidLock(pidFileOf(config));
  let hearth: Hearth;
  try {
    // Uploads a killed process was receiving: none can be under way before this server serves.
    removeSpooledUploads(config);
    hearth = await openHearth(config);
  } catch (err) {
    lock.release();
    throw err;
  }
  try {
    // Subscribers before the first request: what a request emits reaches them.
    const background = setUpBackground(hearth);
    // Work a crash interrupted is finished or undone (what it emits reaches the subscribers;
    // their jobs wait in the database for the job queue to start).
    await recoverPendingOps(hearth.db, config, hearth.log);
    if (lock.takenOver) await resyncAfterUncleanStop(hearth);
    const initialAdmin = await ensureInitialAdmin(hearth.db, config);
    return { hearth, background, lock, initialAdmin };
  } catch (err) {
    await closeHearth(hearth);
    lock.release();
    throw err;
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); resolve(); });
  });
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Holds the requests that arrive while the server starts, and hands them to the app once it is ready. */
function requestGate() {
  let app: Handler | null = null;
  let waiting: [http.IncomingMessage, http.ServerResponse][] = [];
  return {
    handle: ((req, res) => { if (app) app(req, res); else waiting.push([req, res]); }) as Handler,
    open(next: Handler) {
      app = next;
      for (const [req, res] of waiting) next(req, res);
      waiting = [];
    },
    /** The start failed: what waited is told so instead of being cut off. */
    refuse() {
      for (const [, res] of waiting) res.writeHead(503, { 'Content-Type': 'text/plain', Connection: 'close' }).end('hearth failed to start\n');
      waiting = [];
    },
  };
}

type Listening = Prepared & { server: http.Server; address: AddressInfo };

/** Starts the background work on a listening server and returns how to stop it all. */
async function serve({ hearth, server, address, background, lock, initialAdmin }: Listening): Promise<RunningServer> {
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // Jobs once root_url is known (a job left by the last run may start at once).
  await background.start();
  const cron = startCron(hearth);
  const runner = await startEmbeddedRunner(hearth, `http://${shownHost === '[::]' ? '[::1]' : shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`);
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= (async () => {
    // the embedded runner cancels its jobs and reports them while the server still answers
    await runner?.stop();
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
    lock.release();
  })());
  return { hearth, server, url: `http://${shownHost}:${address.port}/`, initialAdmin, close };
}
