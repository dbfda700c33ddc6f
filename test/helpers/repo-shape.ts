import { expectShape } from './swagger';

/**
 * Repository JSON against the reference. Gitea sends `parent` and `repo_transfer` as null when
 * there is none, which the reference does not mark nullable: those nulls are let through.
 */
export function expectRepoShape(body: unknown, list = false): void {
  const strip = (r: Record<string, unknown>) => {
    const copy = { ...r };
    for (const k of ['parent', 'repo_transfer']) if (copy[k] === null) delete copy[k];
    if (copy.parent && typeof copy.parent === 'object') copy.parent = strip(copy.parent as Record<string, unknown>);
    return copy;
  };
  if (list) expectShape((body as Record<string, unknown>[]).map(strip), '[Repository]');
  else expectShape(strip(body as Record<string, unknown>), 'Repository');
}
