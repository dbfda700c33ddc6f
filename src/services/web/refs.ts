import type { Config } from '../../config/schema';
import { readRefTips, type RefTips } from '../../git/ref-tips';
import { revParse } from '../../git/repo';
import { NotFoundError } from '../../lib/errors';
import { checkReadPath, COMMIT_ID, dirOfRepo, refPrefix, resolveRawTarget, type RefCommit } from '../repo/contents-paths';
import type { RepoAccess } from '../repo/repos';

// The `{kind}/{ref}/{path}` part of web URLs (src, raw, media, commits): Gitea's
// RepoRefByType. Branch and tag names may hold slashes, so the shortest leading run of segments
// that names an existing ref is the ref and the rest is the path, as Gitea tries them.

export type WebRefKind = 'branch' | 'tag' | 'commit';
export type WebTarget = { ref: RefCommit; path: string };
/** A target and every branch and tag, read together (the branch switcher lists them). */
export type WebTargetWithRefs = WebTarget & { tips: RefTips };

export const isWebRefKind = (s: string): s is WebRefKind => s === 'branch' || s === 'tag' || s === 'commit';

/** `{kind}/{ref...}` split into the kind and the rest; null when it does not start with a kind. */
export function splitRefKind(rest: string): { kind: WebRefKind; rest: string } | null {
  const slash = rest.indexOf('/');
  const kind = rest.slice(0, slash);
  return slash > 0 && isWebRefKind(kind) ? { kind, rest: rest.slice(slash + 1) } : null;
}

const notFound = (kind: string, name: string) => new NotFoundError(`${kind} does not exist [name: ${name}]`);

/**
 * The ref and the path inside its tree; 404 when no ref of that kind starts the path. Branches
 * and tags come from one read of the refs, which the caller gets too.
 */
export async function resolveTypedRef(config: Config, access: RepoAccess, kind: WebRefKind, rest: string): Promise<WebTargetWithRefs> {
  const dir = dirOfRepo(config, access);
  const parts = rest.split('/');
  const tipsRead = readRefTips(dir);
  // Awaited below unless the ref is refused first: never an unhandled rejection then.
  tipsRead.catch(() => undefined);
  let ref: RefCommit;
  let used: number;
  if (kind === 'commit') {
    const id = parts[0] ?? '';
    const commit = COMMIT_ID.test(id) ? await revParse(dir, `${id}^{commit}`) : null;
    if (!commit) throw notFound('commit', id);
    ref = { input: id, kind: 'commit', name: id, commit };
    used = 1;
  } else {
    const named = (await tipsRead)[kind === 'branch' ? 'branches' : 'tags'];
    used = refPrefix(parts, new Set(named.keys()));
    if (!used) throw notFound(kind, rest);
    const name = parts.slice(0, used).join('/');
    ref = { input: name, kind, name, commit: named.get(name)! };
  }
  const path = checkReadPath(parts.slice(used).join('/'));
  if (path === null) throw new NotFoundError('path contains a malformed path component');
  return { ref, path, tips: await tipsRead };
}

/**
 * Gitea's older `raw/{ref}/{path}` and `src/{ref}/{path}`: a branch, then a tag, then a commit
 * id may start the path; otherwise the whole path is read at the default branch.
 */
export async function resolveLegacyRef(config: Config, access: RepoAccess, rest: string): Promise<WebTarget> {
  if (access.repo.is_empty) throw new NotFoundError();
  const target = await resolveRawTarget(dirOfRepo(config, access), access.repo, rest, undefined);
  const path = checkReadPath(target.path);
  if (path === null) throw new NotFoundError('path contains a malformed path component');
  return { ref: target.ref, path };
}

/** The URL segment of a resolved ref (`branch/main`, `tag/v1`, `commit/<id>`), unescaped. */
export const refSegment = (ref: RefCommit): string =>
  `${ref.kind}/${ref.kind === 'commit' ? ref.commit : ref.name}`;

export { COMMIT_ID };
