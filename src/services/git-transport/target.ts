import type { Hearth } from '../../hearth';
import type { PublicKey, User } from '../../db/schema';
import { repoDir } from '../../git/repo';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { deployKeyOf } from '../../models/deploy-key';
import { getRedirect, getRepoById, getRepoByOwnerAndName } from '../../models/repo';
import { getUserById, getUserByName } from '../../models/user';
import { ACCESS } from '../permissions';
import { authorizeGit, type GitCaller } from '../repo/git-access';
import { settingsOf } from '../repo/repo-settings';
import type { RepoAccess } from '../repo/repos';
import { openWikiForGit, splitWikiName } from '../wiki/wiki-repo';

// Which repository a git request reaches and as whom, for both front ends (smart HTTP and SSH):
// the same permission function, the same refusals (archived, mirror, read-only deploy key).

export type GitService = 'upload-pack' | 'receive-pack' | 'upload-archive';

/** Who a push is recorded as: a deploy key pushes as the repository's owner, as in Gitea. */
export type GitPusher = { user: User; deployKey: boolean };

export type GitTarget = { access: RepoAccess; dir: string; wiki: boolean; pusher: GitPusher | null };

/** A signed-in SSH key: a user's own key, or a deploy key (its repositories are its rights). */
export type KeyIdentity = { kind: 'user'; key: PublicKey; user: User } | { kind: 'deploy'; key: PublicKey };

export type Redirect = { redirectTo: { owner: string; name: string } };

const writes = (service: GitService) => service === 'receive-pack';

async function targetOf(h: Hearth, access: RepoAccess, wiki: boolean, service: GitService, pusher: GitPusher | null): Promise<GitTarget> {
  // The wiki repository appears with its first page; a push may create it, a fetch may not.
  const dir = wiki ? await openWikiForGit(h.config, access, writes(service))
    : repoDir(h.config.repository.root, access.owner.name, access.repo.name);
  return { access, dir, wiki, pusher };
}

/**
 * The target of an HTTP or user-key caller for `owner/repo` (`repo.wiki` for the wiki), or where
 * a renamed repository went (the redirect names the wiki again when asked for one).
 */
export async function callerTarget(
  h: Hearth, caller: GitCaller, owner: string, rawName: string, service: GitService,
): Promise<GitTarget | Redirect> {
  const { name, wiki } = splitWikiName(rawName);
  const found = await authorizeGit(h.db, caller, owner, name, writes(service), wiki ? 'repo.wiki' : 'repo.code');
  if ('redirectTo' in found) return { redirectTo: { owner: found.redirectTo.owner, name: `${found.redirectTo.name}${wiki ? '.wiki' : ''}` } };
  return targetOf(h, found, wiki, service, caller.doer ? { user: caller.doer, deployKey: false } : null);
}

/** The target of an SSH key for `owner/repo(.wiki)`; a renamed repository is followed once. */
export async function keyTarget(h: Hearth, who: KeyIdentity, owner: string, rawName: string, service: GitService): Promise<GitTarget> {
  if (who.kind === 'deploy') return deployKeyTarget(h, who.key, owner, rawName, service);
  const caller = { doer: who.user, scopes: null };
  const found = await callerTarget(h, caller, owner, rawName, service);
  if (!('redirectTo' in found)) return found;
  const again = await callerTarget(h, caller, found.redirectTo.owner, found.redirectTo.name, service);
  if ('redirectTo' in again) throw new NotFoundError();
  return again;
}

/** A deploy key opens the repositories it was added to, and only those; read-only keys cannot push. */
async function deployKeyTarget(h: Hearth, key: PublicKey, ownerName: string, rawName: string, service: GitService): Promise<GitTarget> {
  const { name, wiki } = splitWikiName(rawName);
  const owner = await getUserByName(h.db, ownerName);
  let repo = owner ? await getRepoByOwnerAndName(h.db, owner.id, name) : undefined;
  if (owner && !repo) {
    const moved = await getRedirect(h.db, owner.id, name);
    repo = moved ? await getRepoById(h.db, moved) : undefined;
  }
  const link = repo ? await deployKeyOf(h.db, key.id, repo.id) : undefined;
  const repoOwner = repo && link ? (repo.owner_id === owner?.id ? owner : await getUserById(h.db, repo.owner_id)) : undefined;
  if (!repo || !link || !repoOwner) throw new NotFoundError();
  if (wiki && !settingsOf(repo).has_wiki) throw new NotFoundError();
  if (writes(service)) {
    if (link.read_only) throw new ForbiddenError('the deploy key is read-only');
    if (repo.is_archived) throw new ForbiddenError('repo is archived');
    if (repo.is_mirror) throw new ForbiddenError('mirror repository is read-only');
  }
  const access: RepoAccess = { repo, owner: repoOwner, mode: link.read_only ? ACCESS.read : ACCESS.write };
  return targetOf(h, access, wiki, service, { user: repoOwner, deployKey: true });
}
