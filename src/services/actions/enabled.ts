import type { Config } from '../../config/schema';
import type { Repository } from '../../db/schema';
import { gitRun } from '../../git/exec';
import { settingsOf } from '../repo/repo-settings';

// Whether workflows of a repository run at all: [actions] enabled, the repository's actions unit
// on, and (as Gitea's notifier) not an empty or archived repository.

export function actionsEnabled(config: Config, repo: Repository): boolean {
  return config.actions.enabled && settingsOf(repo).has_actions && !repo.is_empty && !repo.is_archived;
}

/** The first line of a commit's message (a run's title). */
export async function commitTitle(dir: string, sha: string): Promise<string> {
  const r = await gitRun(['log', '-1', '--format=%B', '--end-of-options', sha], { gitDir: dir });
  return r.code === 0 ? r.stdout.toString('utf8').split('\n')[0]!.trim() : '';
}

/** The whole message (skip strings such as `[skip ci]`). */
export async function commitMessage(dir: string, sha: string): Promise<string> {
  const r = await gitRun(['log', '-1', '--format=%B', '--end-of-options', sha], { gitDir: dir });
  return r.code === 0 ? r.stdout.toString('utf8') : '';
}
