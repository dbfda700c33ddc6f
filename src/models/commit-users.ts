import type { DB } from '../db/connect';
import type { User } from '../db/schema';

/**
 * Accounts behind commit emails, keyed by lower-cased email: activated addresses first, then
 * the users' own emails, as Gitea's GetUserByEmail resolves them. Organizations never match.
 */
export async function usersByEmails(db: DB, emails: string[]): Promise<Map<string, User>> {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
  const out = new Map<string, User>();
  if (!lower.length) return out;
  const own = await db.selectFrom('user').selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), 'in', lower)).where('type', '=', 0).execute();
  for (const u of own) out.set(u.email.toLowerCase(), u);
  const listed = await db.selectFrom('email_address as e').innerJoin('user as u', 'u.id', 'e.uid')
    .selectAll('u').select('e.lower_email as matched_email')
    .where('e.lower_email', 'in', lower).where('e.is_activated', '=', 1).where('u.type', '=', 0).execute();
  for (const { matched_email: email, ...user } of listed) out.set(email, user as User);
  return out;
}
