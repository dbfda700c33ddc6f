import './lib/v8-tuning';
import { Command, CommanderError } from 'commander';
import { ConfigError } from './config/load';
import { adminCommands } from './cli/admin';
import { dumpCommand } from './cli/dump';
import { doctorCommand } from './cli/doctor';
import { CliError } from './cli/options';
import { migrateCommand } from './cli/migrate';
import { restoreCommand } from './cli/restore';
import { webCommand } from './cli/web';
import { AppError } from './lib/errors';
import { HEARTH_VERSION, serverVersion } from './lib/version';

const program = new Command('hearth')
  .description('A Gitea-compatible git forge in one executable')
  .version(`hearth ${HEARTH_VERSION} (Gitea API ${serverVersion()})`, '-v, --version')
  .showHelpAfterError();

webCommand(program);
adminCommands(program);
migrateCommand(program);
dumpCommand(program);
restoreCommand(program);
doctorCommand(program);

// Inside the single executable argv is [node, script, ...]: same shape as `node main.js`.
program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  // Expected failures get one clear line; anything else keeps its stack for a bug report.
  const known = err instanceof ConfigError || err instanceof CliError || err instanceof AppError;
  process.stderr.write(`hearth: ${known ? (err as Error).message : (err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
