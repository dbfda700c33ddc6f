import type { Command } from 'commander';
import { withHearth } from './admin';
import { withCommonOptions, type CommonOptions } from './options';

// `hearth admin badge create`: Gitea 1.25 has no way at all to create the badges its API hands
// out; this is hearth's.

type CreateBadgeOptions = CommonOptions & { slug: string; description?: string; imageUrl?: string };

async function createBadgeCommand(opts: CreateBadgeOptions): Promise<void> {
  const { createBadge } = await import('../services/admin/badges');
  await withHearth(opts, async (h) => {
    const badge = await createBadge(h.db, { slug: opts.slug, description: opts.description ?? '', imageUrl: opts.imageUrl ?? '' });
    console.log(`Badge '${badge.slug}' has been successfully created!`);
  });
}

export function badgeCommands(admin: Command): void {
  const badge = admin.command('badge').description('manage user badges');
  withCommonOptions(badge.command('create').description('create a badge (the API gives badges to users by slug)'))
    .requiredOption('--slug <slug>', 'the badge\'s slug, as POST /admin/users/{username}/badges names it')
    .option('--description <text>', 'description', '')
    .option('--image-url <url>', 'URL of the badge\'s image', '')
    .action(createBadgeCommand);
}
