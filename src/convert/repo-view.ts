import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import type { RepoAccess, RepoWithParent } from '../services/repo/repos';
import { toApiRepo, type ApiRepository, type RepoView } from './repo';

/** A repository with its parent (forks), as the API shows it to `viewer`. */
export function toApiRepoWithParent(config: Config, r: (RepoWithParent | RepoAccess) & Pick<RepoView, 'transfer'>, viewer: User | null): ApiRepository {
  const parent = 'parent' in r && r.parent ? toApiRepo(config, r.parent, viewer) : null;
  return toApiRepo(config, { ...r, parent }, viewer);
}
