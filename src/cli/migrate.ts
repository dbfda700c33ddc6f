import fs from 'node:fs';
import type { Command } from 'commander';
import { closeHearth, openHearth } from '../hearth';
import { createLogger } from '../lib/logger';
import { makeDirectory } from '../lib/pid-lock';
import { maskUrlPassword } from '../lib/url-password';
import { configFrom, dataDirFailure, withCommonOptions, type CommonOptions } from './options';

// The name's end of src/db/postgres/migrate.ts's BASELINE_MIGRATION (not imported: it would load
// PostgreSQL's migrator into every SQLite run of this command).
const POSTGRES_BASELINE_SUFFIX = '-postgres-baseline';

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
      // SQLite's file, or PostgreSQL's URL without its password (a server's database always exists first).
      const postgres = config.database.driver === 'postgres';
      const file = postgres ? maskUrlPassword(config.database.url) : config.database.path;
      const existed = postgres || fs.existsSync(file);
      let applied: string[] = [];
      const h = await openHearth(config, createLogger('warn'), { migrated: (names) => { applied = names; } });
      await closeHearth(h);
      // PostgreSQL's baseline is applied to a database with no tables yet: this run made them.
      if (postgres && applied.some((n) => n.endsWith(POSTGRES_BASELINE_SUFFIX))) {
        console.log(`created hearth's tables in the database ${file} (${applied.length} migrations)`);
      } else if (!existed) console.log(`created the database ${file} (${applied.length} migrations)`);
      else if (applied.length) console.log(`upgraded the database ${file}: ${applied.length} migration${applied.length > 1 ? 's' : ''} applied`);
      else console.log(`database ${file} is up to date`);
    });
}
