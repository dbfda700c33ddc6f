import type { Request } from 'express';
import type { Config } from '../config/schema';
import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import type { Hearth } from '../hearth';
import type { Logger } from '../lib/logger';
import type { ScopeSet } from '../lib/scopes';
import type { AuditActor } from '../services/audit/actor';
import type { OrgAccess } from '../services/org/orgs';
import type { RepoAccess } from '../services/repo/repos';
import type { HeldRepo } from '../services/repo/repo-path';

export type AuthMethod = 'none' | 'basic' | 'token' | 'session';

/** Built once per request by middleware; later areas add the repository and access mode. */
export type RequestContext = {
  requestId: string;
  /** The instance handle the services take first (db, config, log and secret below are its fields). */
  h: Hearth;
  db: DB;
  config: Config;
  log: Logger;
  /** The instance secret (Hearth.secret): the key of values sealed at rest (webhook secrets). */
  secret: string;
  /** The user the request acts as (after Sudo), or null when anonymous. */
  doer: User | null;
  /** The user whose credentials were presented (differs from doer under Sudo). */
  signer: User | null;
  auth: AuthMethod;
  /** Scopes of the token used; null when not authenticated by token (no restriction). */
  scopes: ScopeSet | null;
  /** The user named by `{username}` in the path, once assigned. */
  contextUser: User | null;
  /** The repository of `{owner}/{repo}` with the caller's access mode, once assigned. */
  repo: RepoAccess | null;
  /** The owner's and repository's rows authentication read with the caller, for the repository guard. */
  heldRepo?: HeldRepo;
  /** The organization of `{org}` with the caller's role in it, once assigned. */
  org: OrgAccess | null;
  /**
   * Who the audit log names as the operator, and from which address: filled in by authentication
   * and Sudo, and carried into the services with the request's async context (services/audit/actor).
   */
  actor: AuditActor;
};

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request { ctx: RequestContext }
  }
}

export const ctxOf = (req: Request): RequestContext => req.ctx;

/** The signed-in user; guards guarantee it on routes that need it. */
export function doerOf(req: Request): User {
  if (!req.ctx.doer) throw new Error('route reached without a signed-in user: missing guard');
  return req.ctx.doer;
}

/** The `{username}` user of the path; the assignUser guard guarantees it. */
export function contextUserOf(req: Request): User {
  if (!req.ctx.contextUser) throw new Error('route reached without a context user: missing guard');
  return req.ctx.contextUser;
}

/** The `{owner}/{repo}` of the path; the assignRepo guard guarantees it. */
export function repoOf(req: Request): RepoAccess {
  if (!req.ctx.repo) throw new Error('route reached without a repository: missing guard');
  return req.ctx.repo;
}

/** The `{org}` of the path; the assignOrg guard guarantees it. */
export function orgOf(req: Request): OrgAccess {
  if (!req.ctx.org) throw new Error('route reached without an organization: missing guard');
  return req.ctx.org;
}
