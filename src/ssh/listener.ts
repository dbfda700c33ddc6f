import net from 'node:net';
import type { Logger } from '../lib/logger';

// hearth owns the SSH server's TCP listener: ssh2 sees a connection only once the client sent
// its first line, so the caps and the login deadline start here, at accept. TCP_NODELAY on every
// socket: without it each SSH round trip waits ~40 ms on delayed ACKs (Nagle).

export type ListenerLimits = { maxSessions: number; maxPerAddress: number; loginTimeoutMs: number };

/** What the SSH layer learns of one accepted socket, and how it tells the listener it signed in. */
export type Accepted = { socket: net.Socket; address: string; signedIn: () => void };

/**
 * The SSH port, bound at the start before anything is made on disk (a busy port stops the start
 * there, as HTTP's does), while ssh2 loads later: connections that come first wait in `held`
 * until `take` hands them, and every later one, to the SSH layer.
 */
export type ReservedPort = { server: net.Server; port: number; take: (onSocket: (socket: net.Socket) => void) => void };

export async function reserveSshPort(host: string, port: number): Promise<ReservedPort> {
  let held: net.Socket[] | null = [];
  let handler: ((socket: net.Socket) => void) | null = null;
  const server = net.createServer({ noDelay: true }, (socket) => {
    if (handler) handler(socket);
    else held?.push(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); resolve(); });
  }).catch((err: unknown) => {
    // Named for the start-up message: the keys to change are the SSH ones.
    throw Object.assign(err as Error, { sshListen: true });
  });
  return {
    server,
    port: (server.address() as net.AddressInfo).port,
    take(onSocket) {
      handler = onSocket;
      for (const socket of held ?? []) if (!socket.destroyed) onSocket(socket);
      held = null;
    },
  };
}

/** Serves the reserved port: the caps and the login deadline, then `onAccept` (ssh2). */
export function acceptSshConnections(reserved: ReservedPort, limits: ListenerLimits, log: Logger, onAccept: (a: Accepted) => void): void {
  const perAddress = new Map<string, number>();
  let total = 0;
  reserved.take((socket) => {
    const address = socket.remoteAddress ?? '';
    const mine = perAddress.get(address) ?? 0;
    if (total >= limits.maxSessions || mine >= limits.maxPerAddress) {
      log.warn({ ip: address, total, from_address: mine }, 'ssh: too many connections, closing a new one');
      socket.destroy();
      return;
    }
    total++;
    perAddress.set(address, mine + 1);
    socket.setNoDelay(true);
    const login = setTimeout(() => {
      log.warn({ ip: address }, 'ssh: no sign-in within the login timeout, closing');
      socket.destroy();
    }, limits.loginTimeoutMs);
    login.unref();
    socket.once('close', () => {
      clearTimeout(login);
      total--;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    socket.on('error', () => { /* reset by the peer: close follows */ });
    onAccept({ socket, address, signedIn: () => clearTimeout(login) });
  });
}
