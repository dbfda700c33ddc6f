import type { DB } from '../db/connect';
import type { OAuth2Application } from '../db/schema';

export type NewOAuth2Application = {
  uid: number; name: string; client_id: string; client_secret_hash: string; redirect_uris: string;
  confidential_client: number; skip_secondary_authorization: number; created_unix: number; updated_unix: number;
};
export type OAuth2ApplicationPatch = Partial<Omit<NewOAuth2Application, 'uid' | 'client_id' | 'created_unix'>>;

export async function insertOAuth2Application(db: DB, row: NewOAuth2Application): Promise<OAuth2Application> {
  return db.insertInto('oauth2_application').values(row).returningAll().executeTakeFirstOrThrow();
}

/** One of the user's applications; another user's is as missing as an unknown id. */
export async function getOAuth2ApplicationOf(db: DB, uid: number, id: number): Promise<OAuth2Application | undefined> {
  return db.selectFrom('oauth2_application').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
}

export async function listOAuth2ApplicationsOf(db: DB, uid: number, limit: number, offset: number): Promise<OAuth2Application[]> {
  return db.selectFrom('oauth2_application').selectAll().where('uid', '=', uid).orderBy('id').limit(limit).offset(offset).execute();
}

export async function countOAuth2ApplicationsOf(db: DB, uid: number): Promise<number> {
  const row = await db.selectFrom('oauth2_application').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', uid).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateOAuth2Application(db: DB, id: number, patch: OAuth2ApplicationPatch): Promise<void> {
  await db.updateTable('oauth2_application').set(patch).where('id', '=', id).execute();
}

export async function deleteOAuth2ApplicationOf(db: DB, uid: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('oauth2_application').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Any user's application by its public client id (the OAuth2 provider's lookups). */
export async function getOAuth2ApplicationByClientId(db: DB, clientId: string): Promise<OAuth2Application | undefined> {
  return db.selectFrom('oauth2_application').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function getOAuth2ApplicationById(db: DB, id: number): Promise<OAuth2Application | undefined> {
  return db.selectFrom('oauth2_application').selectAll().where('id', '=', id).executeTakeFirst();
}
