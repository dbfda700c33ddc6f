import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { COMMENT_TYPE } from '../lib/comment-type';
import type { UserKeypairTable } from '../db/schema';

export async function getUserKeypair(db: DB, userId: number): Promise<UserKeypairTable | undefined> {
  return db.selectFrom('user_keypair').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Keeps the first pair written: two requests racing on a new user's actor agree on one key. */
export async function insertUserKeypair(db: DB, row: UserKeypairTable): Promise<void> {
  await db.insertInto('user_keypair').values(row).onConflict((oc) => oc.column('user_id').doNothing()).execute();
}

export type NodeInfoCounts = { users: number; activeMonth: number; activeHalfyear: number; issues: number; comments: number };

/**
 * Gitea's nodeinfo usage: individual users (by last sign-in since), issues and pull requests,
 * and comments proper (Gitea counts with its options' zero type, the plain comment: no events).
 */
export async function countNodeInfoUsage(db: DB, monthAgo: number, halfYearAgo: number): Promise<NodeInfoCounts> {
  const { rows } = await sql<NodeInfoCounts>`SELECT
    (SELECT count(*) FROM "user" WHERE type = 0) AS users,
    (SELECT count(*) FROM "user" WHERE type = 0 AND last_login_unix >= ${monthAgo}) AS activeMonth,
    (SELECT count(*) FROM "user" WHERE type = 0 AND last_login_unix >= ${halfYearAgo}) AS activeHalfyear,
    (SELECT count(*) FROM issue) AS issues,
    (SELECT count(*) FROM comment WHERE type = ${COMMENT_TYPE.comment}) AS comments`.execute(db);
  return rows[0]!;
}
