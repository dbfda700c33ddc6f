import type { DeletedBranch, User } from '../../db/schema';
import { divergence } from '../../git/diff-view';
import { Lru } from '../../lib/lru';
import { usersByIds } from '../../models/user-lookup';
import { getBranch, listBranches, type BranchView } from '../repo/branches';
import { dirOfRepo } from '../repo/contents-paths';
import { deletedBranches } from '../repo/deleted-branches';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// The branches page: the default branch, then a page of the others (most recently committed
// first, as the API lists them), each with how far it is ahead of and behind the default
// branch (kept by the two commit ids: that never changes), and the deleted branches.

export type BranchRow = BranchView & { ahead: number; behind: number };
export type BranchesPage = {
  defaultBranch: BranchRow | null; branches: BranchRow[]; total: number;
  deleted: DeletedBranch[]; deleters: Map<number, User>;
};

const counts = new Lru<string, { ahead: number; behind: number }>(5000);

async function diverged(dir: string, base: string, head: string) {
  const key = `${dir}\0${base}\0${head}`;
  const hit = counts.get(key);
  if (hit) return hit;
  const found = await divergence(dir, base, head);
  counts.set(key, found);
  return found;
}

export async function branchesPage(h: Hearth, access: RepoAccess, viewer: User | null, page: { offset: number; limit: number }): Promise<BranchesPage> {
  const dir = dirOfRepo(h.config, access);
  const def = access.repo.is_empty ? null : await getBranch(h, access, viewer, access.repo.default_branch).catch(() => null);
  const { items, total } = await listBranches(h, access, viewer, page);
  const others = items.filter((b) => b.name !== def?.name);
  const base = def?.commit.sha;
  const rows = await Promise.all(others.map(async (b) => ({ ...b, ...(base ? await diverged(dir, base, b.commit.sha) : { ahead: 0, behind: 0 }) })));
  const deleted = await deletedBranches(h.db, access);
  const deleters = new Map((await usersByIds(h.db, [...new Set(deleted.map((d) => d.deleted_by_id))])).map((u) => [u.id, u]));
  return {
    defaultBranch: def ? { ...def, ahead: 0, behind: 0 } : null, branches: rows, total: def ? total - 1 : total, deleted, deleters,
  };
}
