import type { Config } from '../../config/schema';
import type { Repository } from '../../db/schema';
import { listRefNames, refTarget } from '../../git/refs';
import { repoDir, revParse } from '../../git/repo';
import { NotFoundError } from '../../lib/errors';
import type { RepoAccess } from './repos';

// Paths inside a tree and the refs they are read at, for the contents API.

export const dirOfRepo = (config: Config, a: RepoAccess) => repoDir(config.repository.root, a.owner.name, a.repo.name);

/**
 * A path inside the tree as callers give it, or null when it is not acceptable: empty, NUL,
 * absolute, empty / `.` / `..` segments, or a `.git` component in any case. Unlike Gitea,
 * which silently cleans such paths, they are refused so nothing outside the tree is named.
 */
export function checkTreePath(p: string): string | null {
  if (!p || p.includes('\0') || p.startsWith('/')) return null;
  for (const seg of p.split('/')) {
    if (!seg || seg === '.' || seg === '..' || seg.toLowerCase() === '.git') return null;
  }
  return p;
}

/** As checkTreePath for reads: '' (and '.') is the root and one trailing slash is tolerated. */
export function checkReadPath(p: string): string | null {
  if (p === '' || p === '.' || p === '/') return '';
  return checkTreePath(p.endsWith('/') ? p.slice(0, -1) : p);
}

export type RefKind = 'branch' | 'tag' | 'commit';
/** A ref as the caller named it and the commit it resolves to. */
export type RefCommit = { input: string; kind: RefKind; name: string; commit: string };

export const COMMIT_ID = /^[0-9a-f]{7,64}$/i;

async function tagCommit(dir: string, name: string): Promise<string | null> {
  const id = await refTarget(dir, `refs/tags/${name}`);
  return id ? revParse(dir, `${id}^{commit}`) : null;
}

/** A branch, tag (short or `refs/...`) or commit id; the default branch when not given; else 404. */
export async function resolveRefCommit(dir: string, repo: Repository, given: string | undefined): Promise<RefCommit> {
  const input = given || repo.default_branch;
  const notFound = () => new NotFoundError(`no commit found for the ref [ref: ${input}]`);
  if (input.startsWith('-') || input.includes('\0')) throw notFound();
  const branch = input.startsWith('refs/heads/') ? input.slice(11) : input.startsWith('refs/tags/') ? null : input;
  if (branch) {
    const commit = await refTarget(dir, `refs/heads/${branch}`);
    if (commit) return { input, kind: 'branch', name: branch, commit };
  }
  const tag = input.startsWith('refs/tags/') ? input.slice(10) : input.startsWith('refs/heads/') ? null : input;
  if (tag) {
    const commit = await tagCommit(dir, tag);
    if (commit) return { input, kind: 'tag', name: tag, commit };
  }
  if (COMMIT_ID.test(input)) {
    const commit = await revParse(dir, `${input}^{commit}`);
    if (commit) return { input, kind: 'commit', name: input, commit };
  }
  throw notFound();
}

/** How many leading `parts` name one of `names`, shortest first as Gitea tries them; 0 for none. */
export function refPrefix(parts: string[], names: Set<string>): number {
  for (let i = 1; i <= parts.length; i++) if (names.has(parts.slice(0, i).join('/'))) return i;
  return 0;
}

/**
 * The ref and path of `raw/{filepath}` and `media/{filepath}`, inferred as Gitea does: the
 * path (prefixed with `?ref=`) may start with a branch, `HEAD`, a tag or a commit id; when
 * none matches the whole path is read at the default branch.
 */
export async function resolveRawTarget(dir: string, repo: Repository, filepath: string, queryRef: string | undefined) {
  const joined = [queryRef, filepath].filter(Boolean).join('/');
  const parts = joined.split('/');
  const refs = await listRefNames(dir);
  const of = (prefix: string) => new Set(refs.filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length)));
  const rest = (n: number) => parts.slice(n).join('/');
  const b = refPrefix(parts, of('refs/heads/'));
  if (b) return { ref: await resolveRefCommit(dir, repo, `refs/heads/${parts.slice(0, b).join('/')}`), path: rest(b) };
  if (parts[0] === 'HEAD') return { ref: await resolveRefCommit(dir, repo, undefined), path: rest(1) };
  const t = refPrefix(parts, of('refs/tags/'));
  if (t) return { ref: await resolveRefCommit(dir, repo, `refs/tags/${parts.slice(0, t).join('/')}`), path: rest(t) };
  if (parts.length > 1 && COMMIT_ID.test(parts[0]!) && (await revParse(dir, `${parts[0]}^{commit}`))) {
    return { ref: await resolveRefCommit(dir, repo, parts[0]), path: rest(1) };
  }
  return { ref: await resolveRefCommit(dir, repo, undefined), path: filepath };
}
