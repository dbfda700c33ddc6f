import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/connect';
import type { Action, Database, User } from '../db/schema';
import { visibleRepoIds } from './repo-search';

// Activity rows (Gitea's action table): one row per receiver (user_id) of what act_user_id did.

export type NewAction = {
  user_id: number; op_type: number; act_user_id: number; repo_id: number;
  ref_name: string; is_private: number; content: string; created_unix: number;
};

export async function insertActions(db: DB, rows: NewAction[]): Promise<void> {
  if (rows.length) await db.insertInto('action').values(rows).execute();
}

/** Rows created before `beforeUnix` (delete_old_actions, Gitea's DeleteOldActions); returns how many went. */
export async function deleteActionsBefore(db: DB, beforeUnix: number): Promise<number> {
  const r = await db.deleteFrom('action').where('created_unix', '<', beforeUnix).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Users watching the repository (Gitea's GetWatchers), active accounts only. */
export async function watcherUsers(db: DB, repoId: number): Promise<User[]> {
  return db.selectFrom('watch as w').innerJoin('user as u', 'u.id', 'w.uid').selectAll('u')
    .where('w.repo_id', '=', repoId).where('u.is_active', '=', 1).where('u.prohibit_login', '=', 0).execute();
}

export type FeedFilter = {
  /** Receiver: the requested user's or organization's feed. */
  userId?: number;
  /** Only what this user did (only-performed-by). */
  actorId?: number;
  /** A repository's feed: its original rows only (user_id = act_user_id), as Gitea. */
  repoId?: number;
  /** A team's repositories (all the organization's when the team includes all). */
  team?: { id: number; orgId: number; all: boolean };
  includePrivate: boolean;
  /** Gitea's activityQueryCondition; null when the requested user itself or a site admin looks. */
  visibility: { viewer: User | null; requested?: User } | null;
  /** created_unix bounds, inclusive. */
  from?: number;
  to?: number;
};

type EB = ExpressionBuilder<Database & { a: Database['action']; au: Database['user'] }, 'a' | 'au'>;

/** Whose activity the viewer may read (keep-activity-private, user visibility), Gitea's uidCond. */
function actorReadable(eb: EB, viewer: User | null, requested: User | undefined) {
  if (!viewer) return eb.and([eb('au.hide_activity', '=', 0), eb('au.visibility', '=', 0)]);
  const alts = [eb.and([eb('au.hide_activity', '=', 0), eb('au.visibility', 'in', [0, 1])]), eb('au.id', '=', viewer.id)];
  if (requested?.type === 1) alts.push(eb('au.id', '=', requested.id));
  else if (requested) {
    alts.push(eb.and([eb('au.type', '=', 1), eb('au.id', 'in', eb.selectFrom('team_user').select('org_id').where('uid', '=', requested.id))]));
  }
  return eb.or(alts);
}

function feedQuery(db: DB, f: FeedFilter) {
  // Rows of deleted repositories or users have nothing to show.
  return db.selectFrom('action as a').innerJoin('repository as r', 'r.id', 'a.repo_id').innerJoin('user as au', 'au.id', 'a.act_user_id')
    .where((eb) => {
      const e = eb as unknown as EB;
      const conds: ReturnType<EB['and']>[] = [];
      const v = f.visibility;
      if (v && !v.viewer?.is_admin) {
        conds.push(actorReadable(e, v.viewer, v.requested));
        conds.push(e('a.repo_id', 'in', visibleRepoIds(db, v.viewer)));
      }
      if (f.userId !== undefined) conds.push(e('a.user_id', '=', f.userId));
      if (f.actorId !== undefined) conds.push(e('a.act_user_id', '=', f.actorId));
      if (f.repoId !== undefined) conds.push(e.and([e('a.repo_id', '=', f.repoId), e(sql.ref('a.user_id'), '=', sql.ref('a.act_user_id'))]));
      if (f.team) {
        const t = f.team;
        conds.push(t.all
          ? e('a.repo_id', 'in', e.selectFrom('repository').select('id').where('owner_id', '=', t.orgId))
          : e('a.repo_id', 'in', e.selectFrom('team_repo').select('repo_id').where('team_id', '=', t.id)));
      }
      if (!f.includePrivate) conds.push(e('a.is_private', '=', 0));
      if (f.from !== undefined) conds.push(e('a.created_unix', '>=', f.from));
      if (f.to !== undefined) conds.push(e('a.created_unix', '<=', f.to));
      return conds.length ? e.and(conds) : sql<SqlBool>`1 = 1`;
    });
}

/** Newest first, as Gitea. */
export async function listActions(db: DB, f: FeedFilter, offset: number, limit: number): Promise<{ rows: Action[]; total: number }> {
  const count = await feedQuery(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await feedQuery(db, f).selectAll('a')
    .orderBy('a.created_unix', 'desc').orderBy('a.id', 'desc').limit(limit).offset(offset).execute();
  return { rows, total: Number(count.n) };
}

/** Counts per 15-minute slot (Gitea's heatmap grouping, so clients can shift to their zone). */
export async function countBySlot(db: DB, f: FeedFilter): Promise<{ timestamp: number; contributions: number }[]> {
  const slot = sql<number>`a.created_unix / 900 * 900`;
  const rows = await feedQuery(db, f)
    .select([slot.as('timestamp'), (eb) => eb.fn.count<number>('a.user_id').as('contributions')])
    .groupBy(slot).orderBy(slot).execute();
  return rows.map((r) => ({ timestamp: Number(r.timestamp), contributions: Number(r.contributions) }));
}
