import type { DB } from '../db/connect';
import type { OAuth2AuthorizationCode, OAuth2Grant } from '../db/schema';

// Rows of the OAuth2 provider: grants (a user's consent to an application), authorization
// codes (hashed) and the signing key.

export type GrantWithApp = OAuth2Grant & { app_name: string; client_id: string; owner_name: string };

export async function getGrantOf(db: DB, userId: number, applicationId: number): Promise<OAuth2Grant | undefined> {
  return db.selectFrom('oauth2_grant').selectAll().where('user_id', '=', userId).where('application_id', '=', applicationId).executeTakeFirst();
}

export async function getGrantById(db: DB, id: number): Promise<OAuth2Grant | undefined> {
  return db.selectFrom('oauth2_grant').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertGrant(db: DB, row: { user_id: number; application_id: number; scope: string; nonce: string; now: number }): Promise<OAuth2Grant> {
  const { now, ...rest } = row;
  return db.insertInto('oauth2_grant').values({ ...rest, created_unix: now, updated_unix: now }).returningAll().executeTakeFirstOrThrow();
}

export async function updateGrant(db: DB, id: number, patch: { scope?: string; nonce?: string; updated_unix: number }): Promise<void> {
  await db.updateTable('oauth2_grant').set(patch).where('id', '=', id).execute();
}

/** Moves the grant's refresh number on, only from `from`: false when another request already did. */
export async function advanceGrantCounter(db: DB, id: number, from: number, now: number): Promise<boolean> {
  const r = await db.updateTable('oauth2_grant').set({ counter: from + 1, updated_unix: now })
    .where('id', '=', id).where('counter', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteGrant(db: DB, id: number): Promise<boolean> {
  const r = await db.deleteFrom('oauth2_grant').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function deleteGrantsOfApplication(db: DB, applicationId: number): Promise<void> {
  await db.deleteFrom('oauth2_grant').where('application_id', '=', applicationId).execute();
}

/** The user's grants with their application's name, client id and owner, newest first. */
export async function listGrantsOfUser(db: DB, userId: number): Promise<GrantWithApp[]> {
  return db.selectFrom('oauth2_grant as g')
    .innerJoin('oauth2_application as a', 'a.id', 'g.application_id')
    .innerJoin('user as u', 'u.id', 'a.uid')
    .selectAll('g').select(['a.name as app_name', 'a.client_id', 'u.name as owner_name'])
    .where('g.user_id', '=', userId).orderBy('g.id', 'desc').execute();
}

export async function insertAuthorizationCode(db: DB, row: Omit<OAuth2AuthorizationCode, 'id' | 'used_unix'>): Promise<void> {
  await db.insertInto('oauth2_authorization_code').values(row).execute();
}

export async function getAuthorizationCodeByHash(db: DB, hash: string): Promise<OAuth2AuthorizationCode | undefined> {
  return db.selectFrom('oauth2_authorization_code').selectAll().where('code_hash', '=', hash).executeTakeFirst();
}

/** Marks the code used; false when it already was (two exchanges raced, or a replay). */
export async function useAuthorizationCode(db: DB, id: number, now: number): Promise<boolean> {
  const r = await db.updateTable('oauth2_authorization_code').set({ used_unix: now })
    .where('id', '=', id).where('used_unix', '=', 0).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Codes long past their end: a replay of one a day old is as unknown as a made-up one. */
export async function deleteStaleAuthorizationCodes(db: DB, before: number): Promise<void> {
  await db.deleteFrom('oauth2_authorization_code').where('valid_until', '<', before).execute();
}

export async function getSigningKeyRow(db: DB) {
  return db.selectFrom('oauth2_signing_key').selectAll().where('id', '=', 1).executeTakeFirst();
}

/** Stores the key unless another request stored one first (the caller reads back the winner). */
export async function insertSigningKeyRow(db: DB, row: { kid: string; sealed_private_key: string; created_unix: number }): Promise<void> {
  await db.insertInto('oauth2_signing_key').values({ id: 1, ...row }).onConflict((oc) => oc.column('id').doNothing()).execute();
}
