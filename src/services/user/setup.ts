import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import { randomPassword } from '../../lib/password';
import { countAdmins, updateUser } from '../../models/user';
import { createUser } from './users';

export type InitialAdmin = { username: string; password: string };

/**
 * On a database with no site admin, creates one with a random password, returned once to be
 * printed. The API takes that password (a first start's scripts use it); the web pages ask for a
 * new one at the first sign-in, since a printed one may sit in a terminal's scrollback or a log.
 */
export async function ensureInitialAdmin(db: DB, config: Config): Promise<InitialAdmin | null> {
  if ((await countAdmins(db)) > 0) return null;
  const password = randomPassword();
  const username = config.service.initial_admin_username;
  const admin = await createUser(db, config, {
    username, email: config.service.initial_admin_email, password, isAdmin: true,
  });
  await markPasswordPrinted(db, admin.id);
  return { username, password };
}

const markPasswordPrinted = (db: DB, userId: number) => updateUser(db, userId, { password_printed: 1 });
