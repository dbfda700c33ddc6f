import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import type { ActionRunner } from '../../db/schema';
import { BadRequestError, UnauthorizedError } from '../../lib/errors';
import { hashToken, newToken } from '../../lib/token';
import { nowUnix } from '../../lib/time';
import { getRunnerTokenByValue } from '../../models/actions-runner-tokens';
import { getRunnerByUuid } from '../../models/actions-runners';
import * as m from '../../models/actions-tasks';

// Runners registering and checking in (Gitea's routers/api/actions/runner/runner.go and
// interceptor.go): a registration token of a scope makes a runner of that scope with its own
// uuid and token; every later call names the runner by the x-runner-uuid / x-runner-token
// headers and refreshes its last_online (last_active for task and log reports).

export type RegisterInput = { name: string; token: string; version: string; labels: string[]; ephemeral: boolean };

/** Label names of a runner, without duplicates, in the order given. */
const cleanLabels = (labels: string[]) => [...new Set(labels.map((l) => l.trim()).filter(Boolean))];

export async function registerRunner(db: DB, input: RegisterInput): Promise<{ runner: ActionRunner; token: string }> {
  if (!input.token || !input.name) throw new BadRequestError('missing runner token, name');
  const reg = await getRunnerTokenByValue(db, input.token);
  if (!reg) throw new UnauthorizedError('runner registration token not found');
  if (!reg.is_active) throw new UnauthorizedError('runner registration token has been invalidated, please use the latest one');
  const token = newToken();
  const now = nowUnix();
  const runner = await m.insertRunner(db, {
    uuid: crypto.randomUUID(), name: input.name.slice(0, 255), owner_id: reg.owner_id, repo_id: reg.repo_id,
    version: input.version, token_hash: hashToken(token), token_salt: '', labels: JSON.stringify(cleanLabels(input.labels)),
    ephemeral: input.ephemeral ? 1 : 0, last_online_unix: now, created_unix: now, updated_unix: now,
  });
  return { runner, token };
}

/** The runner the headers name; `active` marks it busy reporting (UpdateTask, UpdateLog). */
export async function authenticateRunner(
  db: DB, uuid: string, token: string, o: { active: boolean; version?: string },
): Promise<ActionRunner> {
  const runner = uuid ? await getRunnerByUuid(db, uuid) : undefined;
  const given = Buffer.from(hashToken(token));
  const stored = Buffer.from(runner?.token_hash ?? '');
  if (!runner || !token || given.length !== stored.length || !crypto.timingSafeEqual(given, stored)) {
    throw new UnauthorizedError('unregistered runner');
  }
  const now = nowUnix();
  const patch: Parameters<typeof m.updateRunner>[2] = {};
  if (runner.last_online_unix !== now) patch.last_online_unix = now;
  if (o.active && runner.last_active_unix !== now) patch.last_active_unix = now;
  if (o.version && o.version !== runner.version) patch.version = o.version;
  if (Object.keys(patch).length) {
    await m.updateRunner(db, runner.id, patch);
    Object.assign(runner, patch);
  }
  return runner;
}

/** Declare: the runner's version and labels as it starts. */
export async function declareRunner(db: DB, runner: ActionRunner, version: string, labels: string[]): Promise<ActionRunner> {
  const patch = { version, labels: JSON.stringify(cleanLabels(labels)), updated_unix: nowUnix() };
  await m.updateRunner(db, runner.id, patch);
  return { ...runner, ...patch };
}

/** An ephemeral runner is done after its one task (Gitea removes it). */
export async function retireIfEphemeral(db: DB, runner: ActionRunner): Promise<void> {
  if (runner.ephemeral) await m.updateRunner(db, runner.id, { deleted_unix: nowUnix() });
}
