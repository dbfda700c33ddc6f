import type { Command } from 'commander';
import { startupDone } from '../lib/v8-tuning';
import { startServer } from '../server';
import { configFrom, type CommonOptions } from './options';

type WebOptions = CommonOptions & { port?: string; data?: string };

/** Runs the server until SIGINT/SIGTERM; a second signal exits at once. */
export async function runWeb(opts: WebOptions): Promise<void> {
  const config = configFrom(opts);
  const running = await startServer(config);
  const { log } = running.hearth;
  if (running.initialAdmin) {
    const { username, password } = running.initialAdmin;
    // Printed once, on the console, not through the log: it is never stored in plain text.
    process.stderr.write(`\nCreated the first site administrator.\n  user name: ${username}\n  password:  ${password}\nKeep it now: it will not be shown again.\n\n`);
  }
  log.info({ url: running.url, root_url: config.server.root_url, data_dir: config.server.data_dir }, 'hearth listening');
  startupDone();
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
}

export function webCommand(program: Command): void {
  program.command('web', { isDefault: true })
    .description('run the web server (the default command); migrates the database first')
    .option('-c, --config <file>', 'configuration file (TOML)')
    .option('-p, --port <port>', 'HTTP port, overriding the configuration')
    .option('-d, --data <dir>', 'data directory, overriding the configuration')
    .action(runWeb);
}
