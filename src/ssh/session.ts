import type { Connection, ServerChannel, Session } from 'ssh2';
import type { Hearth } from '../hearth';
import { runKeyCommand, splitCommand } from '../services/git-transport/ssh-command';
import type { KeyIdentity } from '../services/git-transport/target';
import { countSshBytes, countSshSession } from '../services/metrics/registry';

// The sessions of a signed-in connection: `exec` runs a command (git, git-lfs-authenticate),
// `shell` greets, `env` takes GIT_PROTOCOL (protocol v2); no pty, no subsystem, no forwarding.
// A connection running no command for ssh_idle_timeout is closed; a running one never is by
// time (a long push), only by its keepalives failing.

export type Idle = { busy: () => void; done: () => void };

/** Counts the commands running on a connection and closes it after idleMs without one. */
export function idleTimer(client: Connection, idleMs: number): Idle & { stop: () => void; closeIfIdle: () => void } {
  let running = 0;
  let timer: NodeJS.Timeout | null = null;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = running ? null : setTimeout(() => client.end(), idleMs);
    timer?.unref();
  };
  arm();
  return {
    busy: () => { running++; arm(); },
    done: () => { running--; arm(); },
    stop: () => { if (timer) clearTimeout(timer); },
    /** At shutdown: end now unless a command runs, and as soon as the last one ends. */
    closeIfIdle: () => {
      idleMs = 0;
      arm();
    },
  };
}

const kindOf = (command: string | undefined): string => {
  if (!command?.trim()) return 'greeting';
  const words = splitCommand(command) ?? [];
  const verb = words[0] === 'git' ? `git-${words[1] ?? ''}` : words[0] ?? '';
  return /^git-(upload-pack|receive-pack|upload-archive|lfs-authenticate)$/.test(verb) ? verb.slice(4) : 'refused';
};

async function run(h: Hearth, who: KeyIdentity, channel: ServerChannel, command: string | undefined, protocol: string | undefined): Promise<void> {
  const gone = new AbortController();
  channel.on('close', () => gone.abort());
  channel.on('error', () => gone.abort());
  channel.stderr.on('error', () => gone.abort());
  countSshSession(kindOf(command));
  const code = await runKeyCommand(h, who, command, { gitProtocol: protocol }, {
    stdin: channel, stdout: channel, stderr: channel.stderr, signal: gone.signal, onBytes: countSshBytes,
  }).catch((err: unknown) => {
    h.log.error({ err }, 'ssh session failed');
    return 1;
  });
  if (gone.signal.aborted) return;
  channel.exit(code);
  channel.end();
}

/** Sessions one connection may have open at once (OpenSSH's MaxSessions default). */
export const MAX_SESSIONS_PER_CONNECTION = 10;

export function serveSession(h: Hearth, who: KeyIdentity, session: Session, idle: Idle): void {
  let protocol: string | undefined;
  let started = false;
  const start = (channel: ServerChannel | undefined, command: string | undefined) => {
    // ssh2 hands no channel when the client went away meanwhile.
    if (!channel) return;
    if (started) return channel.close();
    started = true;
    idle.busy();
    void run(h, who, channel, command, protocol).finally(() => idle.done());
  };
  session.on('env', (accept, reject, info) => {
    if (info.key === 'GIT_PROTOCOL') {
      protocol = info.val;
      accept?.();
    } else reject?.();
  });
  // A terminal is granted and never used: `ssh git@host` (which asks for one) gets the greeting
  // without a warning; nothing runs in it.
  session.on('pty', (accept) => accept?.());
  session.on('window-change', (accept) => accept?.());
  session.on('shell', (accept) => start(accept(), undefined));
  session.on('exec', (accept, _reject, info) => start(accept(), info.command));
  session.on('subsystem', (_accept, reject) => reject());
  session.on('x11', (_accept, reject) => reject());
  session.on('auth-agent', (_accept, reject) => reject?.());
  session.on('signal', (accept) => accept?.());
}
