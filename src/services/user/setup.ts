import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import { randomPassword } from '../../lib/password';
import { countAdmins } from '../../models/user';
import { createUser } from './users';

export type InitialAdmin = { username: string; password: string };

/** On a database with no site admin, creates one with a random password, returned once. */
export async function ensureInitialAdmin(db: DB, config: Config): Promise<InitialAdmin | null> {
  if ((await countAdmins(db)) > 0) return null;
  const password = randomPassword();
  const username = config.service.initial_admin_username;
  await createUser(db, config, {
    username, email: config.service.initial_admin_email, password, isAdmin: true,
  });
  return { username, password };
}
