import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { blameFile, type BlameHunk } from '../../git/blame';
import { Lru } from '../../lib/lru';
import { NotFoundError } from '../../lib/errors';
import { usersByEmails } from '../../models/commit-users';
import { highlightedWithin, plainLines } from './highlight-wait';
import { readContentsAt } from '../repo/contents';
import { dirOfRepo } from '../repo/contents-paths';
import type { RepoAccess } from '../repo/repos';
import { resolveTypedRef, type WebRefKind, type WebTargetWithRefs } from './refs';

// `blame/{branch|tag|commit}/{ref}/{path}`: git blame --porcelain of a file, grouped by commit,
// each line highlighted as the file view shows it. A blame at a commit never changes: it is kept
// by commit and path, so a file's blame is read from git once per commit.

/** Files blamed up to this size; git blame of larger ones takes seconds. */
export const BLAME_MAX = 1024 * 1024;

export type BlamePage = {
  target: WebTargetWithRefs;
  /** null: the file is too large or binary to blame here. */
  hunks: BlameHunk[] | null;
  /** The lines highlighted, in file order. */
  lines: string[];
  users: Map<string, User>;
};

const blames = new Lru<string, BlameHunk[]>(200, (h) => h.reduce((n, x) => n + x.lines.reduce((m, l) => m + l.length + 16, 0), 0), 32 * 1024 * 1024);

async function blameAt(dir: string, commit: string, path: string): Promise<BlameHunk[] | null> {
  const key = `${dir}\0${commit}\0${path}`;
  const hit = blames.get(key);
  if (hit) return hit;
  const hunks = await blameFile(dir, commit, path);
  if (hunks) blames.set(key, hunks);
  return hunks;
}

export async function blamePage(db: DB, config: Config, access: RepoAccess, kind: WebRefKind, rest: string): Promise<BlamePage> {
  if (access.repo.is_empty) throw new NotFoundError();
  const target = await resolveTypedRef(config, access, kind, rest);
  const view = await readContentsAt(config, access, target.path, target.ref, false);
  if (!('file' in view) || view.file.type !== 'file') throw new NotFoundError();
  const { entry } = view.file;
  if (entry.size > BLAME_MAX) return { target, hunks: null, lines: [], users: new Map() };
  const hunks = await blameAt(dirOfRepo(config, access), target.ref.commit, target.path);
  if (!hunks) throw new NotFoundError();
  const text = hunks.flatMap((h) => h.lines);
  if (text.some((l) => l.includes('\0'))) return { target, hunks: null, lines: [], users: new Map() };
  const joined = `${text.join('\n')}\n`;
  const lines = (await highlightedWithin(entry.sha, entry.name, joined)) ?? plainLines(joined);
  const users = await usersByEmails(db, [...new Set(hunks.map((h) => h.commit.authorEmail))]);
  return { target, hunks, lines, users };
}
