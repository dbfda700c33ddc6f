import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { markViewed, unmarkViewed, viewedBlobs } from '../../models/pull-viewed';
import type { RepoAccess } from '../repo/repos';
import { loadPull } from './pull-views';
import type { Hearth } from '../../hearth';

// The "Viewed" box of each file of a pull request (Gitea's review state): kept per user, pull
// request and path with the blob the reader saw, so a push that changes the file brings it
// back unviewed while untouched files stay ticked.

const BLOB = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

export type ViewedFile = { path: string; blob: string };

/** Ticks or unticks a file: `blob` is the file's blob at the head the reader saw. */
export async function setFileViewed(
  h: Hearth, access: RepoAccess, doer: User, index: number, file: ViewedFile, viewed: boolean,
): Promise<void> {
  if (!file.path || file.path.length > 4096 || file.path.includes('\0')) throw new InvalidError('No such file in this pull request.', 'path');
  if (viewed && !BLOB.test(file.blob)) throw new InvalidError('The file version is not a blob id.', 'blob');
  const { issue } = await loadPull(h, access, doer, index, false);
  if (viewed) await markViewed(h.db, { userId: doer.id, issueId: issue.id, path: file.path, blob: file.blob, now: nowUnix() });
  else await unmarkViewed(h.db, doer.id, issue.id, file.path);
}

/** The files the user has viewed as they are now (same blob), of those given. */
export async function viewedFiles(db: DB, user: User | null, issueId: number, files: ViewedFile[]): Promise<Set<string>> {
  if (!user) return new Set();
  const seen = await viewedBlobs(db, user.id, issueId);
  return new Set(files.filter((f) => seen.get(f.path) === f.blob).map((f) => f.path));
}
