import type { Kysely } from 'kysely';
import type { DB } from '../../db/connect';
import type { Database, Repository, User } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import { insertAuditLog } from '../../models/audit-log';
import { currentActor, type AuditActor } from './actor';
import { auditMessage } from './messages';
import type { AuditOperation, AuditTargetType } from './operations';

export type AuditTarget = { type: AuditTargetType; id: number; name: string };

export type AuditEntry = {
  op: AuditOperation;
  target: AuditTarget;
  /** The user or organization the target belongs to, when not the repository's owner. */
  owner?: { id: number; name: string } | null;
  /** The repository the operation concerns; its owner becomes the row's owner. */
  repo?: Pick<Repository, 'id' | 'name' | 'owner_id' | 'owner_name'> | null;
  extra?: Record<string, unknown>;
  /** Who did it; by default the actor of the current request. */
  actor?: AuditActor;
};

/**
 * Records one operation. Call it with the transaction of the change itself: a change rolled back
 * leaves no row, and a row never describes a change that did not happen.
 */
export async function recordAudit(trx: Kysely<Database>, e: AuditEntry): Promise<void> {
  const actor = e.actor ?? currentActor();
  const owner = e.owner ?? (e.repo ? { id: e.repo.owner_id, name: e.repo.owner_name } : null);
  await insertAuditLog(trx, {
    operation_type: e.op,
    operator_id: actor.id, operator_name: actor.name,
    target_type: e.target.type, target_id: e.target.id, target_name: e.target.name,
    owner_id: owner?.id ?? 0, owner_name: owner?.name ?? '',
    repo_id: e.repo?.id ?? 0, repo_name: e.repo ? `${e.repo.owner_name}/${e.repo.name}` : '',
    ip_address: actor.ip,
    created_unix: nowUnix(),
    message: auditMessage(e.op, actor.name, e.target.name, e.repo ? `${e.repo.owner_name}/${e.repo.name}` : ''),
    extra: JSON.stringify(actor.sudoBy ? { ...e.extra, sudo_by: actor.sudoBy } : (e.extra ?? {})),
  });
}

export const userTarget = (u: Pick<User, 'id' | 'name' | 'type'>): AuditTarget =>
  ({ type: u.type === 1 ? 'org' : 'user', id: u.id, name: u.name });
export const teamTarget = (org: Pick<User, 'name'>, t: { id: number; name: string }): AuditTarget =>
  ({ type: 'team', id: t.id, name: `${org.name}/${t.name}` });
export const repoTarget = (r: Pick<Repository, 'id' | 'name' | 'owner_name'>): AuditTarget =>
  ({ type: 'repo', id: r.id, name: `${r.owner_name}/${r.name}` });

// A client sends its password with every API call and git request: one sign-in row per user
// and address every few minutes, not one per request (bench/api signs in a thousand times a second).
const SIGNIN_EVERY_MS = 5 * 60 * 1000;
const lastSignIn = new Map<string, number>();

/** A successful password sign-in; no change to go with it, so its own insert. */
export async function recordSignIn(db: DB, user: User, ip: string, method: string): Promise<void> {
  const key = `${user.id}\0${ip}`;
  const now = Date.now();
  if ((lastSignIn.get(key) ?? 0) > now - SIGNIN_EVERY_MS) return;
  if (lastSignIn.size >= 10_000) lastSignIn.clear();
  lastSignIn.set(key, now);
  await recordAudit(db, { op: 'user.signin', target: userTarget(user), owner: user, extra: { method }, actor: { id: user.id, name: user.name, ip } });
}

/** A failed sign-in: every one is kept (they are what an admin looks for). */
export async function recordSignInFailure(db: DB, login: string, ip: string, method: string): Promise<void> {
  await recordAudit(db, {
    op: 'user.signin.failure', target: { type: 'user', id: 0, name: login },
    extra: { method }, actor: { id: 0, name: login, ip },
  });
}

/** A site admin acting as another user (the Sudo header); once per request that uses it. */
export async function recordSudo(db: DB, admin: AuditActor, as: User, request: string): Promise<void> {
  await recordAudit(db, { op: 'user.sudo', target: userTarget(as), owner: as, extra: { request }, actor: admin });
}
