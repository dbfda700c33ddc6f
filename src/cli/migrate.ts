import type { Command } from 'commander';
import { closeHearth, openHearth } from '../hearth';
import { createLogger } from '../lib/logger';
import { configFrom, type CommonOptions } from './options';

export function migrateCommand(program: Command): void {
  program.command('migrate').description('create or upgrade the database, then exit')
    .option('-c, --config <file>', 'configuration file (TOML)')
    .action(async (opts: CommonOptions) => {
      const h = await openHearth(configFrom(opts), createLogger('warn'));
      await closeHearth(h);
      console.log(`database ${h.config.database.path} is up to date`);
    });
}
