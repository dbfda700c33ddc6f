import type { Command } from 'commander';
import type { Config } from '../config/schema';
import type { Logger } from '../lib/logger';
import { GitUnusableError } from '../git/locate';
import { PidLockHeldError } from '../lib/pid-lock';
import { startupDone } from '../lib/v8-tuning';
import { startServer, type RunningServer } from '../server';
import { configFrom, CliError, dataDirFailure, withCommonOptions, type CommonOptions } from './options';

type WebOptions = CommonOptions & { port?: string; data?: string };

/** Runs the server until SIGINT/SIGTERM; a second signal exits at once. */
export async function runWeb(opts: WebOptions, cmd: Command): Promise<void> {
  // `web` is the default command: commander hands it whatever word it did not know.
  if (cmd.args.length) throw unknownCommand(cmd.args[0]!, cmd.parent ?? cmd);
  const config = configFrom(opts);
  const early = signalsWhileStarting();
  const running = await startServer(config).catch((err: unknown) => { throw startupFailure(err, config); });
  const { log } = running.hearth;
  if (running.initialAdmin) {
    const { username, password } = running.initialAdmin;
    // Printed once, on the console, not through the log: it is never stored in plain text.
    process.stderr.write(`\nCreated the first site administrator.\n  user name: ${username}\n  password:  ${password}\nKeep it now: it will not be shown again.\n\n`);
  }
  log.info({
    url: running.url, root_url: config.server.root_url, data_dir: config.server.data_dir, ...(running.sshPort !== null ? { ssh_port: running.sshPort } : {}),
  }, 'hearth listening');
  startupDone();
  stopOnSignals(running, early.take());
}

/**
 * SIGINT/SIGTERM while the server starts: the server answers as soon as it listens, before the
 * first admin, the jobs, cron and the runner are up, and Node's default there killed it mid-start
 * (log lines lost, requests cut). The signal is kept and acted on once the start is done; a
 * second one exits at once.
 */
function signalsWhileStarting(): { take(): string | null } {
  let got: string | null = null;
  const handlers = { SIGINT: () => record('SIGINT'), SIGTERM: () => record('SIGTERM') };
  const record = (signal: string) => {
    if (got) process.exit(1);
    got = signal;
  };
  for (const [signal, fn] of Object.entries(handlers)) process.on(signal, fn);
  return {
    take: () => {
      for (const [signal, fn] of Object.entries(handlers)) process.off(signal, fn);
      return got;
    },
  };
}

function stopOnSignals(running: RunningServer, pending: string | null): void {
  const { log } = running.hearth;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'shutting down');
    running.close().then(() => { log.flush(); process.exitCode = 0; }, (err) => {
      log.error({ err }, 'shutdown failed');
      process.exitCode = 1;
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('uncaughtException', fatalHandler(log, 'uncaught exception'));
  process.on('unhandledRejection', fatalHandler(log, 'unhandled promise rejection'));
  if (pending) stop(pending);
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
