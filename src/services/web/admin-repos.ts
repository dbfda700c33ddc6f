import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { adoptRepository, deleteUnadopted, listUnadopted } from '../admin/unadopted';
import { deleteRepository } from '../repo/repo-edit';
import { lookupRepo, searchVisibleRepos } from '../repo/repos';
import { assertSiteAdmin } from '../user/admin-users';
import type { Hearth } from '../../hearth';

// The admin repositories page: every repository (a site admin sees them all), deleted as
// DELETE /repos/{owner}/{repo} does, and the directories no repository row owns, adopted or
// deleted as /admin/unadopted does.

export function adminRepoList(db: DB, doer: User | null, keyword: string, page: { offset: number; limit: number }) {
  assertSiteAdmin(doer);
  return searchVisibleRepos(db, { viewer: doer, keyword: keyword || undefined, sort: 'alpha', order: 'asc', ...page });
}

export async function adminDeleteRepo(h: Hearth, doer: User | null, owner: string, name: string): Promise<void> {
  assertSiteAdmin(doer);
  const found = await lookupRepo(h.db, owner, name, doer);
  if ('redirectTo' in found) throw new NotFoundError();
  await deleteRepository(h, found, doer!);
}

export function adminUnadoptedList(h: Hearth, doer: User | null, query: string, page: { offset: number; limit: number }) {
  assertSiteAdmin(doer);
  return listUnadopted(h, query, page);
}

export async function adminUnadoptedAction(h: Hearth, doer: User | null, owner: string, name: string, adopt: boolean): Promise<void> {
  assertSiteAdmin(doer);
  if (adopt) await adoptRepository(h, doer!, owner, name);
  else await deleteUnadopted(h, owner, name);
}
