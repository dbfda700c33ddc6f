import path from 'node:path';
import type { Command } from 'commander';
import { configFrom, CliError, type CommonOptions } from './options';

type DumpOptions = CommonOptions & {
  output?: string;
  skipRepos?: boolean;
  skipAttachments?: boolean;
  skipPackages?: boolean;
  skipAvatars?: boolean;
};

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
    .action(async (opts: DumpOptions) => {
      const config = configFrom(opts);
      const output = opts.output === '-' ? '-' : path.resolve(opts.output ?? defaultName());
      const skip = { repos: opts.skipRepos, attachments: opts.skipAttachments, packages: opts.skipPackages, avatars: opts.skipAvatars };
      try {
        // The backup code loads for this command only, not with every start of the server.
        const { dumpInstance } = await import('../services/backup/dump');
        await dumpInstance(config, output, skip);
      } catch (err) {
        throw new CliError(`dump failed: ${(err as Error).message}`);
      }
    });
}
