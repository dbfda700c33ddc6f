import type { Command } from 'commander';
import { closeHearth, openHearth } from '../hearth';
import { createLogger } from '../lib/logger';
import { makeDirectory } from '../lib/pid-lock';
import { configFrom, dataDirFailure, withCommonOptions, type CommonOptions } from './options';

/** The one command besides `web` that creates the database. */
export function migrateCommand(program: Command): void {
  withCommonOptions(program.command('migrate').description('create or upgrade the database, then exit'))
    .action(async (opts: CommonOptions) => {
      const config = configFrom(opts);
      try {
        makeDirectory(config.server.data_dir);
      } catch (err) {
        throw dataDirFailure(err, config.server.data_dir) ?? err;
      }
      const h = await openHearth(config, createLogger('warn'));
      await closeHearth(h);
      console.log(`database ${h.config.database.path} is up to date`);
    });
}
