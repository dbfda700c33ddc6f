import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { hasScope, type ScopeSet } from '../../lib/scopes';
import { ACCESS, accessMode, ORG_TYPE } from '../permissions';
import { settingsOf } from './repo-settings';
import { lookupRepo, type RepoLookup } from './repos';

export type GitCaller = { doer: User | null; scopes: ScopeSet | null };

/**
 * Who may fetch or push over HTTP. Anonymous callers are asked for credentials (401) for
 * anything beyond fetching a public repository, so git retries with them; signed-in callers
 * without access get 404, readers pushing get 403.
 */
export async function authorizeGit(
  db: DB, caller: GitCaller, owner: string, name: string, write: boolean, unit: 'repo.code' | 'repo.wiki' = 'repo.code',
): Promise<RepoLookup> {
  let found: RepoLookup;
  try {
    found = await lookupRepo(db, owner, name, caller.doer);
  } catch (err) {
    if (err instanceof NotFoundError && !caller.doer) throw new UnauthorizedError('authentication required');
    throw err;
  }
  if ('redirectTo' in found) return found;
  if (caller.scopes) {
    if (caller.scopes.publicOnly && found.repo.is_private) throw new NotFoundError();
    if (!hasScope(caller.scopes, 'repository', write ? 'write' : 'read')) {
      throw new ForbiddenError(`token does not have the required scope ${write ? 'write' : 'read'}:repository`);
    }
  }
  // Git is the code unit (the wiki unit for the .wiki.git): an organization's team may see the
  // repository without its code; a wiki switched off (has_wiki false) is not there at all.
  if (unit === 'repo.wiki' && !settingsOf(found.repo).has_wiki) throw new NotFoundError();
  const code = found.owner.type === ORG_TYPE
    ? await accessMode(db, caller.doer, found.repo, found.owner, unit) : found.mode;
  if (code < ACCESS.read) {
    if (!caller.doer) throw new UnauthorizedError('authentication required');
    throw new NotFoundError();
  }
  if (!write) return found;
  if (!caller.doer) throw new UnauthorizedError('authentication required');
  if (code < ACCESS.write) throw new ForbiddenError('User permission denied');
  if (found.repo.is_archived) throw new ForbiddenError('repo is archived');
  if (found.repo.is_mirror) throw new ForbiddenError('mirror repository is read-only');
  return found;
}
