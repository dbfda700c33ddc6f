import fs from 'node:fs';
import type { Config } from '../../config/schema';
import type { Repository } from '../../db/schema';
import { initBare, repoDir, type ObjectFormat } from '../../git/repo';
import { headBranch } from '../../git/wiki-log';
import { NotFoundError } from '../../lib/errors';

// The wiki of a repository is a bare `{name}.wiki.git` beside the repository directory, as
// Gitea's (repo.WikiPath()); it is created with the first page (or the first push), and it
// follows the repository when it is renamed, transferred or deleted (services/repo/dir-moves.ts).

export const wikiDir = (config: Config, ownerName: string, repoName: string) =>
  repoDir(config.repository.root, ownerName, repoName).replace(/\.git$/, '.wiki.git');

/** `name`, `name.git`, `name.wiki`, `name.wiki.git` from a clone URL's last segment. */
export function splitWikiName(raw: string): { name: string; wiki: boolean } {
  const name = raw.endsWith('.git') ? raw.slice(0, -4) : raw;
  return name.toLowerCase().endsWith('.wiki') ? { name: name.slice(0, -5), wiki: true } : { name, wiki: false };
}

/** The wiki's directory, created (empty, on the instance's default branch) when missing. */
export async function ensureWiki(config: Config, ownerName: string, repo: Repository): Promise<string> {
  const dir = wikiDir(config, ownerName, repo.name);
  if (!fs.existsSync(dir)) {
    await initBare(dir, { objectFormat: repo.object_format_name as ObjectFormat, defaultBranch: config.repository.default_branch });
  }
  return dir;
}

/** The branch pages live on: the wiki's HEAD (Gitea's DefaultWikiBranch). */
export async function wikiBranch(config: Config, dir: string): Promise<string> {
  return (await headBranch(dir)) ?? config.repository.default_branch;
}

/** For git over HTTP: a fetch of a wiki without pages is a 404, a push creates it. */
export async function openWikiForGit(
  config: Config, access: { owner: { name: string }; repo: Repository }, create: boolean,
): Promise<string> {
  if (create) return ensureWiki(config, access.owner.name, access.repo);
  const dir = wikiDir(config, access.owner.name, access.repo.name);
  if (!fs.existsSync(dir)) throw new NotFoundError('repository not found');
  return dir;
}
