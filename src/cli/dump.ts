import path from 'node:path';
import type { Command } from 'commander';
import { interruptible } from './interrupt';
import { configFrom, CliError, type CommonOptions } from './options';

type DumpOptions = CommonOptions & {
  output?: string;
  skipRepos?: boolean;
  skipAttachments?: boolean;
  skipPackages?: boolean;
  skipAvatars?: boolean;
  // Gitea's names for the same (gitea dump), so its backup scripts read here too.
  file?: string;
  type?: string;
  skipRepository?: boolean;
  skipAttachmentData?: boolean;
  skipPackageData?: boolean;
  skipLfsData?: boolean;
  skipDb?: boolean;
};

/** Gitea's dump flags on hearth's: the same choices, or one line saying why not. */
function giteaFlags(opts: DumpOptions): { output?: string; skip: { repos?: boolean; attachments?: boolean; packages?: boolean; avatars?: boolean } } {
  if (opts.file !== undefined && opts.output !== undefined) throw new CliError('--file and --output name the same archive: give one');
  if (opts.skipDb) throw new CliError('--skip-db: the database is what a dump is for; hearth always writes it');
  if (Boolean(opts.skipPackageData) !== Boolean(opts.skipLfsData) && !opts.skipPackages) {
    throw new CliError('package files and LFS objects share one blob store in hearth: --skip-package-data and --skip-lfs-data go together (or --skip-packages)');
  }
  let output = opts.output ?? opts.file;
  if (opts.type !== undefined) {
    if (opts.type !== 'tar' && opts.type !== 'tar.gz') throw new CliError(`--type ${opts.type}: hearth writes tar and tar.gz archives`);
    if (output === undefined) output = defaultName().replace(/\.tar\.gz$/, `.${opts.type}`);
    else if (output !== '-' && !output.endsWith(`.${opts.type}`)) throw new CliError(`--type ${opts.type} does not match the archive's name ${output}`);
    else if (output === '-' && opts.type !== 'tar') throw new CliError('a dump to stdout is a tar: --type tar');
  }
  return {
    output,
    skip: {
      repos: opts.skipRepos || opts.skipRepository,
      attachments: opts.skipAttachments || opts.skipAttachmentData,
      packages: opts.skipPackages || (opts.skipPackageData && opts.skipLfsData),
      avatars: opts.skipAvatars,
    },
  };
}

const defaultName = () => `hearth-dump-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}.tar.gz`;

export function dumpCommand(program: Command): void {
  program.command('dump')
    .description('write one archive (tar, or tar.gz by its name) of the instance while it keeps serving')
    .option('-c, --config <file>', 'configuration file (TOML)')
    .option('-d, --data <dir>', 'data directory, overriding the configuration')
    .option('-o, --output <file>', 'archive to write (.tar or .tar.gz; "-" for a tar on stdout)')
    .option('--skip-repos', 'leave the repositories out')
    .option('--skip-attachments', 'leave issue and release attachments out')
    .option('--skip-packages', 'leave package files and LFS objects out (they share one blob store)')
    .option('--skip-avatars', 'leave uploaded avatars out')
    .option('-f, --file <file>', 'Gitea\'s name for --output')
    .option('--type <type>', 'tar or tar.gz (by default from the archive\'s name)')
    .option('-R, --skip-repository', 'Gitea\'s name for --skip-repos')
    .option('--skip-attachment-data', 'Gitea\'s name for --skip-attachments')
    .option('--skip-package-data', 'with --skip-lfs-data: Gitea\'s names for --skip-packages')
    .option('--skip-lfs-data', 'with --skip-package-data: Gitea\'s names for --skip-packages')
    .option('--skip-db', 'refused: the database is always written')
    .option('-L, --skip-log', 'accepted for Gitea\'s scripts: logs are never dumped')
    .option('--skip-custom-dir', 'accepted for Gitea\'s scripts: hearth has no custom directory')
    .option('--skip-index', 'accepted for Gitea\'s scripts: the search index lives in the database')
    .option('--skip-repo-archives', 'accepted for Gitea\'s scripts: hearth keeps no repository archives')
    .action(async (opts: DumpOptions) => {
      const config = configFrom(opts);
      // The archive holds SQLite's file (an online backup): PostgreSQL has its own tools for that.
      if (config.database.driver === 'postgres') {
        throw new CliError('hearth dump archives a SQLite instance; this one\'s database is PostgreSQL: back it up with pg_dump, '
          + 'and the data directory (repositories, attachments, avatars, packages) with a file backup');
      }
      const { output: named, skip } = giteaFlags(opts);
      const output = named === '-' ? '-' : path.resolve(named ?? defaultName());
      try {
        // The backup code loads for this command only, not with every start of the server.
        const { dumpInstance } = await import('../services/backup/dump');
        await interruptible((signal) => dumpInstance(config, output, skip, process.stderr, signal));
      } catch (err) {
        throw new CliError(`dump failed: ${(err as Error).message}`);
      }
    });
}
