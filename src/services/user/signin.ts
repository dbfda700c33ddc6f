import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { UnauthorizedError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { updateUser } from '../../models/user';
import { recordSignIn, recordSignInFailure } from '../audit/record';
import { assertMaySignIn, authenticatePassword } from './auth';
import { signInLimiter } from './signin-limit';

// A person signing in with a name (or e-mail) and password: the web form, and the OAuth2
// token endpoint's password checks. The limiter's checks come first; one message for an
// unknown user and a wrong password, so the form tells no one which names exist.

export const WRONG_CREDENTIALS = 'The user name or password is incorrect.';

export async function signInWithPassword(db: DB, login: string, password: string, ip: string, method: string): Promise<User> {
  const limiter = signInLimiter(db);
  await limiter.beforeAttempt(ip, login);
  const user = login && password ? await authenticatePassword(db, login, password) : null;
  if (!user) {
    limiter.recordFailure(ip, login);
    await recordSignInFailure(db, login, ip, method);
    throw new UnauthorizedError(WRONG_CREDENTIALS);
  }
  assertMaySignIn(user);
  await updateUser(db, user.id, { last_login_unix: nowUnix() });
  await recordSignIn(db, user, ip, method);
  return user;
}
