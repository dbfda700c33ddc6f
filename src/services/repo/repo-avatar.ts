import type { Repository } from '../../db/schema';
import { updateRepo } from '../../models/repo';
import { hashAvatar, prepareAvatar, removeAvatarHash, writeAvatarFile } from '../user/avatars';
import type { Hearth } from '../../hearth';

// A repository's avatar (Gitea's services/repository/avatar.go): stored as user avatars are,
// under avatars/repo/<hash>; the same picture uploaded again changes nothing.

export async function uploadRepoAvatar(h: Hearth, repo: Repository, image: string): Promise<void> {
  const { original, stored } = await prepareAvatar(h.config, image);
  const hash = hashAvatar(repo.id, original);
  if (hash === repo.avatar) return;
  await writeAvatarFile(h, 'repo', hash, stored);
  await updateRepo(h.db, repo.id, { avatar: hash });
  if (repo.avatar) await removeAvatarHash(h, 'repo', repo.avatar);
}

export async function deleteRepoAvatar(h: Hearth, repo: Repository): Promise<void> {
  if (!repo.avatar) return;
  await updateRepo(h.db, repo.id, { avatar: '' });
  await removeRepoAvatarFile(h, repo);
}

/** For repository deletion: the row goes, so does its picture. */
export async function removeRepoAvatarFile(h: Hearth, repo: Repository): Promise<void> {
  if (repo.avatar) await removeAvatarHash(h, 'repo', repo.avatar);
}
