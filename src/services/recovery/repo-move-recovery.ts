import fs from 'node:fs';
import { ownerDir, removeRepoDir, repoDir } from '../../git/repo';
import { getAttachmentByUuid } from '../../models/attachment';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { removeAttachmentFile } from '../issue/attachment-files';
import { removeOrphanObjects } from '../lfs/gc';
import { moveIfPresent, type DirMove } from '../repo/dir-moves';
import { removeAvatarHash } from '../user/avatars';
import type { Hearth } from '../../hearth';

// Recovery of the directory moves of a rename, transfer, owner rename or delete that a crash
// interrupted (services/repo/dir-moves.ts). The rows are the truth: where they say the
// repository (or owner) is, the directories go; each step only moves what is still where the
// other side left it, so running again after a crash during recovery does no harm.

type MovePayload = { moves: DirMove[] };
export type RepoMovePayload = MovePayload & { repoId: number };
export type OwnerMovePayload = MovePayload & { userId: number };
export type RepoDeletePayload = MovePayload & { repoId: number; avatar?: string; attachments?: string[]; lfsOids?: string[] };

/** Moves each pair src → dst that can move; one line a move or a conflict (both present). */
function moveAll(pairs: DirMove[]): string[] {
  const out: string[] = [];
  for (const { from, to } of pairs) {
    if (from === to || !fs.existsSync(from)) continue;
    if (fs.existsSync(to) && fs.readdirSync(to).length) {
      out.push(`both ${from} and ${to} exist: left as they are`);
      continue;
    }
    if (moveIfPresent(from, to)) out.push(`moved ${from} to ${to}`);
  }
  return out;
}

/** Forward when the rows are at the moves' destination, backwards when at their source. */
function settle(moves: DirMove[], current: string, what: string): string {
  const first = moves[0];
  if (!first) return 'nothing to move';
  if (current === first.to) return ['finished', ...moveAll(moves)].join('; ');
  if (current === first.from) return ['undone', ...moveAll([...moves].reverse().map((m) => ({ from: m.to, to: m.from })))].join('; ');
  return `${what} is at ${current}, neither side of the move: left as is`;
}

/** 'repo.move' (rename, transfer): the directory and wiki follow the row's owner and name. */
export async function recoverRepoMove(h: Hearth, payload: RepoMovePayload): Promise<string> {
  const repo = await getRepoById(h.db, payload.repoId);
  if (!repo) return `repository ${payload.repoId} is gone: nothing to move`;
  const owner = await getUserById(h.db, repo.owner_id);
  if (!owner) return `the owner of repository ${payload.repoId} is gone: nothing to move`;
  return settle(payload.moves, repoDir(h.config.repository.root, owner.name, repo.name), `repository ${payload.repoId}`);
}

/** 'owner.move' (user or organization rename): the owner's directory follows the user row's name. */
export async function recoverOwnerMove(h: Hearth, payload: OwnerMovePayload): Promise<string> {
  const user = await getUserById(h.db, payload.userId);
  if (!user) return `owner ${payload.userId} is gone: nothing to move`;
  return settle(payload.moves, ownerDir(h.config.repository.root, user.name), `owner ${payload.userId}`);
}

/**
 * 'repo.delete': with the row still there (the crash came before the commit) the directories
 * moved aside come back; with the row gone they are removed, and what the delete removes after
 * the commit goes too (attachment files no row names, LFS bytes no repository uses, the avatar).
 */
export async function recoverRepoDelete(h: Hearth, payload: RepoDeletePayload): Promise<string> {
  if (await getRepoById(h.db, payload.repoId)) {
    return ['undone', ...moveAll(payload.moves.map((m) => ({ from: m.to, to: m.from })))].join('; ');
  }
  for (const m of payload.moves) removeRepoDir(m.to);
  for (const uuid of payload.attachments ?? []) {
    if (uuid.length >= 2 && !(await getAttachmentByUuid(h.db, uuid))) await removeAttachmentFile(h, uuid);
  }
  await removeOrphanObjects(h.db, h.blobs, payload.lfsOids ?? []);
  if (payload.avatar) await removeAvatarHash(h, 'repo', payload.avatar);
  return `finished: removed ${payload.moves.map((m) => m.to).join(', ')}`;
}
