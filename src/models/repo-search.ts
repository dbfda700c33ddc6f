import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf, type Dialect } from '../db/dialect';
import type { Database, Repository, User } from '../db/schema';
import { likeContaining } from '../lib/like';

export type RepoSearch = {
  viewer: User | null;
  /** Only what public-only tokens may see. */
  publicOnly?: boolean;
  keyword?: string;
  includeDescription?: boolean;
  topicOnly?: boolean;
  ownerId?: number;
  /** With ownerId: also repositories the owner collaborates on (true), only those (`only`). */
  collaborate?: boolean | 'only';
  /**
   * With collaborate: leave out the organizations where the owner's membership is private
   * (Gitea does so when the search is not a private one: anonymous, or `private=false`).
   */
  publicMembershipsOnly?: boolean;
  starredBy?: number;
  /** Repositories the user watches. */
  watchedBy?: number;
  /** Forks of this repository. */
  forkOf?: number;
  isPrivate?: boolean;
  template?: boolean;
  archived?: boolean;
  fork?: boolean;
  mirror?: boolean;
  sort: 'alpha' | 'created' | 'updated' | 'size' | 'id' | 'stars' | 'forks';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
};

type EB = ExpressionBuilder<Database & { r: Database['repository']; o: Database['user'] }, 'r' | 'o'>;

/** Rows the viewer may see: the same rules as accessMode, expressed in SQL for listing. */
function visible(eb: EB, viewer: User | null, publicOnly: boolean) {
  const publicRepo = eb.and([eb('r.is_private', '=', 0), eb('o.visibility', '=', 0)]);
  if (publicOnly || !viewer) return publicRepo;
  if (viewer.is_admin) return sql<SqlBool>`1 = 1`;
  const mine = eb('r.owner_id', '=', viewer.id);
  const collab = eb('r.id', 'in', eb.selectFrom('collaboration').select('repo_id').where('user_id', '=', viewer.id));
  // Organization repositories reached through the viewer's teams.
  const viaTeam = eb.exists(eb.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id')
    .select('tu.id')
    .where('tu.uid', '=', viewer.id)
    .whereRef('tu.org_id', '=', 'r.owner_id')
    .where((e) => e.or([
      e('t.includes_all_repositories', '=', 1),
      e.exists(e.selectFrom('team_repo as trp').select('trp.id').whereRef('trp.team_id', '=', 't.id').whereRef('trp.repo_id', '=', 'r.id')),
    ])));
  if (viewer.is_restricted) return eb.or([mine, collab, viaTeam]);
  const memberOf = eb.selectFrom('team_user').select('org_id').where('uid', '=', viewer.id);
  const openRepo = eb.and([
    eb('r.is_private', '=', 0),
    eb.or([eb('o.visibility', 'in', [0, 1]), eb('o.id', 'in', memberOf)]),
  ]);
  return eb.or([mine, collab, viaTeam, openRepo]);
}

/**
 * Repositories `uid` works on without owning them, as Gitea's search counts them: its
 * collaborations, its teams' repositories, and the public repositories of its organizations;
 * with `publicMembershipsOnly`, none of an organization whose membership it keeps private.
 */
function relatedTo(eb: EB, uid: number, publicMembershipsOnly: boolean) {
  const orgsOf = eb.selectFrom('org_user').select('org_id').where('uid', '=', uid);
  const related = eb.or([
    eb('r.id', 'in', eb.selectFrom('collaboration').select('repo_id').where('user_id', '=', uid)),
    eb('r.id', 'in', eb.selectFrom('team_repo as ctr').innerJoin('team_user as ctu', 'ctu.team_id', 'ctr.team_id')
      .select('ctr.repo_id').where('ctu.uid', '=', uid)),
    // Teams over every repository of their organization have no team_repo rows here.
    eb('r.owner_id', 'in', eb.selectFrom('team as at').innerJoin('team_user as atu', 'atu.team_id', 'at.id')
      .select('at.org_id').where('atu.uid', '=', uid).where('at.includes_all_repositories', '=', 1)),
    eb.and([eb('r.is_private', '=', 0), eb('r.owner_id', 'in', orgsOf)]),
  ]);
  if (!publicMembershipsOnly) return related;
  return eb.and([related, eb('r.owner_id', 'not in', orgsOf.where('is_public', '=', 0))]);
}

/** A keyword of the form owner/name also matches owner and name apart, as in Gitea. */
function keywordMatch(eb: EB, d: Dialect, kw: string, includeDescription: boolean) {
  const like = likeContaining(kw);
  const parts = kw.split('/');
  return eb.or([
    sql<SqlBool>`r.lower_name LIKE ${like} ESCAPE '\\'`,
    d.jsonArrayHasLower('r.topics', kw),
    ...(parts.length === 2
      ? [sql<SqlBool>`(o.lower_name LIKE ${likeContaining(parts[0]!)} ESCAPE '\\' AND r.lower_name LIKE ${likeContaining(parts[1]!)} ESCAPE '\\')`]
      : []),
    ...(includeDescription ? [sql<SqlBool>`lower(r.description) LIKE ${like} ESCAPE '\\'`] : []),
  ]);
}

function query(db: DB, q: RepoSearch) {
  let query = db.selectFrom('repository as r').innerJoin('user as o', 'o.id', 'r.owner_id')
    .where((eb) => visible(eb as unknown as EB, q.viewer, Boolean(q.publicOnly)));
  if (q.ownerId !== undefined) {
    const owner = q.ownerId;
    query = query.where((eb) => {
      const owned = eb('r.owner_id', '=', owner);
      const collab = eb.and([eb('r.owner_id', '!=', owner), relatedTo(eb as unknown as EB, owner, !!q.publicMembershipsOnly)]);
      if (q.collaborate === 'only') return collab;
      return q.collaborate ? eb.or([owned, collab]) : owned;
    });
  }
  if (q.starredBy !== undefined) {
    const uid = q.starredBy;
    query = query.where('r.id', 'in', (eb) => eb.selectFrom('star').select('repo_id').where('uid', '=', uid));
  }
  if (q.watchedBy !== undefined) {
    const uid = q.watchedBy;
    query = query.where('r.id', 'in', (eb) => eb.selectFrom('watch').select('repo_id').where('uid', '=', uid));
  }
  if (q.forkOf !== undefined) query = query.where('r.fork_id', '=', q.forkOf);
  if (q.keyword) {
    const kw = q.keyword.toLowerCase();
    if (q.topicOnly) {
      query = query.where(dialectOf(db).jsonArrayHasLower('r.topics', kw));
    } else {
      query = query.where((eb) => keywordMatch(eb as unknown as EB, dialectOf(db), kw, !!q.includeDescription));
    }
  }
  if (q.isPrivate !== undefined) query = query.where('r.is_private', '=', q.isPrivate ? 1 : 0);
  if (q.template !== undefined) query = query.where('r.is_template', '=', q.template ? 1 : 0);
  if (q.archived !== undefined) query = query.where('r.is_archived', '=', q.archived ? 1 : 0);
  if (q.fork !== undefined) query = query.where('r.is_fork', '=', q.fork ? 1 : 0);
  if (q.mirror !== undefined) query = query.where('r.is_mirror', '=', q.mirror ? 1 : 0);
  return query;
}

const SORT_COLUMN = {
  alpha: 'r.lower_name', created: 'r.created_unix', updated: 'r.updated_unix', size: 'r.size',
  id: 'r.id', stars: 'r.num_stars', forks: 'r.num_forks',
} as const;

export async function searchRepos(db: DB, q: RepoSearch): Promise<{ repos: Repository[]; total: number }> {
  const count = await query(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const repos = await query(db, q).selectAll('r')
    .orderBy(SORT_COLUMN[q.sort], q.order).orderBy('r.id', q.order)
    .limit(q.limit).offset(q.offset).execute();
  return { repos, total: Number(count.n) };
}

/** Ids of the repositories the viewer may see, as a subquery (activity feeds filter by it). */
export const visibleRepoIds = (db: DB, viewer: User | null, publicOnly = false) =>
  db.selectFrom('repository as r').innerJoin('user as o', 'o.id', 'r.owner_id').select('r.id')
    .where((eb) => visible(eb as unknown as EB, viewer, publicOnly));
