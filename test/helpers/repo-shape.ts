import { expectShape } from './swagger';

/**
 * Repository JSON against the reference. Gitea omits `parent` and `repo_transfer` when there
 * are none (omitempty), so a null in either fails here, as the reference does not allow it.
 */
export function expectRepoShape(body: unknown, list = false): void {
  expectShape(body, list ? '[Repository]' : 'Repository');
}
