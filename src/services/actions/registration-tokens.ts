import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import type { ActionRunnerToken } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import type { ActionsScope } from '../../models/actions-secrets';
import { insertRunnerToken, latestRunnerToken } from '../../models/actions-runner-tokens';

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
