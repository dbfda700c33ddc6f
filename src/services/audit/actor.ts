import { AsyncLocalStorage } from 'node:async_hooks';

/** Who did it, from where: the operator of an audit row. */
export type AuditActor = {
  id: number; name: string; ip: string;
  /** Under Sudo: the site admin who signed in and acts as this user. */
  sudoBy?: string;
};

/** The system itself (cron tasks, the command line without a user). */
export const SYSTEM_ACTOR: AuditActor = { id: -1, name: '(system)', ip: '' };

// The request's actor travels with the request's async context, so the services recording audit
// rows need no new parameter: the request context (req.ctx.actor) is the source, set once by
// middleware after authentication and Sudo, and this store carries it down into the services.
const store = new AsyncLocalStorage<AuditActor>();

/** Runs `fn` (the rest of a request, a CLI command) as `actor`. */
export const runAsActor = <T>(actor: AuditActor, fn: () => T): T => store.run(actor, fn);

/** The actor of the current request or command; the system outside of one. */
export const currentActor = (): AuditActor => store.getStore() ?? SYSTEM_ACTOR;
