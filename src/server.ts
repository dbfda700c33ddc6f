import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { deriveRootUrl } from './config/load';
import type { Config } from './config/schema';
import { locateGit } from './git/locate';
import { sshListenPort } from './lib/clone-url';
import { reserveSshPort, type ReservedPort } from './ssh/listener';
import { closeHearth, openHearth, type Hearth } from './hearth';
import { acquirePidLock, makeDirectory, type PidLock } from './lib/pid-lock';
import { allFollowUpsSettled } from './services/pull/pull-follow-queue';
import { createApp } from './routes/app';
import { setUpBackground } from './services/background';
import { recoverPendingOps, watchOrphanedIntents } from './services/recovery/recover';
import { resyncAfterUncleanStop } from './services/recovery/unclean-stop';
import { sweepTmpAtStart } from './services/cluster/node-tmp';
import { startEmbeddedRunner } from './services/actions/embedded-runner';
import { startCron } from './services/cron/scheduler';
import { joinCluster, type NodeMembership } from './services/cluster/node';
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
  /**
   * Settles with the error of a built-in SSH server whose start failed after HTTP listened (host
   * keys that cannot be written, its modules): the process stops then (cli/web.ts), as when its
   * port cannot be bound. Never settles otherwise.
   */
  sshFailed: Promise<unknown>;
};

/** How long an idle keep-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;

/** The lock file naming the process that serves a data directory. */
export const pidFileOf = (config: Config) => path.join(config.server.data_dir, 'hearth.pid');

/**
 * SQLite: the data directory's pid lock, this process the only server on it. PostgreSQL: no
 * lock, as several nodes share the data directory (repositories, blobs, the secret key) by
 * design; the node table is each one's identity and a dead node's work is adopted through it.
 */
function lockDataDirectory(config: Config): PidLock {
  if (config.database.driver !== 'postgres') return acquirePidLock(pidFileOf(config));
  return { file: '', release: () => {}, takenOver: false };
}

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
  // Idle connections outlive the 60 s idle timeout load balancers commonly use (nginx's upstream
  // keepalive_timeout, AWS ALB's), so the balancer is the one that closes them: closing first,
  // hearth raced requests the balancer was sending on them (a 502 each, bench/cluster).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  const host = opts.host ?? config.server.http_addr;
  await listen(server, opts.port ?? config.server.http_port, host);
  const address = server.address() as AddressInfo;
  if (config.rootUrlDerived) config.server.root_url = deriveRootUrl(host, address.port);
  let ssh: SshPort = { reserved: null };
  let prepared: Prepared;
  try {
    ssh = await reserveSsh(config, host);
    prepared = await prepare(config);
  } catch (err) {
    gate.refuse();
    ssh.reserved?.server.close();
    await new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
    throw err;
  }
  if (ssh.skipped) prepared.hearth.log.warn(ssh.skipped, 'the built-in SSH server is not started');
  if (prepared.initialAdmin) opts.announceAdmin?.(prepared.initialAdmin);
  gate.open(createApp(prepared.hearth));
  return serve({ ...prepared, server, address, sshPort: ssh.reserved });
}

type SshPort = { reserved: ReservedPort | null; skipped?: { port: number; reason: string } };

/**
 * The built-in SSH server's port (`[server] start_ssh_server`), bound with HTTP's, before anything
 * is made on disk: a busy port configured by name stops the start. The default one (22 as root,
 * where the system's sshd often listens) only turns the built-in server off, with a warning, so
 * that a first start on such a machine still serves.
 */
async function reserveSsh(config: Config, httpHost: string): Promise<SshPort> {
  const s = config.server;
  if (!s.start_ssh_server) return { reserved: null };
  const port = sshListenPort(config);
  try {
    const reserved = await reserveSshPort(s.ssh_listen_host || httpHost, port);
    // Clone URLs show the port clients reach: the configured one, else the one listened on.
    if (!s.ssh_port) s.ssh_port = reserved.port;
    return { reserved };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (s.ssh_listen_port !== undefined || (code !== 'EADDRINUSE' && code !== 'EACCES')) throw err;
    return { reserved: null, skipped: { port, reason: `port ${port} is not available (${code}): set [server] ssh_listen_port` } };
  }
}

/**
 * ssh2 and the SSH layer load once requests are served (~40 ms of synchronous module loading,
 * and the host keys made on a first start): the connections that come first wait on the
 * reserved port meanwhile.
 */
async function startSsh(hearth: Hearth, reserved: ReservedPort): Promise<{ close: () => Promise<void> }> {
  await new Promise((resolve) => setTimeout(resolve, SSH_START_DELAY_MS));
  const { startSshServer } = await import('./ssh/server');
  return startSshServer(hearth, reserved);
}
/** Lets the requests that waited for the start go through before ssh2's loading holds the thread. */
const SSH_START_DELAY_MS = 20;

type Prepared = { hearth: Hearth; background: ReturnType<typeof setUpBackground>; lock: PidLock; node: NodeMembership; initialAdmin: InitialAdmin | null };

/** Everything before the first request is served; undone on failure (the lock released, the database closed). */
async function prepare(config: Config): Promise<Prepared> {
  // The directory and the lock: an unwritable data directory fails here, by name.
  makeDirectory(config.server.data_dir);
  const lock = lockDataDirectory(config);
  let hearth: Hearth;
  try {
    hearth = await openHearth(config);
  } catch (err) {
    lock.release();
    throw err;
  }
  let node: NodeMembership | undefined;
  try {
    // This node's row and heartbeat (PostgreSQL): other nodes see it live from here on.
    node = await joinCluster(hearth);
    // Uploads and push handshakes of stopped nodes (this one's earlier runs included): none of
    // theirs can be under way, and a live node's are its own.
    await sweepTmpAtStart(hearth);
    // Subscribers before the first request: what a request emits reaches them.
    const background = setUpBackground(hearth);
    // Work a crash interrupted is finished or undone (what it emits reaches the subscribers;
    // their jobs wait in the database for the job queue to start).
    await recoverPendingOps(hearth);
    if (lock.takenOver) await resyncAfterUncleanStop(hearth);
    const initialAdmin = await ensureInitialAdmin(hearth);
    return { hearth, background, lock, node, initialAdmin };
  } catch (err) {
    await node?.stop();
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

type Listening = Prepared & { server: http.Server; address: AddressInfo; sshPort: ReservedPort | null };

/** Starts the background work on a listening server and returns how to stop it all. */
async function serve({ hearth, server, address, background, lock, node, initialAdmin, sshPort }: Listening): Promise<RunningServer> {
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // Jobs once root_url is known (a job left by the last run may start at once).
  await background.start();
  // A failure here (host keys that cannot be written) is the server's, as HTTP's would be: it is
  // handed to the caller, which stops the server (an unhandled rejection skipped the clean stop).
  const ssh = sshPort ? startSsh(hearth, sshPort) : null;
  const sshFailed = new Promise<unknown>((resolve) => { ssh?.catch(resolve); });
  const cron = startCron(hearth);
  // PostgreSQL: the intents of nodes that die while this one runs are adopted here.
  const stopAdopting = watchOrphanedIntents(hearth);
  const runner = await startEmbeddedRunner(hearth, `http://${shownHost === '[::]' ? '[::1]' : shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`);
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= stepByStep([
    // the embedded runner cancels its jobs and reports them while the server still answers
    () => runner?.stop(),
    () => Promise.all([
      // An SSH server whose start failed (its modules, its host keys) has only its reserved port to close.
      ssh?.then((started) => started.close(), (err: unknown) => {
        hearth.log.warn({ err }, 'the built-in SSH server had not started');
        sshPort?.server.close();
      }),
      new Promise<void>((resolve) => {
        // A connection whose request was in flight turns idle once answered: closed then, not
        // a keep-alive timeout later.
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => { clearInterval(sweep); resolve(); });
        server.closeIdleConnections();
      }),
    ]),
    // Every timer cleared, runs in progress cancelled and waited for: they use the database.
    () => cron.stop(),
    () => stopAdopting(),
    // Pull request updates queued by the last pushes finish before the database closes, then
    // the jobs in progress (the others wait in the database for the next start).
    () => allFollowUpsSettled(hearth.db),
    () => background.stop(),
    () => node.stop(),
    () => closeHearth(hearth),
    () => lock.release(),
  ]));
  return { hearth, server, url: `http://${shownHost}:${address.port}/`, sshPort: sshPort?.port ?? null, initialAdmin, close, sshFailed };
}

/**
 * Runs each step of a shutdown in order, the later ones also when an earlier one failed (a step
 * that throws must not leave the timers, the jobs and the database of the others running: the
 * process would stay up with its port closed); rejects with the first failure once all ran.
 */
async function stepByStep(steps: (() => unknown)[]): Promise<void> {
  let failure: { err: unknown } | null = null;
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      failure ??= { err };
    }
  }
  if (failure) throw failure.err;
}
