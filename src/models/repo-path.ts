import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';
import { precompiled } from '../db/precompiled';
import type { Repository, User } from '../db/schema';
import type { TokenWithUser } from './access-token';
import { starProbe, transferPendingProbe, watchProbe } from './repo';

// The first reads of a request on `{owner}/{repo}` in one statement: the caller (by Basic name or
// token hash), the owner by name and the repository with its pending-transfer flag. On PostgreSQL
// each statement is a round trip costing ~45 µs of CPU (Node and the backend), several times
// what SQLite's in-process run costs, and these reads are what every repository request starts
// with. The rows come back side by side, each table's columns under an alias of their own
// (`o.name`, `r.name`), and are split here into the rows the separate reads return: the column
// lists are the tables' own (read from the catalog once per database), so a row read here has
// exactly the columns and values of `SELECT *`. Every join is a LEFT JOIN from one constant row:
// whatever is missing (an unknown caller, a renamed owner) comes back as nulls beside the rest.

/** The owner's row and the repository's, each undefined when its name matches none. */
export type RepoPathRows = {
  owner: User | undefined;
  repo: { repo: Repository; transferPending: boolean } | undefined;
  /** The caller's collaboration mode on the repository (undefined: none), when a caller was read. */
  collaborator?: { userId: number; mode: number | undefined };
};
/** What the token variant read of the caller: the token with its account, undefined when no token has the hash. */
export type CallerRows = RepoPathRows & { caller: User | undefined; token?: TokenWithUser };

type Columns = { user: string[]; repository: string[] };
// Keyed by the Kysely instance's adapter, which its transactions share: a read inside a
// transaction does not ask the catalog again.
const columnsByDb = new WeakMap<object, Promise<Columns>>();
const knownColumns = new WeakMap<object, Columns>();
const keyOf = (db: DB): object => db.getExecutor().adapter;

/** The user and repository tables' columns, read once per database (a failure is retried next time). */
function columnsOf(db: DB): Promise<Columns> {
  let p = columnsByDb.get(keyOf(db));
  if (!p) {
    const d = dialectOf(db);
    p = Promise.all([d.tableColumns(db, 'user'), d.tableColumns(db, 'repository')]).then(([user, repository]) => {
      if (!user.includes('id') || !repository.includes('id')) throw new Error('repo-path: the user and repository tables have no id column');
      return { user, repository };
    });
    p.catch(() => columnsByDb.delete(keyOf(db)));
    columnsByDb.set(keyOf(db), p);
  }
  return p;
}

type Row = Record<string, unknown>;
// A loosely typed builder: the select lists are the catalog's, not Kysely's schema types.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Loose = any;

const aliased = (prefix: string, table: string, cols: string[]) => cols.map((c) => `${table}.${c} as ${prefix}.${c}`);

/** FROM one constant row, so that the statement answers one row whatever its joins find. */
const base = (db: DB): Loose => db.selectFrom(db.selectNoFrom((eb) => eb.lit(1).as('one')).as('base'));

/** The repository `repo` of the owner joined as `ownerAlias`, with its pending-transfer flag. */
function withRepo(q: Loose, ownerAlias: string, cols: Columns, repo: string): Loose {
  return q.leftJoin('repository as r', (j: Loose) => j.onRef('r.owner_id', '=', `${ownerAlias}.id`).on('r.lower_name', '=', repo))
    .select(aliased('r', 'r', cols.repository))
    .select((eb: Loose) => transferPendingProbe(eb, 'r.id').as('r:transfer_pending'));
}

/** The caller's (`c`) collaboration on the repository: what the guard's access check reads next for anyone but the owner. */
const withCollaborator = (q: Loose): Loose => q.leftJoin('collaboration as co', (j: Loose) => j.onRef('co.repo_id', '=', 'r.id').onRef('co.user_id', '=', 'c.id'))
  .select('co.mode as co.mode');

/** The collaboration read beside caller `caller` (none when either row is missing). */
const collaboratorOf = (row: Row, caller: User | undefined): RepoPathRows['collaborator'] =>
  caller && row['r.id'] !== null ? { userId: caller.id, mode: (row['co.mode'] as number | null) ?? undefined } : undefined;

/** The owner by lower-case name, joined as `o`. */
const withOwner = (q: Loose, c: Columns, owner: string): Loose =>
  q.leftJoin('user as o', (j: Loose) => j.on('o.lower_name', '=', owner)).select(aliased('o', 'o', c.user));

const cols = (db: DB): Columns => {
  const known = knownColumns.get(keyOf(db));
  if (!known) throw new Error('repo-path: columns read before the statement is built');
  return known;
};

/** Owner and repository: for an anonymous caller, and for a caller by name who owns them (the owner's row is the caller's). */
const ownerAndRepo = precompiled(2, (db: DB, owner: string, repo: string) => {
  const c = cols(db);
  return withRepo(withOwner(base(db), c, owner), 'o', c, repo);
});
/** A caller by name and another owner. */
const callerOwnerAndRepo = precompiled(3, (db: DB, caller: string, owner: string, repo: string) => {
  const c = cols(db);
  const q = base(db).leftJoin('user as c', (j: Loose) => j.on('c.lower_name', '=', caller)).select(aliased('c', 'c', c.user));
  return withCollaborator(withRepo(withOwner(q, c, owner), 'o', c, repo));
});
/** A token (by hash) with its account, the owner and the repository. */
const tokenOwnerAndRepo = precompiled(3, (db: DB, hash: string, owner: string, repo: string) => {
  const c = cols(db);
  const q = base(db).leftJoin('access_token as t', (j: Loose) => j.on('t.token_hash', '=', hash))
    .select(['t.id as t.id', 't.uid as t.uid', 't.scope as t.scope', 't.updated_unix as t.updated_unix'])
    .leftJoin('user as c', 'c.id', 't.uid').select(aliased('c', 'c', c.user));
  return withCollaborator(withRepo(withOwner(q, c, owner), 'o', c, repo));
});

/**
 * A signed-in page viewer (by id) who does not own the repository: the owner, the repository,
 * the viewer's watch and star on it (the page header's) and the viewer's collaboration.
 */
const ownerAndRepoForViewer = precompiled(3, (db: DB, viewerId: number, owner: string, repo: string) => {
  const c = cols(db);
  const q = withRepo(withOwner(base(db), c, owner), 'o', c, repo)
    .leftJoin('collaboration as co', (j: Loose) => j.onRef('co.repo_id', '=', 'r.id').on('co.user_id', '=', viewerId))
    .select('co.mode as co.mode');
  return q.select((eb: Loose) => [watchProbe(eb, viewerId, 'r.id').as('m:watch'), starProbe(eb, viewerId, 'r.id').as('m:star')]);
});

type Split = (row: Row) => Row;
const splitters = new Map<string, Split>();

/**
 * `row => ({id: row["o.id"], ...})` for one alias and column list, compiled once (as the row
 * builders of src/db/postgres/prepared-query.ts): a loop building each key anew cost more than
 * the statement it saves on SQLite.
 */
function splitter(prefix: string, columns: string[]): Split {
  const key = `${prefix}\0${columns.join('\0')}`;
  let split = splitters.get(key);
  if (!split) {
    // A column named __proto__ would set the prototype in a literal: such rows are built key by key.
    split = columns.includes('__proto__')
      ? (row) => Object.fromEntries(columns.map((c) => [c, row[`${prefix}.${c}`]]))
      : new Function('row', `return {${columns.map((c) => `${JSON.stringify(c)}: row[${JSON.stringify(`${prefix}.${c}`)}]`).join(', ')}};`) as Split;
    splitters.set(key, split);
  }
  return split;
}

/** The columns `prefix.*` of a row as the table's own row; undefined when the join found none. */
function part<T>(row: Row, prefix: string, columns: string[]): T | undefined {
  const id = row[`${prefix}.id`];
  return id === null || id === undefined ? undefined : splitter(prefix, columns)(row) as T;
}

function repoOf(row: Row, c: Columns): RepoPathRows['repo'] {
  const repo = part<Repository>(row, 'r', c.repository);
  // SQLite answers EXISTS with 0/1, PostgreSQL with a boolean.
  return repo && { repo, transferPending: Boolean(row['r:transfer_pending']) };
}

async function run(db: DB, read: () => Promise<Row[]>): Promise<{ row: Row; c: Columns }> {
  if (!knownColumns.has(keyOf(db))) knownColumns.set(keyOf(db), await columnsOf(db));
  const [row] = await read();
  return { row: row!, c: cols(db) };
}

/** `{owner}/{repo}` (lower-case names) in one statement. */
export async function getOwnerAndRepo(db: DB, ownerLower: string, repoLower: string): Promise<RepoPathRows> {
  const { row, c } = await run(db, () => ownerAndRepo(db, ownerLower, repoLower) as Promise<Row[]>);
  return { owner: part<User>(row, 'o', c.user), repo: repoOf(row, c) };
}

/** The caller by lower-case name with `{owner}/{repo}`, in one statement. */
export async function getCallerByNameAndRepo(db: DB, callerLower: string, ownerLower: string, repoLower: string): Promise<CallerRows> {
  if (callerLower === ownerLower) {
    const { row, c } = await run(db, () => ownerAndRepo(db, callerLower, repoLower) as Promise<Row[]>);
    const owner = part<User>(row, 'o', c.user);
    return { caller: owner, owner, repo: repoOf(row, c) };
  }
  const { row, c } = await run(db, () => callerOwnerAndRepo(db, callerLower, ownerLower, repoLower) as Promise<Row[]>);
  const caller = part<User>(row, 'c', c.user);
  return { caller, owner: part<User>(row, 'o', c.user), repo: repoOf(row, c), collaborator: collaboratorOf(row, caller) };
}

/** The token by hash with its account (as getTokenWithUser) and `{owner}/{repo}`, in one statement. */
export async function getTokenAndRepo(db: DB, hash: string, ownerLower: string, repoLower: string): Promise<CallerRows> {
  const { row, c } = await run(db, () => tokenOwnerAndRepo(db, hash, ownerLower, repoLower) as Promise<Row[]>);
  const user = part<User>(row, 'c', c.user);
  const token = row['t.id'] === null ? undefined : {
    token: { id: row['t.id'] as number, uid: row['t.uid'] as number, scope: row['t.scope'] as string, updated_unix: row['t.updated_unix'] as number },
    user,
  };
  return { caller: user, token, owner: part<User>(row, 'o', c.user), repo: repoOf(row, c), collaborator: collaboratorOf(row, user) };
}

/** What a page viewer's read brings beside the rows: the viewer's watch and star on the repository. */
export type ViewerRows = Omit<RepoPathRows, 'repo'> & { repo: (NonNullable<RepoPathRows['repo']> & { marks: { watch: boolean; star: boolean } }) | undefined };

/** `{owner}/{repo}` (lower-case names) for signed-in viewer `viewerId`, with the viewer's marks and collaboration, in one statement. */
export async function getOwnerAndRepoForViewer(db: DB, viewerId: number, ownerLower: string, repoLower: string): Promise<ViewerRows> {
  const { row, c } = await run(db, () => ownerAndRepoForViewer(db, viewerId, ownerLower, repoLower) as Promise<Row[]>);
  const repo = repoOf(row, c);
  return {
    owner: part<User>(row, 'o', c.user),
    repo: repo && { ...repo, marks: { watch: Boolean(row['m:watch']), star: Boolean(row['m:star']) } },
    collaborator: repo ? { userId: viewerId, mode: (row['co.mode'] as number | null) ?? undefined } : undefined,
  };
}
