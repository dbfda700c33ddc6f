import net from 'node:net';
import type { Logger } from '../lib/logger';

// hearth owns the SSH server's TCP listener: ssh2 sees a connection only once the client sent
// its first line, so the caps and the login deadline start here, at accept. TCP_NODELAY on every
// socket: without it each SSH round trip waits ~40 ms on delayed ACKs (Nagle).

export type ListenerLimits = { maxSessions: number; maxPerAddress: number; loginTimeoutMs: number };

/** What the SSH layer learns of one accepted socket, and how it tells the listener it signed in. */
export type Accepted = { socket: net.Socket; address: string; signedIn: () => void };

export function createSshListener(limits: ListenerLimits, log: Logger, onAccept: (a: Accepted) => void): net.Server {
  const perAddress = new Map<string, number>();
  let total = 0;
  const server = net.createServer({ noDelay: true, pauseOnConnect: false }, (socket) => {
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
  return server;
}
