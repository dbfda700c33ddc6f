import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { countCommits, logCommits, readCommits, resolveCommit, type DiffWanted, type LogCommit } from '../../git/log';
import { repoDir } from '../../git/repo';
import { ConflictError, InvalidError, NotFoundError } from '../../lib/errors';
import { usersByEmails } from '../../models/commit-users';
import { checkReadPath } from './contents-paths';
import type { RepoAccess } from './repos';
import type { Hearth } from '../../hearth';

export const repoDirOf = (config: Config, a: RepoAccess) => repoDir(config.repository.root, a.owner.name, a.repo.name);

/** Commits with the accounts their author and committer emails belong to (lower-cased email keys). */
export type CommitsWithUsers = { commits: LogCommit[]; users: Map<string, User> };

// Gitea's setting.Git.CommitsRangeSize: the page size of path-filtered listings, whatever `limit` says.
const COMMITS_RANGE_SIZE = 50;

export async function withUsers(db: DB, commits: LogCommit[]): Promise<CommitsWithUsers> {
  const emails = commits.flatMap((c) => [c.author.email, c.committer.email]);
  return { commits, users: await usersByEmails(db, emails) };
}

/** As Gitea's git.IsValidRefPattern: text that could name a ref or a commit. */
export function isValidRefPattern(name: string): boolean {
  if (!name || /[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//') || name.includes('/.')) return false;
  return !/^[/.]|[/.]$|\.lock$/.test(name);
}

/** An ISO 8601 date as git reads it, or a 422 naming the parameter. */
function dateParam(field: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidError(`[${field}]: invalid date, expected ISO 8601`, field);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

async function commitOrNotFound(dir: string, rev: string): Promise<string> {
  const id = await resolveCommit(dir, rev);
  if (!id) throw new NotFoundError(`object does not exist [id: ${rev}, rel_path: ]`);
  return id;
}

export type CommitListQuery = DiffWanted & {
  sha?: string; path?: string; not?: string; since?: string; until?: string;
  page: number; limit: number;
};

export type CommitList = CommitsWithUsers & { total: number; page: number; pageSize: number };

/** One page of history from `sha` (default branch), optionally only commits touching `path`. */
export async function listCommits(h: Hearth, access: RepoAccess, q: CommitListQuery): Promise<CommitList> {
  if (access.repo.is_empty) throw new ConflictError('Git Repository is empty.');
  // A path that cannot be in the tree (`..`, NUL, `.git`) has no commits.
  if (q.path && checkReadPath(q.path) === null) throw new NotFoundError('FileCommitsCount');
  const dir = repoDirOf(h.config, access);
  const since = dateParam('since', q.since);
  const until = dateParam('until', q.until);
  const head = q.sha ? await commitOrNotFound(dir, q.sha)
    : await resolveCommit(dir, access.repo.default_branch) ?? await commitOrNotFound(dir, 'HEAD');
  const not = q.not ? [await commitOrNotFound(dir, q.not)] : [];
  const pageSize = q.path ? COMMITS_RANGE_SIZE : q.limit;
  const range = { revs: [head], not, path: q.path || undefined, since, until };
  const [total, commits] = await Promise.all([
    countCommits(dir, range),
    logCommits(dir, { ...range, files: q.files, stat: q.stat, skip: (q.page - 1) * pageSize, limit: pageSize }),
  ]);
  if (q.path && total === 0) throw new NotFoundError('FileCommitsCount');
  return { ...(await withUsers(h.db, commits)), total, page: q.page, pageSize };
}

/** A single commit by id or ref: 422 for text that cannot name one, 404 when none exists. */
export async function getCommit(h: Hearth, access: RepoAccess, sha: string, want: DiffWanted): Promise<CommitsWithUsers> {
  if (!isValidRefPattern(sha)) throw new InvalidError(`no valid ref or sha: ${sha}`);
  const dir = repoDirOf(h.config, access);
  const id = await commitOrNotFound(dir, sha);
  return withUsers(h.db, await readCommits(dir, [id], want));
}

/** Splits `base...head` / `base..head`; a lone ref compares the default branch with it. */
function splitBasehead(basehead: string, defaultBranch: string): [string, string] {
  if (!basehead) return [defaultBranch, defaultBranch];
  for (const sep of ['...', '..']) {
    const at = basehead.indexOf(sep);
    if (at >= 0) return [basehead.slice(0, at), basehead.slice(at + sep.length)];
  }
  return [defaultBranch, basehead];
}

/** `owner:branch` and `owner/repo:branch` name this repository's branch; other repositories are not compared. */
function localRef(access: RepoAccess, ref: string): string {
  const colon = ref.indexOf(':');
  if (colon < 0) return ref;
  const who = ref.slice(0, colon).toLowerCase();
  const full = `${access.owner.name}/${access.repo.name}`.toLowerCase();
  if (who !== access.owner.name.toLowerCase() && who !== full) throw new NotFoundError(`head repository not found: ${ref}`);
  return ref.slice(colon + 1);
}

/** Commits on head that base lacks, newest first, as Gitea's compare lists them. */
export async function compareCommits(
  h: Hearth, access: RepoAccess, basehead: string, want: DiffWanted,
): Promise<CommitsWithUsers> {
  const dir = repoDirOf(h.config, access);
  const [baseRef, headRef] = splitBasehead(basehead, access.repo.default_branch);
  const base = await commitOrNotFound(dir, localRef(access, baseRef));
  const head = await commitOrNotFound(dir, localRef(access, headRef));
  const commits = await logCommits(dir, { revs: [head], not: [base], ...want });
  return withUsers(h.db, commits);
}
