import type { Command } from 'commander';
import { ArchiveError } from '../services/backup/extract';
import { restoreInstance, RestoreRefused } from '../services/backup/restore';
import { configFrom, CliError, type CommonOptions } from './options';

export function restoreCommand(program: Command): void {
  program.command('restore')
    .description('restore a `hearth dump` archive into an empty or missing data directory')
    .argument('<file>', 'the archive written by hearth dump')
    .requiredOption('-d, --data <dir>', 'data directory to restore into (empty or missing)')
    .option('-c, --config <file>', 'configuration file (TOML) of the restored instance')
    .action(async (file: string, opts: CommonOptions) => {
      try {
        await restoreInstance(configFrom(opts), file);
      } catch (err) {
        if (err instanceof RestoreRefused || err instanceof ArchiveError) throw new CliError(err.message);
        throw err;
      }
    });
}
