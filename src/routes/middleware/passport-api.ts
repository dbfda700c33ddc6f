import type { Request } from 'express';
import { BasicStrategy } from 'passport-http';
import { Strategy } from 'passport-strategy';
import { checkCredentials, credentialsOf, type Credentials, type Verified } from './auth';

// The API's (and git's, LFS's, the registries') Basic and token checks as passport strategies:
// passport-http's BasicStrategy and a token strategy of ours, both over the checks of auth.ts
// (limiter, verification, audit); loaded with the first request that carries credentials.
// passport-http's own parse of the header is replaced (BasicStrategy's authenticate below): it
// splits the credentials at every colon where Gitea splits at the first (passwords may hold
// colons), refuses an empty password (Gitea's token as the user name), and decodes with the
// deprecated `new Buffer()`, which made the executable print a DEP0005 warning at its first Basic
// request and, from node_modules, costs a stack capture on each of a process's first 10,000 calls.
// The strategy keeps passport-http's verify callback and challenge.
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

type Done = (err: unknown, user?: Verified) => void;
/** What passport-http's strategy has and its types do not say; the actions passport sets on a run. */
type BasicRun = {
  _verify: (req: Request, login: string, password: string, done: Done) => void;
  _challenge(): string;
  success(user: Verified): void;
  fail(challenge: string, status: number): void;
  error(err: Error): void;
};

/** passport-http's Basic strategy over hearth's parse of the header (credentialsOf). */
class GiteaBasicStrategy extends BasicStrategy {
  override authenticate(req: Request): void {
    const creds = credentialsOf(req);
    const run = this as unknown as BasicRun;
    if (creds?.kind !== 'basic') return run.fail(run._challenge(), 401);
    run._verify(req, creds.login, creds.password, (err, user) => {
      if (err) return run.error(err as Error);
      if (!user) return run.fail(run._challenge(), 401);
      run.success(user);
    });
  }
}

const basic = new GiteaBasicStrategy({ passReqToCallback: true }, (req: Request, login: string, password: string, done: Done) => {
  checkCredentials(req, { kind: 'basic', login, password }).then((found) => done(null, found), done);
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
