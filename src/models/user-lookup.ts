import type { DB } from '../db/connect';
import type { Team, User } from '../db/schema';

// Batch lookups for whitelists (names <-> ids) and commit authors (emails -> users).

/** Individual users (not organizations) by name, case-insensitively. */
export async function usersByNames(db: DB, names: string[]): Promise<User[]> {
  if (!names.length) return [];
  return db.selectFrom('user').selectAll()
    .where('lower_name', 'in', names.map((n) => n.toLowerCase())).where('type', '=', 0).execute();
}

export async function usersByIds(db: DB, ids: number[]): Promise<User[]> {
  if (!ids.length) return [];
  return db.selectFrom('user').selectAll().where('id', 'in', ids).execute();
}

export async function teamsByNames(db: DB, orgId: number, names: string[]): Promise<Team[]> {
  if (!names.length) return [];
  return db.selectFrom('team').selectAll()
    .where('org_id', '=', orgId).where('lower_name', 'in', names.map((n) => n.toLowerCase())).execute();
}

export async function teamsByIds(db: DB, ids: number[]): Promise<Team[]> {
  if (!ids.length) return [];
  return db.selectFrom('team').selectAll().where('id', 'in', ids).execute();
}

export async function isUserInTeams(db: DB, uid: number, teamIds: number[]): Promise<boolean> {
  if (!teamIds.length) return false;
  const row = await db.selectFrom('team_user').select('id').where('uid', '=', uid).where('team_id', 'in', teamIds).executeTakeFirst();
  return !!row;
}

/** User names for commit emails: activated addresses first, then the users' own emails. */
export async function userNamesByEmails(db: DB, emails: string[]): Promise<Map<string, string>> {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
  const out = new Map<string, string>();
  if (!lower.length) return out;
  const own = await db.selectFrom('user').select(['name', 'email']).where((eb) => eb(eb.fn('lower', ['email']), 'in', lower)).execute();
  for (const u of own) out.set(u.email.toLowerCase(), u.name);
  const listed = await db.selectFrom('email_address as e').innerJoin('user as u', 'u.id', 'e.uid')
    .select(['e.lower_email', 'u.name']).where('e.lower_email', 'in', lower).where('e.is_activated', '=', 1).execute();
  for (const r of listed) out.set(r.lower_email, r.name);
  return out;
}
