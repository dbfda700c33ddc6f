import type { Request, Response } from 'express';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { Strategy } from 'passport-strategy';
import type { User } from '../../db/schema';
import { resolveSession, type ActiveSession } from '../../services/user/sessions';
import { signInWithPassword } from '../../services/user/signin';

// The web's passport: the sign-in form (passport-local) and the session cookie (a strategy of
// ours), loaded with the pages. The strategies only ask the services: the limiter, the audit
// rows and the one message for an unknown user and a wrong password live in the sign-in
// service; sessions are rows of our own (services/user/sessions), not passport's session.

/** The browser's session: the cookie's id (given as `sessionId`) found and live, else no one (not an error). */
class SessionStrategy extends Strategy {
  name = 'hearth-session';
  override authenticate(req: Request, options?: { sessionId?: string }): void {
    const id = options?.sessionId ?? '';
    if (!id) return this.pass();
    resolveSession(req.ctx.db, id).then((found) => (found ? this.success(found) : this.pass()), (err: unknown) => this.error(err as Error));
  }
}

const passport = new Passport();
passport.use('local', new LocalStrategy(
  { usernameField: 'user_name', passwordField: 'password', passReqToCallback: true, session: false },
  (req, login, password, done) => {
    signInWithPassword(req.ctx.db, login.trim(), password, req.ctx.actor.ip, 'web').then((user) => done(null, user), done);
  },
));

type Actions = {
  success(found: ActiveSession): void;
  pass(): void;
  fail(): void;
  error(err: Error): void;
  authenticate(req: Request, options: { sessionId: string }): void;
};

const sessionStrategy = new SessionStrategy();

/**
 * The live session the cookie's id names, or null. The strategy runs as passport's authenticate()
 * runs it (a copy with this request's actions), without that middleware's per-request work: a
 * closure per call and the session helpers (req.login, req.logout...) set on every page, which
 * sessions of our own never use (as the API's strategies, passport-api.ts).
 */
export function sessionOfCookie(req: Request, _res: Response, sessionId: string): Promise<ActiveSession | null> {
  return new Promise((resolve, reject) => {
    const run = Object.create(sessionStrategy) as Actions;
    run.success = resolve;
    run.pass = () => resolve(null);
    run.fail = () => resolve(null);
    run.error = reject;
    run.authenticate(req, { sessionId });
  });
}

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
