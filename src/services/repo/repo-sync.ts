import type { DB } from '../../db/connect';
import type { Repository } from '../../db/schema';
import { git } from '../../git/exec';
import { listBranchHeads, repoSize } from '../../git/repo';
import { nowUnix } from '../../lib/time';
import { deleteBranchRows, listBranchRows, upsertBranch } from '../../models/branch';
import { getRepoById, updateRepo } from '../../models/repo';

/**
 * Brings the database in line with the refs on disk after a push or an API write: branch rows,
 * `is_empty`, the default branch (a first push sets it), and the size. Returns the fresh row.
 */
export async function syncRepoFromGit(db: DB, repo: Repository, dir: string, pusherId: number): Promise<Repository> {
  const heads = await listBranchHeads(dir);
  const now = nowUnix();
  let defaultBranch = repo.default_branch;
  if (heads.length && !heads.some((h) => h.name === defaultBranch)) {
    // As Gitea: the first branch pushed to an empty repository becomes the default.
    defaultBranch = (heads.find((h) => h.name === 'main') ?? heads.find((h) => h.name === 'master') ?? heads[0]!).name;
    await git(['symbolic-ref', 'HEAD', `refs/heads/${defaultBranch}`], { gitDir: dir });
  }
  await db.transaction().execute(async (trx) => {
    const rows = await listBranchRows(trx, repo.id);
    const known = new Map(rows.map((r) => [r.name, r.commit_id]));
    for (const h of heads) {
      if (known.get(h.name) === h.sha) continue;
      await upsertBranch(trx, repo.id, { name: h.name, commit_id: h.sha, commit_message: h.subject, commit_unix: h.unix }, pusherId, now);
    }
    const live = new Set(heads.map((h) => h.name));
    await deleteBranchRows(trx, repo.id, rows.filter((r) => !live.has(r.name)).map((r) => r.name));
    await updateRepo(trx, repo.id, {
      is_empty: heads.length ? 0 : 1, default_branch: defaultBranch, size: repoSize(dir), updated_unix: now,
    });
  });
  return (await getRepoById(db, repo.id))!;
}
