import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Passport } from 'passport';
import { BasicStrategy } from 'passport-http';
import { Strategy } from 'passport-strategy';
import { actAs, checkCredentials, credentialsOf, type Verified } from './auth';

// The API's (and git's, LFS's, the registries') Basic and token checks as passport strategies:
// passport-http's BasicStrategy and a token strategy of ours, both over the checks of auth.ts
// (limiter, verification, audit). bench/api measured them against the direct call on GET /user
// within 3% (README), so they serve; loaded with the first request that carries credentials.
// passport-http splits Basic credentials at every colon: the check reads them from the request
// again (split at the first colon only, as Gitea), and a value it refuses to parse (no colon:
// a token as the user name) goes to the same check directly.

class TokenStrategy extends Strategy {
  name = 'token';
  override authenticate(req: Request): void {
    const creds = credentialsOf(req);
    if (creds?.kind !== 'token') return this.fail(401);
    checkCredentials(req, creds).then((found) => this.success(found), (err: unknown) => this.error(err as Error));
  }
}

const passport = new Passport();
passport.use(new BasicStrategy({ passReqToCallback: true }, (req: Request, _login: string, _password: string, done: (err: unknown, user?: Verified) => void) => {
  const creds = credentialsOf(req);
  if (creds?.kind !== 'basic') return done(null);
  checkCredentials(req, creds).then((found) => done(null, found), done);
}));
passport.use(new TokenStrategy());

export const authenticateViaPassport: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  const creds = credentialsOf(req);
  if (!creds) return next();
  passport.authenticate(creds.kind === 'token' ? 'token' : 'basic', { session: false }, (err: unknown, found: Verified | false) => {
    if (err) return next(err);
    const verified = found ? Promise.resolve(found) : checkCredentials(req, creds);
    verified.then((v) => actAs(req, v)).then(() => next(), next);
  })(req, res, next);
};
