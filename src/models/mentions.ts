import type { DB } from '../db/connect';
import type { User } from '../db/schema';

/** Users and organizations by name, case-insensitively: the accounts `@name` may refer to. */
export async function accountsByNames(db: DB, names: string[]): Promise<User[]> {
  if (!names.length) return [];
  return db.selectFrom('user').selectAll().where('lower_name', 'in', names.map((n) => n.toLowerCase())).execute();
}
