import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { searchRepos } from '../../models/repo-search';
import { canCreateOrgRepo } from '../../models/team-rights';
import { usersByIds } from '../../models/user-lookup';
import { createOrgRepository } from '../org/org-repos';
import { listOrgsOf, lookupOrg } from '../org/orgs';
import { listGitignoreNames, listLabelTemplateNames, listLicenseNames } from '../templates';
import { forkRepository } from '../repo/forks';
import { generateRepository } from '../repo/generate';
import { createRepository, type CreateRepoInput } from '../repo/repo-create';
import { getVisibleRepoById, type RepoAccess } from '../repo/repos';
import { ACCESS } from '../permissions';
import type { Hearth } from '../../hearth';

// `/repo/create` and `/{owner}/{repo}/fork`: who the new repository may belong to (the user,
// or an organization they may create in), the choices the form lists (templates, label sets,
// .gitignore and licence templates), and the creation itself through the services behind
// POST /user/repos, /orgs/{org}/repos, /repos/{t}/generate and /repos/{o}/{r}/forks.

export type RepoOption = { id: number; fullName: string };
export type CreateChoices = {
  owners: User[]; templates: RepoOption[];
  labelSets: string[]; gitignores: string[]; licenses: string[];
};

/** Organizations listed as owners at most (a user in more picks by name in the API). */
const MAX_ORGS = 200;

/** The user, then the organizations they may create repositories in (Gitea's create form owners). */
export async function creatableOwners(db: DB, user: User): Promise<User[]> {
  const { orgs } = await listOrgsOf(db, user, user, false, { offset: 0, limit: MAX_ORGS });
  const allowed: User[] = [];
  for (const org of orgs) if (user.is_admin || (await canCreateOrgRepo(db, org.id, user.id))) allowed.push(org);
  return [user, ...allowed];
}

export async function createChoices(db: DB, user: User): Promise<CreateChoices> {
  const { repos } = await searchRepos(db, { viewer: user, publicOnly: false, template: true, sort: 'alpha', order: 'asc', offset: 0, limit: 100 });
  const owners = new Map((await usersByIds(db, [...new Set(repos.map((r) => r.owner_id))])).map((u) => [u.id, u.name]));
  return {
    owners: await creatableOwners(db, user),
    templates: repos.map((r) => ({ id: r.id, fullName: `${owners.get(r.owner_id) ?? '?'}/${r.name}` })),
    labelSets: listLabelTemplateNames(), gitignores: listGitignoreNames(), licenses: listLicenseNames(),
  };
}

export type CreateForm = CreateRepoInput & {
  ownerId: number;
  /** A template repository to start from (its files, labels and topics), 0 for none. */
  templateId: number;
};

/** Creates the repository the form describes; returns it with the creator's access. */
export async function createFromForm(h: Hearth, doer: User, form: CreateForm): Promise<RepoAccess> {
  const owners = await creatableOwners(h.db, doer);
  const owner = owners.find((o) => o.id === form.ownerId);
  if (!owner) throw new InvalidError('Choose an owner you may create repositories for.', 'uid');
  if (form.templateId) {
    const template = await getVisibleRepoById(h.db, form.templateId, doer).catch(() => null);
    if (!template?.repo.is_template) throw new InvalidError('Choose a template repository you may see.', 'repo_template');
    return generateRepository(h, doer, template, {
      owner: owner.name, name: form.name, description: form.description, private: form.private, defaultBranch: form.defaultBranch,
      gitContent: true, topics: true, labels: true,
    });
  }
  if (owner.id === doer.id) {
    const repo = await createRepository(h, doer, doer, form);
    return { repo, owner: doer, mode: ACCESS.owner };
  }
  return createOrgRepository(h, doer, await lookupOrg(h.db, owner.name, doer), form);
}

/** Forks `base` for the chosen owner (the user, or an organization) under `name`. */
export async function forkFromForm(h: Hearth, doer: User, base: RepoAccess, ownerId: number, name: string): Promise<RepoAccess> {
  const owner = (await creatableOwners(h.db, doer)).find((o) => o.id === ownerId);
  if (!owner) throw new InvalidError('Choose an owner you may create repositories for.', 'uid');
  return forkRepository(h, doer, base, { organization: owner.id === doer.id ? undefined : owner.name, name: name || undefined });
}
