import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { User, WebSession } from '../../db/schema';
import { ForbiddenError } from '../../lib/errors';
import { createSession, REMEMBER_SECONDS } from '../../services/user/sessions';
import { authenticate, credentialsOf } from '../middleware/auth';
import { sessionOfCookie } from './passport-web';

// Who a browser is: the session cookie first; GET pages also take Basic and tokens (scripts,
// curl), POSTs never (browsers replay cached Basic credentials on forms other sites post). The
// cookies are HttpOnly, SameSite=Lax, Path=/, and under an https root_url Secure with the
// `__Host-` prefix, which forbids a sibling host from setting them.

const SESSION = 'hearth_session';
const PRE_SIGNIN = 'hearth_csrf';

const secure = (req: Request): boolean => req.ctx.config.server.root_url.startsWith('https:');
const cookieName = (req: Request, base: string): string => (secure(req) ? `__Host-${base}` : base);

/**
 * The cookie's value, or '' when the request has none, or one that is not valid percent-encoding
 * (no value of ours is: a browser that sent one has no session to find, not a 500). Read in
 * place, pair by pair, as every page reads it before anything else.
 */
export function readCookie(req: Request, base: string): string {
  const header = req.headers.cookie;
  if (!header) return '';
  const name = cookieName(req, base);
  for (let at = 0; at < header.length;) {
    const semi = header.indexOf(';', at);
    const end = semi < 0 ? header.length : semi;
    const eq = header.indexOf('=', at);
    if (eq > at && eq < end && header.slice(at, eq).trim() === name) {
      const value = header.slice(eq + 1, end).trim();
      if (!value.includes('%')) return value;
      try {
        return decodeURIComponent(value);
      } catch {
        return '';
      }
    }
    at = end + 1;
  }
  return '';
}

function setCookie(req: Request, res: Response, base: string, value: string, maxAge: number | null): void {
  const attrs = [`${cookieName(req, base)}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (secure(req)) attrs.push('Secure');
  if (maxAge !== null) attrs.push(`Max-Age=${maxAge}`);
  res.append('Set-Cookie', attrs.join('; '));
}

/** Signs the browser in: a new session (a new id, whatever it held before) and its cookie. */
export async function startSession(req: Request, res: Response, user: User, remember: boolean): Promise<void> {
  const { id, session } = await createSession(req.ctx.db, user, remember, { ip: req.ctx.actor.ip, userAgent: req.get('User-Agent') ?? '' });
  // Without "remember", a browser session cookie (gone with the browser); the row ends in a day idle.
  setCookie(req, res, SESSION, id, remember ? REMEMBER_SECONDS : null);
  res.locals.session = session;
}

export function endSessionCookie(req: Request, res: Response): void {
  setCookie(req, res, SESSION, '', 0);
}

export const sessionOf = (res: Response): WebSession | undefined => res.locals.session as WebSession | undefined;

/**
 * The HMAC of `purpose` and `value` with the instance key, kept on the response: a page with
 * many forms (each with its token, the header's sign-out and meta tag) derives it once. The
 * value is part of the memo, so a session started during the request gets its own token.
 */
function hmac(req: Request, res: Response, purpose: string, value: string): string {
  const input = `${purpose}\0${value}`;
  const memo = res.locals.csrfMemo as { input: string; token: string } | undefined;
  if (memo?.input === input) return memo.token;
  const token = recentToken(req.ctx.secret, input);
  res.locals.csrfMemo = { input, token };
  return token;
}

// A session's token is the same on each of its pages: the recent ones are kept (by instance key
// and input, so two servers in one process never share one), and a page of a known session
// computes no HMAC at all.
const RECENT_MAX = 1000;
const recent = new Map<string, string>();

function recentToken(secret: string, input: string): string {
  const key = `${secret}\0${input}`;
  const hit = recent.get(key);
  if (hit !== undefined) return hit;
  const token = crypto.createHmac('sha256', secret).update(input).digest('base64url');
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  recent.set(key, token);
  return token;
}

/**
 * The CSRF token forms carry: an HMAC of the session with the instance key; before sign-in an
 * HMAC of a random cookie the page sets (double submit), so a login form posted from another
 * site, which cannot read or set that cookie, fails.
 */
export function csrfToken(req: Request, res: Response): string {
  const session = sessionOf(res);
  if (session) return hmac(req, res, 'csrf', session.key_hash);
  let pre = readCookie(req, PRE_SIGNIN) || (res.locals.preSignin as string | undefined) || '';
  if (!pre) {
    pre = crypto.randomBytes(24).toString('base64url');
    res.locals.preSignin = pre;
    setCookie(req, res, PRE_SIGNIN, pre, null);
  }
  return hmac(req, res, 'csrf-pre', pre);
}

/** The token the request should carry, or '' when it can have none (no session, no cookie). */
export function expectedCsrf(req: Request, res: Response): string {
  const session = sessionOf(res);
  if (session) return hmac(req, res, 'csrf', session.key_hash);
  const pre = readCookie(req, PRE_SIGNIN);
  return pre ? hmac(req, res, 'csrf-pre', pre) : '';
}

/** The session of the cookie, if any, as the request's user (a passport strategy, passport-web.ts). */
const fromSession: RequestHandler = async (req, res, next) => {
  const id = readCookie(req, SESSION);
  if (!id) return next();
  const found = await sessionOfCookie(req, res, id);
  // An id this server does not know stays in the browser: it may be another instance's on the
  // same host (cookies do not tell ports apart), and it signs no one in here either way.
  if (!found) return next();
  res.locals.session = found.session;
  // The header's count came with the session (index.ts's headerCounts asks only when it did not).
  res.locals.unread = found.unread;
  req.ctx.doer = found.user;
  req.ctx.signer = found.user;
  req.ctx.auth = 'session';
  Object.assign(req.ctx.actor, { id: found.user.id, name: found.user.name });
  next();
};

const basicOrToken = authenticate();

/** GET pages: the session, else Basic or a token as on the API. */
export const pageUser: RequestHandler[] = [fromSession, (req, res, next) => {
  if (req.ctx.auth === 'session') return next();
  return basicOrToken(req, res, next);
}];

/** Forms: a session or nobody; Basic or token credentials and cross-site posts are refused. */
export const formUser: RequestHandler[] = [(req, _res, next) => {
  if (credentialsOf(req)) throw new ForbiddenError('Forms take a signed-in browser session, not Basic or token credentials.');
  if (req.get('Sec-Fetch-Site') === 'cross-site') throw new ForbiddenError('Cross-site form posts are refused.');
  next();
}, fromSession];
