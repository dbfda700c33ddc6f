import type { Command } from 'commander';
import { interruptible, Interrupted } from './interrupt';
import { configFrom, CliError, type CommonOptions } from './options';

export function restoreCommand(program: Command): void {
  program.command('restore')
    .description('restore a `hearth dump` archive into an empty or missing data directory')
    .argument('<file>', 'the archive written by hearth dump')
    .requiredOption('-d, --data <dir>', 'data directory to restore into (empty or missing)')
    .option('-c, --config <file>', 'configuration file (TOML) of the restored instance')
    .action(async (file: string, opts: CommonOptions) => {
      // The restore code loads for this command only, not with every start of the server.
      const [{ restoreInstance, RestoreRefused }, { ArchiveError }] = await Promise.all([
        import('../services/backup/restore'), import('../services/backup/extract'),
      ]);
      try {
        await interruptible((signal) => restoreInstance(configFrom(opts), file, process.stderr, signal));
      } catch (err) {
        if (err instanceof RestoreRefused || err instanceof ArchiveError) throw new CliError(err.message);
        if (err instanceof Interrupted) throw new CliError(`restore ${err.message}: nothing was left behind`);
        throw err;
      }
    });
}
