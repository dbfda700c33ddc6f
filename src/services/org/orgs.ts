import fs from 'node:fs';
import type { DB } from '../../db/connect';
import type { User, UserUpdate } from '../../db/schema';
import { ownerDir } from '../../git/repo';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  addTeamUser, deleteOrgRow, getOrgByName, insertTeam, isOrgOwner, listUserOrgs, maxTeamMode, searchOrgs, setTeamUnits,
} from '../../models/org';
import { countReposOfOwner, listReposOfOwner } from '../../models/repo';
import { isOrgMember } from '../../models/team-access';
import { canCreateOrgRepo } from '../../models/team-rights';
import { getUserById, getUserByName, insertUser, updateUser } from '../../models/user';
import { deleteRedirectsToUser, deleteUserRedirect } from '../../models/user-redirect';
import { deleteWebhooksOf } from '../../models/webhook';
import { removeAvatarFile } from '../user/avatars';
import { assertValidEmail, assertValidUserName } from '../names';
import { ACCESS, canSeeOwner, ORG_TYPE, UNITS } from '../permissions';
import { deleteRepository } from '../repo/repo-edit';
import { renameUser } from '../user/users';
import { VISIBILITY, type VisibilityName } from '../visibility';
import { recordAudit, userTarget } from '../audit/record';
import type { Hearth } from '../../hearth';

export type CreateOrgInput = {
  username: string; full_name?: string; description?: string; website?: string; location?: string;
  email?: string; visibility?: VisibilityName; repo_admin_change_team_access?: boolean;
};

export const OWNERS_TEAM = 'Owners';

/**
 * Creates an organization (a user row of type 1) with its Owners team, the creator its first
 * member: all in one transaction.
 */
export async function createOrganization(db: DB, creator: User, input: CreateOrgInput): Promise<User> {
  if (creator.type === ORG_TYPE) throw new InvalidError(`${creator.name} is an organization not a user`);
  if (!creator.is_admin && !creator.allow_create_organization) {
    throw new ForbiddenError('Given user is not allowed to create an organization.');
  }
  assertValidUserName(input.username, 'username');
  if (input.email) assertValidEmail(input.email);
  return db.transaction().execute(async (trx) => {
    if (await getUserByName(trx, input.username)) {
      throw new InvalidError(`user already exists [name: ${input.username}]`, 'username');
    }
    const now = nowUnix();
    const org = await insertUser(trx, {
      name: input.username, lower_name: input.username.toLowerCase(), type: ORG_TYPE,
      full_name: input.full_name ?? '', description: input.description ?? '', website: input.website ?? '',
      location: input.location ?? '', email: input.email ?? '',
      visibility: VISIBILITY[input.visibility ?? 'public'],
      repo_admin_change_team_access: input.repo_admin_change_team_access ? 1 : 0,
      is_active: 1, created_unix: now, updated_unix: now,
    });
    await deleteUserRedirect(trx, org.name);
    const owners = await insertTeam(trx, {
      org_id: org.id, name: OWNERS_TEAM, authorize: ACCESS.owner, includes_all_repositories: true,
      can_create_org_repo: true, visibility: 'limited', now,
    });
    await setTeamUnits(trx, owners, Object.fromEntries(UNITS.map((u) => [u, ACCESS.owner])));
    await addTeamUser(trx, owners, creator.id);
    await recordAudit(trx, { op: 'org.create', target: userTarget(org), owner: org });
    return org;
  });
}

/** An organization with the caller's role in it (site admins pass the role guards anyway). */
export type OrgAccess = { org: User; isOwner: boolean; isMember: boolean };

const orgNotFound = (name: string) => new NotFoundError(`org does not exist [id: 0, name: ${name}]`);

/** `{org}` for `viewer`: 404 when missing, not an organization, or hidden from the caller. */
export async function lookupOrg(db: DB, name: string, viewer: User | null): Promise<OrgAccess> {
  const org = await getOrgByName(db, name);
  if (!org || !(await canSeeOwner(db, org, viewer))) throw orgNotFound(name);
  if (!viewer) return { org, isOwner: false, isMember: false };
  const isMember = await isOrgMember(db, org.id, viewer.id);
  return { org, isMember, isOwner: isMember && (await isOrgOwner(db, org.id, viewer.id)) };
}

type Page = { offset: number; limit: number };

/**
 * GET /orgs, as Gitea: public organizations, limited ones to signed-in callers, private ones to
 * site admins only; a restricted caller sees only organizations it belongs to.
 */
export function listVisibleOrgs(db: DB, viewer: User | null, publicOnly: boolean, page: Page & { keyword?: string }) {
  if (!viewer || publicOnly) return searchOrgs(db, { visibilities: [VISIBILITY.public], ...page });
  if (viewer.is_admin) return searchOrgs(db, page);
  return searchOrgs(db, {
    visibilities: [VISIBILITY.public, VISIBILITY.limited],
    memberUid: viewer.is_restricted ? viewer.id : undefined,
    ...page,
  });
}

export const listAllOrgs = (db: DB, page: Page) => searchOrgs(db, page);

/**
 * The organizations of `user` as `viewer` may list them (Gitea's DoerViewOtherVisibility): all
 * of them to the user itself and site admins; public memberships of public and limited
 * organizations to other callers; public ones only to public-only tokens.
 */
export function listOrgsOf(db: DB, user: User, viewer: User | null, publicOnly: boolean, page: Page) {
  const full = !!viewer && (viewer.is_admin === 1 || viewer.id === user.id);
  const maxVisibility = publicOnly || !viewer ? VISIBILITY.public : full ? VISIBILITY.private : VISIBILITY.limited;
  return listUserOrgs(db, { uid: user.id, includeConcealed: full && !publicOnly, maxVisibility, ...page });
}

export type EditOrgInput = {
  full_name?: string; description?: string; website?: string; location?: string; email?: string;
  visibility?: VisibilityName; repo_admin_change_team_access?: boolean;
};

/** PATCH /orgs/{org}: the fields that are present. */
export async function editOrganization(db: DB, org: User, edit: EditOrgInput): Promise<User> {
  const patch: UserUpdate = { updated_unix: nowUnix() };
  for (const key of ['full_name', 'description', 'website', 'location'] as const) {
    if (edit[key] !== undefined) patch[key] = edit[key];
  }
  if (edit.email !== undefined) {
    if (edit.email !== '') assertValidEmail(edit.email);
    patch.email = edit.email;
  }
  if (edit.visibility !== undefined) patch.visibility = VISIBILITY[edit.visibility];
  if (edit.repo_admin_change_team_access !== undefined) {
    patch.repo_admin_change_team_access = edit.repo_admin_change_team_access ? 1 : 0;
  }
  await updateUser(db, org.id, patch);
  return (await getUserById(db, org.id))!;
}

/**
 * Deletes an organization. As Gitea, one that still owns repositories is refused (422, as its
 * user deletion answers) unless purging, which deletes them first.
 */
export async function deleteOrganization(h: Hearth, org: User, purge = false): Promise<void> {
  if (purge) {
    for (const repo of await listReposOfOwner(h.db, org.id)) {
      await deleteRepository(h, { repo, owner: org, mode: ACCESS.owner });
    }
  }
  await h.db.transaction().execute(async (trx) => {
    if (await countReposOfOwner(trx, org.id)) {
      throw new InvalidError(`user still has ownership of repositories [uid: ${org.id}]`);
    }
    await deleteWebhooksOf(trx, { ownerId: org.id });
    await deleteOrgRow(trx, org.id);
    await deleteRedirectsToUser(trx, org.id);
    await recordAudit(trx, { op: 'org.delete', target: userTarget(org), owner: org });
  });
  await removeAvatarFile(h, org);
  removeEmptyDir(ownerDir(h.config.repository.root, org.name));
}

function removeEmptyDir(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // Missing, or not empty (files no repository row names): left for an administrator.
  }
}

/** POST /orgs/{org}/rename: the row, its repositories' owner name and its directory. */
export async function renameOrganization(h: Hearth, org: User, newName: string): Promise<void> {
  await renameUser(h, org, newName, 'new_name');
}

/**
 * Gitea's OrganizationPermissions of `user` in the organization named `orgName` (404 when the
 * viewer may not see it): from the highest mode of the user's teams.
 */
export async function orgPermissionsOf(db: DB, orgName: string, viewer: User | null, user: User): Promise<{ mode: number; canCreate: boolean }> {
  const { org } = await lookupOrg(db, orgName, viewer);
  const [mode, canCreate] = await Promise.all([maxTeamMode(db, org.id, user.id), canCreateOrgRepo(db, org.id, user.id)]);
  return { mode, canCreate };
}
