import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { teamsByIds, teamsByNames, usersByIds, usersByNames } from '../../models/user-lookup';
import { accessMode, ORG_TYPE } from '../permissions';
import type { RepoAccess } from './repos';

// User and team whitelists of branch and tag rules: names in the API, ids in the database.

const unique = (names: string[]) => [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];

/** Ids of the named users; a name that is no user is a 422, as Gitea's GetUserIDsByNames. */
export async function userIdsByNames(db: DB, names: string[]): Promise<number[]> {
  const wanted = unique(names);
  const found = new Map((await usersByNames(db, wanted)).map((u) => [u.lower_name, u.id]));
  return wanted.map((n) => {
    const id = found.get(n.toLowerCase());
    if (id === undefined) throw new InvalidError(`user does not exist [uid: 0, name: ${n}]`);
    return id;
  });
}

/** Ids of the owner's named teams; owners that are no organization have none (the names are ignored). */
export async function teamIdsByNames(db: DB, owner: User, names: string[]): Promise<number[]> {
  if (owner.type !== ORG_TYPE) return [];
  const wanted = unique(names);
  const found = new Map((await teamsByNames(db, owner.id, wanted)).map((t) => [t.lower_name, t.id]));
  return wanted.map((n) => {
    const id = found.get(n.toLowerCase());
    if (id === undefined) throw new InvalidError(`team does not exist [org_id ${owner.id}, team_id 0, name: ${n}]`);
    return id;
  });
}

/** The users among `ids` with at least `min` access to the repository, in the given order. */
export async function usersWithAccess(db: DB, access: RepoAccess, ids: number[], min: number): Promise<User[]> {
  const users = new Map((await usersByIds(db, ids)).map((u) => [u.id, u]));
  const out: User[] = [];
  for (const id of ids) {
    const u = users.get(id);
    if (u && (await accessMode(db, u, access.repo, access.owner)) >= min) out.push(u);
  }
  return out;
}

/** As Gitea's updateUserWhitelist: users without `min` access are dropped silently. */
export async function keepWithAccess(db: DB, access: RepoAccess, ids: number[], min: number): Promise<number[]> {
  return (await usersWithAccess(db, access, ids, min)).map((u) => u.id);
}

/** Names of the listed users who can still read the repository (Gitea's getWhitelistEntities). */
export async function userNamesOf(db: DB, access: RepoAccess, ids: number[], min: number): Promise<string[]> {
  return (await usersWithAccess(db, access, ids, min)).map((u) => u.name);
}

export async function teamNamesOf(db: DB, ids: number[]): Promise<string[]> {
  const teams = new Map((await teamsByIds(db, ids)).map((t) => [t.id, t.name]));
  return ids.map((id) => teams.get(id)).filter((n): n is string => n !== undefined);
}
