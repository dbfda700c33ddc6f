import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import type { ActionRunnerToken } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import type { ActionsScope } from '../../models/actions-secrets';
import { NotFoundError } from '../../lib/errors';
import { insertRunnerToken, latestRunnerToken } from '../../models/actions-runner-tokens';
import { getRepoByOwnerAndName } from '../../models/repo';
import { getUserByName } from '../../models/user';

// Runner registration tokens, as Gitea's shared.GetRegistrationToken: the scope's newest token
// while it is active, else a new one (40 random characters). Gitea 1.25 answers the POST routes
// with the same function, so POST hands out the active token too; a new token (which deactivates
// the older ones) is only made when there is none or the newest was deactivated.

function randomToken(): string {
  return crypto.randomBytes(30).toString('base64url').slice(0, 40);
}

export async function registrationToken(db: DB, scope: ActionsScope): Promise<ActionRunnerToken> {
  const latest = await latestRunnerToken(db, scope);
  if (latest?.is_active) return latest;
  return newRegistrationToken(db, scope);
}

/** A fresh token for the scope; the older ones stop registering runners. */
export async function newRegistrationToken(db: DB, scope: ActionsScope): Promise<ActionRunnerToken> {
  return insertRunnerToken(db, scope, randomToken(), nowUnix());
}

/**
 * The scope `gitea actions generate-runner-token --scope` names (Gitea's parseScope): empty for
 * the instance, `owner` for a user or organization, `owner/repo` for a repository.
 */
export async function scopeByName(db: DB, scope: string): Promise<ActionsScope> {
  if (!scope) return { ownerId: 0, repoId: 0 };
  const slash = scope.indexOf('/');
  const ownerName = slash < 0 ? scope : scope.slice(0, slash);
  const owner = await getUserByName(db, ownerName);
  if (!owner) throw new NotFoundError(`user does not exist [name: ${ownerName}]`);
  if (slash < 0) return { ownerId: owner.id, repoId: 0 };
  const repo = await getRepoByOwnerAndName(db, owner.id, scope.slice(slash + 1));
  if (!repo) throw new NotFoundError(`repository does not exist [name: ${scope}]`);
  return { ownerId: 0, repoId: repo.id };
}
