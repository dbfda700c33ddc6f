import type { Repository, User } from '../../db/schema';
import { resolveCommit } from '../../git/log';
import { repoDir } from '../../git/repo';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { workflowDisabled } from '../../models/actions-engine';
import { getUserById } from '../../models/user';
import { payloadContext } from '../webhook/payloads';
import { actionsEnabled, commitTitle } from './enabled';
import { insertPlannedRun } from './run-create';
import { runCreated } from './runs';
import { listWorkflowFiles, readWorkflowFile } from './workflow-files';
import { checkInputs, InputError } from './workflow/inputs';
import { readEvents } from './workflow/parse';
import type { Hearth } from '../../hearth';

// workflow_dispatch (Gitea's DispatchActionWorkflow): the workflow as it is at `ref` (a branch,
// `refs/heads/...` or `refs/tags/...`), which must declare workflow_dispatch; the inputs are
// checked against its declarations. Missing things are 404, a disabled workflow 403, bad
// inputs 422.

async function resolveRef(dir: string, ref: string): Promise<{ fullRef: string; sha: string }> {
  const fullRef = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  const sha = await resolveCommit(dir, fullRef);
  if (!sha) throw new NotFoundError(`ref "${ref}" doesn't exist`);
  return { fullRef, sha };
}

export async function dispatchWorkflow(
  h: Hearth, repo: Repository, doer: User, workflowId: string, ref: string, inputs: Record<string, string>,
): Promise<void> {
  if (!actionsEnabled(h.config, repo)) throw new ForbiddenError('actions are disabled for this repository');
  if (!workflowId) throw new NotFoundError('workflowID is empty');
  if (!ref) throw new NotFoundError('ref is empty');
  if (await workflowDisabled(h.db, repo.id, workflowId)) throw new ForbiddenError('workflow is disabled');
  const owner = await getUserById(h.db, repo.owner_id);
  if (!owner) throw new NotFoundError('repository owner not found');
  const dir = repoDir(h.config.repository.root, owner.name, repo.name);
  const { fullRef, sha } = await resolveRef(dir, ref);
  const file = (await listWorkflowFiles(dir, sha)).find((f) => f.id === workflowId);
  if (!file) throw new NotFoundError(`workflow "${workflowId}" doesn't exist`);
  const content = await readWorkflowFile(dir, file);
  let events;
  try {
    events = readEvents(content);
  } catch (err) {
    throw new InvalidError(`invalid workflow: ${(err as Error).message}`);
  }
  const evt = events.find((e) => e.name === 'workflow_dispatch');
  if (!evt) throw new InvalidError(`workflow "${workflowId}" has no workflow_dispatch trigger`);
  let checked;
  try {
    checked = checkInputs(evt.inputs, inputs ?? {});
  } catch (err) {
    if (err instanceof InputError) throw new InvalidError(err.message);
    throw err;
  }
  const c = await payloadContext(h, repo, doer);
  const payload = { workflow: workflowId, ref: fullRef, inputs: checked.raw, repository: c?.repository ?? null, sender: c?.sender ?? null };
  const run = await insertPlannedRun(h, {
    repo, owner, doer, workflowId, content, ref: fullRef, sha, event: 'workflow_dispatch', payload,
    title: await commitTitle(dir, sha),
  });
  await runCreated(h, run.id);
}
