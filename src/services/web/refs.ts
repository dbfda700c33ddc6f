import type { Config } from '../../config/schema';
import { listRefNames } from '../../git/refs';
import { revParse } from '../../git/repo';
import { NotFoundError } from '../../lib/errors';
import { checkReadPath, COMMIT_ID, dirOfRepo, refPrefix, resolveRawTarget, resolveRefCommit, type RefCommit } from '../repo/contents-paths';
import type { RepoAccess } from '../repo/repos';

// The `{kind}/{ref}/{path}` part of web URLs (src, raw, media, commits): Gitea's
// RepoRefByType. Branch and tag names may hold slashes, so the shortest leading run of segments
// that names an existing ref is the ref and the rest is the path, as Gitea tries them.

export type WebRefKind = 'branch' | 'tag' | 'commit';
export type WebTarget = { ref: RefCommit; path: string };

export const isWebRefKind = (s: string): s is WebRefKind => s === 'branch' || s === 'tag' || s === 'commit';

/** `{kind}/{ref...}` split into the kind and the rest; null when it does not start with a kind. */
export function splitRefKind(rest: string): { kind: WebRefKind; rest: string } | null {
  const slash = rest.indexOf('/');
  const kind = rest.slice(0, slash);
  return slash > 0 && isWebRefKind(kind) ? { kind, rest: rest.slice(slash + 1) } : null;
}

const notFound = (kind: string, name: string) => new NotFoundError(`${kind} does not exist [name: ${name}]`);

/** The ref and the path inside its tree; 404 when no ref of that kind starts the path. */
export async function resolveTypedRef(config: Config, access: RepoAccess, kind: WebRefKind, rest: string): Promise<WebTarget> {
  const dir = dirOfRepo(config, access);
  const parts = rest.split('/');
  let ref: RefCommit;
  let used: number;
  if (kind === 'commit') {
    const id = parts[0] ?? '';
    const commit = COMMIT_ID.test(id) ? await revParse(dir, `${id}^{commit}`) : null;
    if (!commit) throw notFound('commit', id);
    ref = { input: id, kind: 'commit', name: id, commit };
    used = 1;
  } else {
    const prefix = kind === 'branch' ? 'refs/heads/' : 'refs/tags/';
    const names = new Set((await listRefNames(dir)).filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length)));
    used = refPrefix(parts, names);
    if (!used) throw notFound(kind, rest);
    ref = await resolveRefCommit(dir, access.repo, `${prefix}${parts.slice(0, used).join('/')}`);
  }
  const path = checkReadPath(parts.slice(used).join('/'));
  if (path === null) throw new NotFoundError('path contains a malformed path component');
  return { ref, path };
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
