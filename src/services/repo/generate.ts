import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { updateRef } from '../../git/commit';
import { copyTreeAsRoot } from '../../git/fork-copy';
import { repoDir, zeroId } from '../../git/repo';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { getRepoById, updateRepo } from '../../models/repo';
import { canCreateOrgRepo } from '../../models/team-rights';
import { copyProtectedBranches, copyRepoLabels } from '../../models/template-copy';
import { touchTopics } from '../../models/topic';
import { getUserByName } from '../../models/user';
import { ACCESS, ORG_TYPE } from '../permissions';
import { createRepository } from './repo-create';
import { topicsOf } from './repo-settings';
import type { RepoAccess } from './repos';
import type { Hearth } from '../../hearth';

export type GenerateInput = {
  owner: string; name: string; description?: string; private?: boolean; defaultBranch?: string;
  gitContent?: boolean; topics?: boolean; gitHooks?: boolean; webhooks?: boolean; avatar?: boolean;
  labels?: boolean; protectedBranch?: boolean;
};

/** The owner of the new repository: the caller, or (for site admins) anyone, or an organization they may create in. */
async function generateOwner(db: DB, doer: User, name: string): Promise<User> {
  if (name.toLowerCase() === doer.lower_name) return doer;
  const owner = await getUserByName(db, name);
  if (!owner) throw new NotFoundError(`request owner \`${name}\` does not exist`);
  if (doer.is_admin) return owner;
  if (owner.type !== ORG_TYPE) throw new ForbiddenError('Only admin can generate repository for other user.');
  if (!(await canCreateOrgRepo(db, owner.id, doer.id))) {
    throw new ForbiddenError('Given user is not allowed to create repository in organization.');
  }
  return owner;
}

/** The template's default branch tree as the new repository's single root commit: git only. */
async function copyContent(config: Config, doer: User, template: RepoAccess, dir: string, branch: string): Promise<void> {
  const src = repoDir(config.repository.root, template.owner.name, template.repo.name);
  const author = { name: doer.full_name || doer.name, email: doer.email };
  const commit = await copyTreeAsRoot(src, dir, `refs/heads/${template.repo.default_branch}`, { message: 'Initial commit', author });
  await updateRef(dir, `refs/heads/${branch}`, commit, null, zeroId(template.repo.object_format_name));
}

/** Template items stored in rows: the template link, topics, labels, branch protections. */
async function copyRows(trx: DB, template: Repository, repo: Repository, input: GenerateInput): Promise<void> {
  const now = nowUnix();
  await updateRepo(trx, repo.id, { template_id: template.id });
  if (input.topics) {
    const topics = topicsOf(template);
    await touchTopics(trx, topics, now);
    await updateRepo(trx, repo.id, { topics: JSON.stringify(topics) });
  }
  if (input.labels) await copyRepoLabels(trx, template.id, repo.id, now);
  if (input.protectedBranch) await copyProtectedBranches(trx, template.id, repo.id, now);
}

/**
 * POST /repos/{template_owner}/{template_repo}/generate: a new repository from a template. It is
 * created as any other, its files filled before the row is inserted and the template's rows
 * copied in the creating transaction: it comes to be whole or not at all.
 */
export async function generateRepository(h: Hearth, doer: User, template: RepoAccess, input: GenerateInput): Promise<RepoAccess> {
  if (!template.repo.is_template) throw new InvalidError('this is not a template repo');
  const items = [input.gitContent, input.topics, input.gitHooks, input.webhooks, input.avatar, input.labels, input.protectedBranch];
  if (!items.some(Boolean)) throw new InvalidError('must select at least one template item');
  const owner = await generateOwner(h.db, doer, input.owner);
  const withContent = !!input.gitContent && !template.repo.is_empty;
  const created = await createRepository(h, doer, owner, {
    name: input.name, description: input.description, private: input.private,
    defaultBranch: input.defaultBranch || (withContent ? template.repo.default_branch : undefined),
    objectFormat: template.repo.object_format_name,
    fill: withContent ? (dir, branch) => copyContent(h.config, doer, template, dir, branch) : undefined,
    onCreated: (trx, repo) => copyRows(trx, template.repo, repo, input),
  });
  return { repo: (await getRepoById(h.db, created.id))!, owner, mode: ACCESS.owner };
}
