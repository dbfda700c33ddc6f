import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import type { User, WebSession } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  deleteExpiredWebSessions, deleteWebSession, deleteWebSessionsOfUser, getWebSessionWithUser, insertWebSession,
  listWebSessionsOfUser, touchWebSession,
} from '../../models/web-session';

// Browser sessions: a random id in the cookie, its SHA-256 in the database. A session ends after
// a day without a request (30 days with "remember this device"); each request that comes more
// than a minute after the last one seen moves the end forward, so `last seen` costs at most one
// write a minute per browser.

export const IDLE_SECONDS = 24 * 3600;
export const REMEMBER_SECONDS = 30 * 24 * 3600;
const TOUCH_EVERY_SECONDS = 60;

export type SessionOrigin = { ip: string; userAgent: string };
/** `unread`: the user's unread notifications, read with the session for the page header. */
export type ActiveSession = { session: WebSession; user: User; unread: number };

// One-shot: no Hash object per page (the cookie's hash is the session's key on every request).
const hashId = (id: string): string => crypto.hash('sha256', id, 'hex');
const lifetime = (remember: boolean): number => (remember ? REMEMBER_SECONDS : IDLE_SECONDS);

/** A new session for a user who just proved who they are; `id` goes into the cookie, once. */
export async function createSession(
  db: DB, user: User, remember: boolean, origin: SessionOrigin,
): Promise<{ id: string; session: WebSession }> {
  const id = crypto.randomBytes(32).toString('base64url');
  const now = nowUnix();
  // Rows of ended sessions go as new ones come (an indexed delete): reads ignore them anyway.
  await deleteExpiredWebSessions(db, now);
  const session = await insertWebSession(db, {
    key_hash: hashId(id), uid: user.id, created_unix: now, last_seen_unix: now,
    expires_unix: now + lifetime(remember), remember: remember ? 1 : 0,
    ip: origin.ip.slice(0, 64), user_agent: origin.userAgent.slice(0, 255),
  });
  return { id, session };
}

/**
 * The session a cookie names and its user, or null: unknown, expired, or its user may no longer
 * sign in (prohibited or deactivated since), in which cases the row is removed.
 */
export async function resolveSession(db: DB, id: string): Promise<ActiveSession | null> {
  if (!id || id.length > 128) return null;
  const found = await getWebSessionWithUser(db, hashId(id));
  if (!found) return null;
  const { session, user, unread } = found;
  const now = nowUnix();
  if (session.expires_unix <= now) {
    await deleteWebSession(db, session.id);
    return null;
  }
  if (!user || user.type !== 0 || !user.is_active || user.prohibit_login) {
    await deleteWebSession(db, session.id);
    return null;
  }
  if (now - session.last_seen_unix >= TOUCH_EVERY_SECONDS) {
    const expires = now + lifetime(session.remember === 1);
    await touchWebSession(db, session.id, now, expires);
    Object.assign(session, { last_seen_unix: now, expires_unix: expires });
  }
  return { session, user, unread };
}

/** The user's live sessions, the most recently seen first. */
export const listSessions = (db: DB, user: User): Promise<WebSession[]> => listWebSessionsOfUser(db, user.id, nowUnix());

/** Ends one of the user's sessions (sign out, or "sign out" beside it in the settings). */
export async function revokeSession(db: DB, user: User, sessionId: number): Promise<void> {
  const mine = (await listWebSessionsOfUser(db, user.id, 0)).some((s) => s.id === sessionId);
  if (!mine) throw new NotFoundError();
  await deleteWebSession(db, sessionId);
}

/** Ends every session of the user but `keep` (a password change keeps the browser that made it). */
export const revokeOtherSessions = (db: DB, uid: number, keep = 0): Promise<number> => deleteWebSessionsOfUser(db, uid, keep);
