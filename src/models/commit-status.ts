import type { DB } from '../db/connect';
import type { CommitStatus } from '../db/schema';

export type NewStatus = {
  repoId: number; sha: string; state: string; targetUrl: string; description: string; context: string;
  creatorId: number; unix: number;
};

/** Inserts a status with the next per-(repo, sha) index; the transaction keeps indexes unique. */
export async function insertCommitStatus(db: DB, s: NewStatus): Promise<CommitStatus> {
  return db.transaction().execute(async (trx) => {
    const max = await trx.selectFrom('commit_status').select((eb) => eb.fn.max('idx').as('m'))
      .where('repo_id', '=', s.repoId).where('sha', '=', s.sha).executeTakeFirst();
    return trx.insertInto('commit_status').values({
      repo_id: s.repoId, sha: s.sha, idx: Number(max?.m ?? 0) + 1, state: s.state,
      target_url: s.targetUrl, description: s.description, context: s.context,
      creator_id: s.creatorId, created_unix: s.unix, updated_unix: s.unix,
    }).returningAll().executeTakeFirstOrThrow();
  });
}

export type StatusSort = 'oldest' | 'recentupdate' | 'leastupdate' | 'leastindex' | 'highestindex' | '';
export type StatusQuery = { repoId: number; sha: string; state?: string; sort: StatusSort; offset: number; limit: number };

/** Statuses of one commit, one page, in Gitea's sort orders (which name the index sorts inversely). */
export async function listCommitStatuses(db: DB, q: StatusQuery): Promise<{ rows: CommitStatus[]; total: number }> {
  let base = db.selectFrom('commit_status').where('repo_id', '=', q.repoId).where('sha', '=', q.sha);
  if (q.state) base = base.where('state', '=', q.state);
  const count = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  let rows = base.selectAll();
  switch (q.sort) {
    case 'oldest': rows = rows.orderBy('created_unix', 'asc'); break;
    case 'recentupdate': rows = rows.orderBy('updated_unix', 'desc'); break;
    case 'leastupdate': rows = rows.orderBy('updated_unix', 'asc'); break;
    case 'leastindex': rows = rows.orderBy('idx', 'desc'); break;
    case 'highestindex': rows = rows.orderBy('idx', 'asc'); break;
    default: rows = rows.orderBy('created_unix', 'desc');
  }
  const page = await rows.orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
  return { rows: page, total: Number(count?.n ?? 0) };
}

/** The latest status of each context of a commit, newest first, one page; total counts contexts. */
export async function latestCommitStatuses(
  db: DB, repoId: number, sha: string, page: { offset: number; limit: number },
): Promise<{ rows: CommitStatus[]; total: number }> {
  const latest = db.selectFrom('commit_status').select((eb) => eb.fn.max('id').as('id'))
    .where('repo_id', '=', repoId).where('sha', '=', sha).groupBy('context');
  const count = await db.selectFrom(latest.as('l')).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const rows = await db.selectFrom('commit_status').selectAll()
    .where('id', 'in', latest).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(count?.n ?? 0) };
}
