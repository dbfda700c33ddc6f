import type { Config } from '../../config/schema';
import type { ActionRun, Repository, User } from '../../db/schema';

// The `github` (alias `gitea`) context of a run, as Gitea's GenerateGiteaContext: what the
// engine's expressions read while planning (run-name, concurrency, matrix, job `if:`) and what a
// runner gets with its task.

export type RunLike = Pick<ActionRun, 'id' | 'run_index' | 'workflow_id' | 'ref' | 'commit_sha' | 'event' | 'event_payload'>;

function refParts(ref: string): { refName: string; refType: string } {
  if (ref.startsWith('refs/heads/')) return { refName: ref.slice(11), refType: 'branch' };
  if (ref.startsWith('refs/tags/')) return { refName: ref.slice(10), refType: 'tag' };
  if (ref.startsWith('refs/pull/')) return { refName: ref.slice(5), refType: '' };
  return { refName: ref, refType: '' };
}

export function githubContext(config: Config, run: RunLike, repo: Repository, owner: User, actor: User | null): Record<string, unknown> {
  let event: Record<string, unknown> = {};
  try {
    event = JSON.parse(run.event_payload) as Record<string, unknown>;
  } catch { /* an unreadable payload: an empty event */ }
  const { refName, refType } = refParts(run.ref);
  const pull = (event.pull_request ?? null) as { head?: { ref?: string }; base?: { ref?: string } } | null;
  const root = config.server.root_url.replace(/\/$/, '');
  return {
    action: '', action_path: '', action_ref: '', action_repository: '', action_status: '',
    actor: actor?.name ?? '', api_url: `${root}/api/v1`, base_ref: pull?.base?.ref ?? '', env: '', event,
    event_name: run.event, event_path: '', graphql_url: '', head_ref: pull?.head?.ref ?? '', job: '', path: '',
    ref: run.ref, ref_name: refName, ref_protected: false, ref_type: refType,
    repository: `${owner.name}/${repo.name}`, repository_owner: owner.name, repositoryUrl: `${root}/${owner.name}/${repo.name}.git`,
    retention_days: '', run_attempt: '1', run_id: String(run.id), run_number: String(run.run_index),
    secret_source: 'Actions', server_url: root, sha: run.commit_sha, token: '', triggering_actor: actor?.name ?? '',
    workflow: run.workflow_id, workspace: '',
  };
}
