import type { Request, Response } from 'express';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import type { User } from '../../db/schema';
import { signInWithPassword } from '../../services/user/signin';

// The sign-in form's credential check as a passport-local strategy (loaded with the first
// sign-in: nothing of passport is on the server's start path). The strategy only asks the
// sign-in service; the limiter, the audit rows and the one message for an unknown user and a
// wrong password live there. No passport session: ours are server-side rows (sessions.ts).

const passport = new Passport();
passport.use('local', new LocalStrategy(
  { usernameField: 'user_name', passwordField: 'password', passReqToCallback: true, session: false },
  (req, login, password, done) => {
    signInWithPassword(req.ctx.db, login.trim(), password, req.ctx.actor.ip, 'web').then((user) => done(null, user), done);
  },
));

/** The user the form's credentials name; rejects with the service's domain error. */
export function checkPasswordForm(req: Request, res: Response): Promise<User> {
  return new Promise((resolve, reject) => {
    const run = passport.authenticate('local', { session: false }, (err: unknown, user: User | false) => {
      if (err) return reject(err);
      // Empty fields: passport-local fails before asking; the page checked them already.
      if (!user) return reject(new Error('sign-in form reached passport without credentials'));
      resolve(user);
    });
    run(req, res, reject);
  });
}
