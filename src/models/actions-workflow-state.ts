import type { DB } from '../db/connect';

// Which workflows of a repository were disabled by hand (Gitea keeps them in the actions unit's
// config as DisabledWorkflows); absent rows are enabled.

export async function disabledWorkflows(db: DB, repoId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('action_workflow_state').select('workflow_id')
    .where('repo_id', '=', repoId).where('disabled', '=', 1).execute();
  return new Set(rows.map((r) => r.workflow_id));
}

export async function isWorkflowDisabled(db: DB, repoId: number, workflowId: string): Promise<boolean> {
  const row = await db.selectFrom('action_workflow_state').select('disabled')
    .where('repo_id', '=', repoId).where('workflow_id', '=', workflowId).executeTakeFirst();
  return row?.disabled === 1;
}

export async function setWorkflowDisabled(db: DB, repoId: number, workflowId: string, disabled: boolean): Promise<void> {
  await db.insertInto('action_workflow_state').values({ repo_id: repoId, workflow_id: workflowId, disabled: disabled ? 1 : 0 })
    .onConflict((oc) => oc.columns(['repo_id', 'workflow_id']).doUpdateSet({ disabled: disabled ? 1 : 0 }))
    .execute();
}
