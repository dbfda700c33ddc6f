import type { Config } from '../../config/schema';
import { listBlobSizes } from '../../git/blob-sizes';
import { repoDir, revParse } from '../../git/repo';
import { languageStats } from '../../lib/languages';
import type { RepoAccess } from './repos';

/** Bytes per language on the default branch, computed from the tree's file sizes. */
export async function repoLanguages(config: Config, access: RepoAccess): Promise<Record<string, number>> {
  const { repo, owner } = access;
  if (repo.is_empty) return {};
  const dir = repoDir(config.repository.root, owner.name, repo.name);
  const head = await revParse(dir, `refs/heads/${repo.default_branch}`);
  if (!head) return {};
  return languageStats(await listBlobSizes(dir, head));
}
