import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/load';
import { DatabaseConnectError } from '../db/connect';
import { actionsCommand } from './actions';
import { adminCommands } from './admin';
import { dumpCommand } from './dump';
import { doctorCommand } from './doctor';
import { CliError } from './options';
import { migrateCommand } from './migrate';
import { restoreCommand } from './restore';
import { runnerCommand } from './runner';
import { webCommand } from './web';
import { AppError } from '../lib/errors';
import { versionLine } from '../lib/version';

/** Every command of the CLI; loaded only when a command runs (see src/main.ts). */
export function runProgram(): void {
  const program = new Command('hearth')
    .description('A Gitea-compatible git forge in one executable')
    .version(versionLine(), '-v, --version')
    .showHelpAfterError();

  webCommand(program);
  adminCommands(program);
  migrateCommand(program);
  dumpCommand(program);
  restoreCommand(program);
  doctorCommand(program);
  runnerCommand(program);
  actionsCommand(program);
  // Listed for `hearth help`: src/main.ts runs these two (src/cli/ssh-commands.ts) before the CLI loads.
  program.command('serv').description('forced command of the system sshd: runs SSH_ORIGINAL_COMMAND for key-N (see the README)')
    .argument('<key-N>').allowUnknownOption(true);
  program.command('keys').description('AuthorizedKeysCommand of the system sshd: keys -e git -u %u -t %t -k %k (see the README)')
    .allowUnknownOption(true);

  // Inside the single executable argv is [node, script, ...]: same shape as `node main.js`.
  program.parseAsync(process.argv).catch((err: unknown) => {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    // Expected failures get one clear line; anything else keeps its stack for a bug report.
    const known = err instanceof ConfigError || err instanceof CliError || err instanceof AppError || err instanceof DatabaseConnectError;
    process.stderr.write(`hearth: ${known ? (err as Error).message : (err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  });
}
