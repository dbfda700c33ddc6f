import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Repository } from '../../db/schema';
import { updateRepo } from '../../models/repo';
import { hashAvatar, prepareAvatar, removeAvatarHash, writeAvatarFile } from '../user/avatars';

// A repository's avatar (Gitea's services/repository/avatar.go): stored as user avatars are,
// under avatars/repo/<hash>; the same picture uploaded again changes nothing.

export async function uploadRepoAvatar(db: DB, config: Config, repo: Repository, image: string): Promise<void> {
  const { original, stored } = await prepareAvatar(config, image);
  const hash = hashAvatar(repo.id, original);
  if (hash === repo.avatar) return;
  writeAvatarFile(config, 'repo', hash, stored);
  await updateRepo(db, repo.id, { avatar: hash });
  if (repo.avatar) removeAvatarHash(config, 'repo', repo.avatar);
}

export async function deleteRepoAvatar(db: DB, config: Config, repo: Repository): Promise<void> {
  if (!repo.avatar) return;
  await updateRepo(db, repo.id, { avatar: '' });
  removeRepoAvatarFile(config, repo);
}

/** For repository deletion: the row goes, so does its picture. */
export function removeRepoAvatarFile(config: Config, repo: Repository): void {
  if (repo.avatar) removeAvatarHash(config, 'repo', repo.avatar);
}
