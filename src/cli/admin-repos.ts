import type { Command } from 'commander';
import { installHooks } from '../git/hooks';
import { withHearth } from './admin';
import { CliError, withCommonOptions, type CommonOptions } from './options';

// Gitea's `admin repo-sync-releases` and `admin regenerate hooks|keys`, for repositories changed
// behind the server's back (restored, copied in, edited by hand).

async function syncReleasesCommand(opts: CommonOptions): Promise<void> {
  await withHearth(opts, async (h) => {
    console.log('Synchronizing repository releases (this may take a while)');
    const { resyncAllReleases } = await import('../services/release/release-sync');
    const r = await resyncAllReleases(h.db, h.config.repository.root);
    console.log(`Synchronized ${r.repos} repositories: ${r.changed} releases followed their tags`);
    if (r.failed.length) throw new CliError(`${r.failed.length} repositories failed: ${r.failed.join('; ')}`);
  });
}

async function regenerateCommand(what: string, opts: CommonOptions): Promise<void> {
  if (what === 'keys') {
    console.log('hearth writes no authorized_keys file (its SSH server and `hearth keys` read the keys from the database): nothing to regenerate');
    return;
  }
  if (what !== 'hooks') throw new CliError(`unknown target '${what}': hooks or keys`);
  // Every repository runs the server's one hooks directory (core.hooksPath at each git call).
  await withHearth(opts, async (h) => { console.log(`hook scripts in ${installHooks(h.config.server.data_dir)} are up to date`); });
}

export function repoAdminCommands(admin: Command): void {
  withCommonOptions(admin.command('repo-sync-releases').description('make every release follow its tag in git (moved: new commit; gone: draft)'))
    .action(syncReleasesCommand);
  withCommonOptions(admin.command('regenerate').description('rewrite what the server generates: hooks (the git hook scripts) or keys')
    .argument('<what>', 'hooks or keys'))
    .action(regenerateCommand);
}
