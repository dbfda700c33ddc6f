import type { DB } from '../../db/connect';
import type { ActionVariable } from '../../db/schema';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import type { ActionsScope, PageWindow } from '../../models/actions-secrets';
import * as m from '../../models/actions-variables';
import { newVariableName, validActionsName } from './names';

// Actions variables at repository, owner and instance level (Gitea's services/actions/variables.go).

const textarea = (v: string) => v.replace(/\r\n/g, '\n');

export async function listVariables(db: DB, scope: ActionsScope, page: PageWindow): Promise<{ rows: ActionVariable[]; total: number }> {
  return m.listVariables(db, scope, page);
}

export async function getVariable(db: DB, scope: ActionsScope, name: string): Promise<ActionVariable> {
  const v = await m.getVariable(db, scope, name.toUpperCase());
  if (!v) throw new NotFoundError('variable not found');
  return v;
}

/** POST: 409 when the name exists, 400 when it is not a valid name. */
export async function createVariable(
  db: DB, scope: ActionsScope, rawName: string, input: { value: string; description?: string },
): Promise<void> {
  if (await m.getVariable(db, scope, rawName.toUpperCase())) throw new ConflictError('variable name already exists');
  const name = newVariableName(rawName);
  const now = nowUnix();
  await m.insertVariable(db, scope, { name, data: textarea(input.value), description: input.description ?? '', created_unix: now, updated_unix: now });
}

/** PUT: the variable must exist; `name` renames it (empty keeps the name of the path). */
export async function updateVariable(
  db: DB, scope: ActionsScope, rawName: string, input: { value: string; description?: string; name?: string },
): Promise<void> {
  const v = await getVariable(db, scope, rawName);
  const name = newVariableName(input.name || rawName);
  if (name !== v.name && (await m.getVariable(db, scope, name))) throw new ConflictError('variable name already exists');
  await m.updateVariable(db, v.id, { name, data: textarea(input.value), description: input.description ?? '', updated_unix: nowUnix() });
}

export async function deleteVariable(db: DB, scope: ActionsScope, rawName: string): Promise<void> {
  validActionsName(rawName, 'variable');
  const v = await getVariable(db, scope, rawName);
  await m.deleteVariable(db, v.id);
}

/** The variables a task of the repository gets: instance, then owner, then repository (later wins). */
export async function variablesForTask(db: DB, ownerId: number, repoId: number): Promise<Record<string, string>> {
  const rows = await m.variablesForRepo(db, ownerId, repoId);
  const rank = (v: ActionVariable) => (v.repo_id ? 2 : v.owner_id ? 1 : 0);
  const out: Record<string, string> = {};
  for (const v of [...rows].sort((a, b) => rank(a) - rank(b))) out[v.name] = v.data;
  return out;
}
