import type { Command } from 'commander';
import { runAsActor } from '../services/audit/actor';
import { withHearth } from './admin';
import { withCommonOptions, type CommonOptions } from './options';

// `hearth admin advisories import <dir-or-zip>`: the advisory database of dependency alerts,
// imported offline from OSV JSON files (a directory, a zip, or one file).

async function importCommand(source: string, opts: CommonOptions): Promise<void> {
  // The importer (and the alert services) load when the command runs, never at a server's start.
  const { importAdvisories } = await import('../services/security/import');
  await withHearth(opts, (h) => runAsActor({ id: -1, name: 'CLI', ip: '' }, async () => {
    const r = await importAdvisories(h, source);
    console.log(`Read ${r.files} files: ${r.advisories} advisories (${r.changed} new or changed, ${r.skipped} files skipped); `
      + `${r.repositories} repositories matched again, ${r.opened} alerts opened.`);
  }));
}

export function advisoryCommands(admin: Command): void {
  const advisories = admin.command('advisories').description('the advisory database of dependency alerts');
  withCommonOptions(advisories.command('import').description('import OSV advisories (JSON files in a directory, a zip, or one file)'))
    .argument('<source>', 'a directory of OSV JSON files, a zip of them, or one file')
    .action(importCommand);
}
