import type { Socket } from 'node:net';
import { Server, type Connection } from 'ssh2';
import type { Hearth } from '../hearth';
import { parseDuration } from '../services/cron/duration';
import { countSshConnection } from '../services/metrics/registry';
import { authenticate, limitSshSignIns, type AuthState } from './auth';
import { loadHostKeys } from './host-keys';
import { acceptSshConnections, type Accepted, type ReservedPort } from './listener';
import { idleTimer, MAX_SESSIONS_PER_CONNECTION, serveSession } from './session';

// The built-in SSH server (`[server] start_ssh_server`): hearth's own TCP listener hands each
// socket to ssh2 (pure JavaScript; this module and ssh2 load with src/server.ts's import(), after
// HTTP listens, and never when the server is off), which keys the connection with the host keys;
// src/ssh/auth.ts signs it in, src/ssh/session.ts runs its commands.

export type RunningSsh = { port: number; close: () => Promise<void> };

/**
 * Ciphers offered: AES (Node's native code) in GCM and CTR modes, not chacha20-poly1305, which
 * ssh2 computes in JavaScript at more CPU per byte. An OpenSSH client picks by its own order, so
 * it takes aes128-ctr; GCM and CTR measured alike (bench/ssh.mjs).
 */
const CIPHERS = ['aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'aes128-ctr', 'aes256-ctr'];

const SHUTDOWN_GRACE_MS = 10_000;

export async function startSshServer(h: Hearth, reserved: ReservedPort): Promise<RunningSsh> {
  const s = h.config.server;
  const ssh = new Server({
    hostKeys: await loadHostKeys(s.data_dir),
    ident: `${s.app_name.replace(/[^\x21-\x7e]/g, '')}`,
    // "0" turns keepalives off: ssh2 takes 0 for its own default (15 s), so the longest timer instead.
    keepaliveInterval: parseDuration(s.ssh_keepalive_interval) || 2 ** 31 - 1,
    keepaliveCountMax: s.ssh_keepalive_count_max,
    algorithms: { cipher: CIPHERS as never },
  });
  const states = new WeakMap<Socket, Accepted>();
  // Signed-in connections, for a shutdown that lets running commands finish.
  const clients = new Map<Connection, () => void>();
  ssh.on('connection', (client) => {
    const accepted = states.get((client as unknown as { _sock: Socket })._sock);
    if (!accepted) return client.end();
    client.on('close', () => clients.delete(client));
    serveClient(h, client, accepted, (closeIfIdle) => clients.set(client, closeIfIdle));
  });
  // Accepted but not signed in: dropped at shutdown rather than waited for.
  const pending = new Set<Socket>();
  const sockets = new Set<Socket>();
  const destroyAll = () => { for (const socket of sockets) socket.destroy(); };
  const listener = reserved.server;
  acceptSshConnections(reserved, {
    maxSessions: s.ssh_max_sessions, maxPerAddress: s.ssh_max_sessions_per_address, loginTimeoutMs: parseDuration(s.ssh_login_timeout),
  }, h.log, (accepted) => {
    countSshConnection();
    pending.add(accepted.socket);
    sockets.add(accepted.socket);
    accepted.socket.once('close', () => { pending.delete(accepted.socket); sockets.delete(accepted.socket); });
    states.set(accepted.socket, { ...accepted, signedIn: () => { pending.delete(accepted.socket); accepted.signedIn(); } });
    ssh.injectSocket(accepted.socket);
  });
  return {
    port: reserved.port,
    close: () => new Promise<void>((resolve) => {
      listener.close(() => { clearTimeout(grace); resolve(); });
      for (const socket of pending) socket.destroy();
      // Connections running nothing go now; running commands (a push) get SHUTDOWN_GRACE_MS to
      // finish, then are cut: a stalled client must not hold the shutdown forever.
      for (const closeIfIdle of clients.values()) closeIfIdle();
      const grace = setTimeout(() => { for (const c of clients.keys()) c.end(); setTimeout(() => destroyAll(), 1000).unref(); }, SHUTDOWN_GRACE_MS);
      grace.unref();
    }),
  };
}

function serveClient(h: Hearth, client: Connection, accepted: Accepted, onReady: (closeIfIdle: () => void) => void): void {
  const state: AuthState = { address: accepted.address, failures: 0, identity: null };
  client.on('error', () => { /* the peer went away or broke the protocol: close follows */ });
  if (!limitSshSignIns(h, state, (listener) => client.once('close', listener))) {
    client.end();
    return;
  }
  client.on('authentication', (ctx) => {
    authenticate(h, state, ctx).then((more) => { if (!more) client.end(); }, (err: unknown) => {
      h.log.error({ err, ip: state.address }, 'ssh authentication failed');
      ctx.reject();
    });
  });
  client.on('ready', () => {
    const who = state.identity;
    if (!who) return client.end();
    accepted.signedIn();
    const idle = idleTimer(client, parseDuration(h.config.server.ssh_idle_timeout));
    onReady(idle.closeIfIdle);
    client.on('close', () => idle.stop());
    let open = 0;
    client.on('session', (accept, reject) => {
      if (open >= MAX_SESSIONS_PER_CONNECTION) return reject();
      const session = accept();
      if (!session) return;
      open++;
      session.once('close', () => { open--; });
      serveSession(h, who, session, idle);
    });
  });
}
