import type { DB } from '../../db/connect';
import { randomPassword } from '../../lib/password';
import { countAdmins, updateUser } from '../../models/user';
import { createUser } from './users';
import type { Hearth } from '../../hearth';

export type InitialAdmin = { username: string; password: string };

/**
 * On a database with no site admin, creates one with a random password, returned once to be
 * printed. The API takes that password (a first start's scripts use it); the web pages ask for a
 * new one at the first sign-in, since a printed one may sit in a terminal's scrollback or a log.
 */
export async function ensureInitialAdmin(h: Hearth): Promise<InitialAdmin | null> {
  if ((await countAdmins(h.db)) > 0) return null;
  const password = randomPassword();
  const username = h.config.service.initial_admin_username;
  let admin: Awaited<ReturnType<typeof createUser>>;
  try {
    admin = await createUser(h.db, h.config, { username, email: h.config.service.initial_admin_email, password, isAdmin: true });
  } catch (err) {
    // Nodes starting at once on one PostgreSQL database: the first one made the admin and printed it.
    if ((await countAdmins(h.db)) > 0) return null;
    throw err;
  }
  await markPasswordPrinted(h.db, admin.id);
  return { username, password };
}

const markPasswordPrinted = (db: DB, userId: number) => updateUser(db, userId, { password_printed: 1 });
