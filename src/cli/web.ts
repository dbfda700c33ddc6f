import type { Command } from 'commander';
import type { Config } from '../config/schema';
import type { Logger } from '../lib/logger';
import { GitUnusableError } from '../git/locate';
import { PidLockHeldError } from '../lib/pid-lock';
import { startupDone } from '../lib/v8-tuning';
import { onStopSignals } from './signals';
import { startServer, type RunningServer } from '../server';
import type { InitialAdmin } from '../services/user/setup';
import { configFrom, CliError, dataDirFailure, withCommonOptions, type CommonOptions } from './options';

type WebOptions = CommonOptions & { port?: string; data?: string };

/** Runs the server until SIGINT/SIGTERM; a second signal exits at once. */
export async function runWeb(opts: WebOptions, cmd: Command): Promise<void> {
  // `web` is the default command: commander hands it whatever word it did not know.
  if (cmd.args.length) throw unknownCommand(cmd.args[0]!, cmd.parent ?? cmd);
  const config = configFrom(opts);
  const signals = stopSignals();
  const running = await startServer(config, { announceAdmin: printFirstAdmin(config) })
    .catch((err: unknown) => { throw startupFailure(err, config); });
  const { log } = running.hearth;
  log.info({
    url: running.url, root_url: config.server.root_url, data_dir: config.server.data_dir, ...(running.sshPort !== null ? { ssh_port: running.sshPort } : {}),
  }, 'hearth listening');
  startupDone();
  signals.started(running);
}

/**
 * The first admin's name and password, printed once on stderr (never through the log: it is
 * stored only as a hash), as a block that stands out from the log lines on a terminal and in a
 * file. The `  user name: ` and `  password:  ` lines are what scripts read.
 */
export function printFirstAdmin(config: Config, out: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr) {
  return ({ username, password }: InitialAdmin): void => {
    const rule = '='.repeat(72);
    const bold = (s: string) => (out.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
    out.write([
      '', rule, bold('  hearth: the first site administrator was created'), '',
      `  user name: ${username}`,
      `  password:  ${password}`, '',
      `  Sign in at ${config.server.root_url}user/login (or use it with the API and git).`,
      '  Keep the password now: it is stored only as a hash and will not be shown again.',
      rule, '', '',
    ].join('\n'));
  };
}

/**
 * SIGINT/SIGTERM from the start on: the server answers as soon as it is ready, before the jobs,
 * cron and the runner are up, and Node's default there killed it mid-start (log lines lost,
 * requests cut). A signal while starting is kept and acted on once the start is done; a second,
 * separate one exits at once.
 */
function stopSignals(): { started(running: RunningServer): void } {
  let running: RunningServer | null = null;
  let pending: NodeJS.Signals | null = null;
  let failed = false;
  const stop = (server: RunningServer, signal: NodeJS.Signals | null) => {
    const { log } = server.hearth;
    log.info(signal ? { signal } : {}, 'shutting down');
    // Stopped by a failure (signal null): exit 1 for the service manager, after the same clean stop.
    if (!signal) failed = true;
    server.close().then(() => { log.flush(); process.exitCode = failed ? 1 : 0; }, (err) => {
      // Whatever the failed step left (a timer, a socket) would keep the process up with its
      // port closed: a service manager waiting for the exit would wait for good.
      log.error({ err }, 'shutdown failed');
      log.flush(() => process.exit(1));
      setTimeout(() => process.exit(1), 1000).unref();
    });
  };
  onStopSignals((signal) => { if (running) stop(running, signal); else pending = signal; });
  return {
    started(server) {
      running = server;
      const { log } = server.hearth;
      process.on('uncaughtException', fatalHandler(log, 'uncaught exception'));
      process.on('unhandledRejection', fatalHandler(log, 'unhandled promise rejection'));
      void server.sshFailed.then((err) => {
        const reason = err instanceof Error ? err.message : String(err);
        log.error({ err }, 'the built-in SSH server could not start: hearth stops');
        process.stderr.write(`hearth: the built-in SSH server could not start (${reason}); fix it or set [server] start_ssh_server = false\n`);
        stop(server, null);
      });
      if (pending) stop(server, pending);
    },
  };
}

/**
 * A bug that escaped every handler leaves the process in a state nobody knows: one log line with
 * the stack (not only Node's print on stderr), then exit 1 for the service manager to restart
 * it. The data is safe: every change is a committed SQLite transaction (WAL).
 */
export function fatalHandler(log: Logger, kind: string, exit: (code: number) => void = process.exit): (err: unknown) => void {
  return (err) => {
    log.fatal({ err }, `${kind}: hearth stops`);
    log.flush(() => exit(1));
    setTimeout(() => exit(1), 1000).unref();
  };
}

export function unknownCommand(name: string, program: Command): CliError {
  const names = program.commands.map((c) => c.name()).concat('help');
  return new CliError(`unknown command '${name}'; the commands are: ${names.join(', ')} (see 'hearth help')`);
}

const LISTEN_REASONS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (EADDRINUSE)',
  EACCES: 'permission denied (EACCES: ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'the address is not one of this machine\'s (EADDRNOTAVAIL)',
};

/** The expected ways a start fails, as one line each; anything else is a bug and keeps its stack. */
function startupFailure(err: unknown, config: Config): unknown {
  if (err instanceof PidLockHeldError) return new CliError(`cannot start: data directory ${err.message}`);
  if (err instanceof GitUnusableError) return new CliError(`cannot start: ${err.message}`);
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number; sshListen?: boolean };
  if (e?.syscall === 'listen' && e.code && LISTEN_REASONS[e.code] && e.sshListen) {
    const where = `${e.address?.includes(':') ? `[${e.address}]` : e.address}:${e.port}`;
    return new CliError(`cannot listen for SSH on ${where}: ${LISTEN_REASONS[e.code]}; change [server] ssh_listen_port `
      + 'or ssh_listen_host (HEARTH__SERVER__SSH_LISTEN_PORT), or set start_ssh_server = false');
  }
  if (e?.syscall === 'listen' && e.code && LISTEN_REASONS[e.code]) {
    const host = e.address ?? config.server.http_addr;
    const where = `${host.includes(':') ? `[${host}]` : host}:${e.port ?? config.server.http_port}`;
    const key = e.code === 'EADDRNOTAVAIL'
      ? '[server] http_addr (HEARTH__SERVER__HTTP_ADDR)'
      : '[server] http_port in the configuration, HEARTH__SERVER__HTTP_PORT or --port';
    return new CliError(`cannot listen on ${where}: ${LISTEN_REASONS[e.code]}; change ${key}`);
  }
  return dataDirFailure(err, config.server.data_dir) ?? err;
}

export function webCommand(program: Command): void {
  withCommonOptions(program.command('web', { isDefault: true })
    .description('run the web server (the default command); migrates the database first'))
    .option('-p, --port <port>', 'HTTP port, overriding the configuration')
    .allowExcessArguments(true)
    .action(runWeb);
}
