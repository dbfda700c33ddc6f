import type { DB } from '../db/connect';
import type { EmailAddress } from '../db/schema';

export type EmailWithUser = EmailAddress & { user_name: string };

export async function listEmailsOfUser(db: DB, uid: number): Promise<EmailAddress[]> {
  return db.selectFrom('email_address').selectAll().where('uid', '=', uid)
    .orderBy('is_primary', 'desc').orderBy('id', 'asc').execute();
}

export async function getEmail(db: DB, email: string): Promise<EmailAddress | undefined> {
  return db.selectFrom('email_address').selectAll().where('lower_email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertEmail(
  db: DB, row: { uid: number; email: string; is_primary: boolean; is_activated: boolean },
): Promise<void> {
  await db.insertInto('email_address').values({
    uid: row.uid, email: row.email, lower_email: row.email.toLowerCase(),
    is_primary: row.is_primary ? 1 : 0, is_activated: row.is_activated ? 1 : 0,
  }).execute();
}

export async function deleteEmailById(db: DB, id: number): Promise<void> {
  await db.deleteFrom('email_address').where('id', '=', id).execute();
}

/** Makes `email` the only primary address of the user, adding it when missing. */
export async function setPrimaryEmail(db: DB, uid: number, email: string): Promise<void> {
  await db.updateTable('email_address').set({ is_primary: 0 }).where('uid', '=', uid).execute();
  const existing = await getEmail(db, email);
  if (existing) {
    await db.updateTable('email_address').set({ is_primary: 1, is_activated: 1 }).where('id', '=', existing.id).execute();
  } else {
    await insertEmail(db, { uid, email, is_primary: true, is_activated: true });
  }
}

export async function searchEmails(
  db: DB, q: { keyword?: string; offset: number; limit: number },
): Promise<{ emails: EmailWithUser[]; total: number }> {
  let query = db.selectFrom('email_address').innerJoin('user', 'user.id', 'email_address.uid')
    .where('user.type', '=', 0);
  if (q.keyword) {
    const like = `%${q.keyword.toLowerCase()}%`;
    // As Gitea's SearchEmails: the address, the user name or the full name.
    query = query.where((eb) => eb.or([
      eb('email_address.lower_email', 'like', like), eb('user.lower_name', 'like', like),
      eb(eb.fn('lower', ['user.full_name']), 'like', like),
    ]));
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const emails = await query.selectAll('email_address').select('user.name as user_name')
    // Gitea's SearchEmailOrderByEmail.
    .orderBy('email_address.lower_email', 'asc').orderBy('email_address.is_primary', 'desc')
    .orderBy('email_address.id', 'asc').limit(q.limit).offset(q.offset).execute();
  return { emails, total: Number(total.n) };
}
