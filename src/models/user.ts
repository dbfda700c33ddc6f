import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { precompiled } from '../db/precompiled';
import type { NewUser, User, UserUpdate } from '../db/schema';
import { likeContaining } from '../lib/like';

export const USER_TYPE_INDIVIDUAL = 0;

// The user reads every signed-in request makes (Basic credentials, the path's owner), compiled once:
// Kysely's build and compile of each was ~35 µs of CPU, more than SQLite running it.
const userById = precompiled(1, (db: DB, id: number) => db.selectFrom('user').selectAll().where('id', '=', id));
const userByLowerName = precompiled(1, (db: DB, lowerName: string) => db.selectFrom('user').selectAll().where('lower_name', '=', lowerName));

export async function getUserById(db: DB, id: number): Promise<User | undefined> {
  return (await userById(db, id))[0];
}

export async function getUserByName(db: DB, name: string): Promise<User | undefined> {
  return (await userByLowerName(db, name.toLowerCase()))[0];
}

export async function insertUser(db: DB, row: NewUser): Promise<User> {
  return db.insertInto('user').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateUser(db: DB, id: number, patch: UserUpdate): Promise<void> {
  await db.updateTable('user').set(patch).where('id', '=', id).execute();
}

export async function deleteUserRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('user').where('id', '=', id).execute();
}

export async function countAdmins(db: DB): Promise<number> {
  const row = await db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_admin', '=', 1).where('type', '=', USER_TYPE_INDIVIDUAL).executeTakeFirstOrThrow();
  return Number(row.n);
}

export type UserSearch = {
  keyword?: string;
  uid?: number;
  type?: number;
  /** Visibility levels allowed (0 public, 1 limited, 2 private); undefined = all. */
  visibilities?: number[];
  /** Always include this user whatever its visibility (the caller itself). */
  includeId?: number;
  isActive?: boolean;
  isAdmin?: boolean;
  sourceId?: number;
  loginName?: string;
  /** Gitea's SearchOrderByAlphabetically (`name ASC`); else by id. */
  alphabetical?: boolean;
  /**
   * The keyword also matches primary e-mail addresses (Gitea's SearchByEmail): any for a site
   * admin; for others only those not kept private, and the viewer's own.
   */
  byEmail?: { viewerId?: number; admin: boolean };
  offset: number;
  limit: number;
};

function searchQuery(db: DB, q: UserSearch) {
  let query = db.selectFrom('user');
  if (q.type !== undefined) query = query.where('type', '=', q.type);
  if (q.uid !== undefined && q.uid > 0) query = query.where('id', '=', q.uid);
  if (q.isActive !== undefined) query = query.where('is_active', '=', q.isActive ? 1 : 0);
  if (q.isAdmin !== undefined) query = query.where('is_admin', '=', q.isAdmin ? 1 : 0);
  if (q.sourceId !== undefined) query = query.where('login_source', '=', q.sourceId);
  if (q.loginName) query = query.where('login_name', '=', q.loginName);
  if (q.keyword) {
    const like = likeContaining(q.keyword.toLowerCase());
    const email = q.byEmail;
    query = query.where((eb) => eb.or([
      sql<boolean>`lower_name LIKE ${like} ESCAPE '\\'`,
      sql<boolean>`lower(full_name) LIKE ${like} ESCAPE '\\'`,
      ...(email ? [eb.and([
        sql<boolean>`lower(email) LIKE ${like} ESCAPE '\\'`,
        ...(email.admin ? [] : [eb.or([eb('keep_email_private', '=', 0), eb('id', '=', email.viewerId ?? 0)])]),
      ])] : []),
    ]));
  }
  const vis = q.visibilities;
  if (vis) {
    // An empty list (a restricted viewer) matches only includeId; eb.or([]) is false.
    query = query.where((eb) => eb.or([
      ...(vis.length ? [eb('visibility', 'in', vis)] : []),
      ...(q.includeId !== undefined ? [eb('id', '=', q.includeId)] : []),
    ]));
  }
  return query;
}

export async function searchUsers(db: DB, q: UserSearch): Promise<{ users: User[]; total: number }> {
  const total = await searchQuery(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let query = searchQuery(db, q).selectAll();
  if (q.alphabetical) query = query.orderBy('name', 'asc');
  const users = await query.orderBy('id', 'asc').limit(q.limit).offset(q.offset).execute();
  return { users, total: Number(total.n) };
}

/** Whether the user table has any row (users and organizations alike, as Gitea's IsTableNotEmpty). */
export async function anyUserRow(db: DB): Promise<boolean> {
  return !!(await db.selectFrom('user').select('id').limit(1).executeTakeFirst());
}
