import type { Request } from 'express';
import { BasicStrategy } from 'passport-http';
import { Strategy } from 'passport-strategy';
import { checkCredentials, credentialsOf, type Credentials, type Verified } from './auth';

// The API's (and git's, LFS's, the registries') Basic and token checks as passport strategies:
// passport-http's BasicStrategy and a token strategy of ours, both over the checks of auth.ts
// (limiter, verification, audit); loaded with the first request that carries credentials.
// passport-http splits Basic credentials at every colon: the check reads them from the request
// again (split at the first colon only, as Gitea), and a value it refuses to parse (no colon:
// a token as the user name) goes to the same check directly.
//
// Each strategy is made once and run on a request as passport's authenticate() runs it (a copy
// with the request's success/fail/error actions), without that middleware's own work: a new
// closure per call and seven session helpers (req.login, req.logout...) set on every request,
// which the API, keeping no session, never calls. A CPU profile of Basic GET /user (SQLite, loaded
// machine) then put the strategy's run, with the check it starts, at 7 µs of 160 µs a request;
// bench/api-cpu.mjs prints the strategies' share beside the direct call.

class TokenStrategy extends Strategy {
  name = 'token';
  override authenticate(req: Request): void {
    const creds = credentialsOf(req);
    if (creds?.kind !== 'token') return this.fail(401);
    checkCredentials(req, creds).then((found) => this.success(found), (err: unknown) => this.error(err as Error));
  }
}

const basic = new BasicStrategy({ passReqToCallback: true }, (req: Request, _login: string, _password: string, done: (err: unknown, user?: Verified) => void) => {
  const creds = credentialsOf(req);
  if (creds?.kind !== 'basic') return done(null);
  checkCredentials(req, creds).then((found) => done(null, found), done);
});
const token = new TokenStrategy();

type Actions = {
  success(user: Verified): void;
  fail(): void;
  pass(): void;
  redirect(): void;
  error(err: Error): void;
  authenticate(req: Request, options: object): void;
};

/** The caller one strategy names, or null when it failed (or passed) without an error. */
function runStrategy(strategy: TokenStrategy | BasicStrategy, req: Request): Promise<Verified | null> {
  return new Promise((resolve, reject) => {
    const run = Object.create(strategy) as Actions;
    run.success = resolve;
    run.fail = () => resolve(null);
    run.pass = () => resolve(null);
    run.redirect = () => resolve(null);
    run.error = reject;
    run.authenticate(req, { session: false });
  });
}

/**
 * The caller the credentials name, through the strategy of their kind; what the strategy does not
 * parse goes to the same check directly, which also answers a failure (logged, recorded, 401).
 */
export async function verifyViaPassport(req: Request, creds: Credentials): Promise<Verified> {
  return (await runStrategy(creds.kind === 'token' ? token : basic, req)) ?? checkCredentials(req, creds);
}
