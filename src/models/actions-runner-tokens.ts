import type { DB } from '../db/connect';
import type { ActionRunnerToken } from '../db/schema';
import type { ActionsScope } from './actions-secrets';

// Runner registration tokens (Gitea's models/actions/runner_token.go): the newest of a scope is
// the one handed out; making a new one deactivates the older ones of that scope.

export async function latestRunnerToken(db: DB, s: ActionsScope): Promise<ActionRunnerToken | undefined> {
  return db.selectFrom('action_runner_token').selectAll()
    .where('owner_id', '=', s.ownerId).where('repo_id', '=', s.repoId)
    .orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** A token by its value (what a runner presents to Register). */
export async function getRunnerTokenByValue(db: DB, token: string): Promise<ActionRunnerToken | undefined> {
  return db.selectFrom('action_runner_token').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function insertRunnerToken(db: DB, s: ActionsScope, token: string, now: number): Promise<ActionRunnerToken> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('action_runner_token').set({ is_active: 0, updated_unix: now })
      .where('owner_id', '=', s.ownerId).where('repo_id', '=', s.repoId).execute();
    return trx.insertInto('action_runner_token')
      .values({ token, owner_id: s.ownerId, repo_id: s.repoId, is_active: 1, created_unix: now, updated_unix: now })
      .returningAll().executeTakeFirstOrThrow();
  });
}
