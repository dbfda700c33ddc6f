import type { DB } from '../../db/connect';
import type { Label, User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { ForbiddenError, InvalidError } from '../../lib/errors';
import { loadLabelTemplate } from '../../lib/label-templates';
import { deleteLabelEvents } from '../../models/comment';
import { canWriteEither, issueCtx } from './issue-access';
import {
  createLabel, deleteLabel, editLabel, getLabel, listScopedLabels, type CreateLabelInput, type EditLabelInput,
} from './labels';
import type { RepoAccess } from '../repo/repos';

// A repository's own labels: the shared label rules (services/labels.ts) scoped to the
// repository; changes need write on its issues or pulls (Gitea's reqRepoWriter(issues, pulls)).

const scopeOf = (access: RepoAccess) => ({ repoId: access.repo.id });

async function assertLabelWriter(db: DB, access: RepoAccess, doer: User): Promise<void> {
  if (!canWriteEither(await issueCtx(db, access, doer))) {
    throw new ForbiddenError('user should have write permission on the issues or pulls unit');
  }
}

export const listRepoLabels = (db: DB, access: RepoAccess, sort: string | undefined, page: { offset: number; limit: number }) =>
  listScopedLabels(db, scopeOf(access), sort, page);

export const getRepoLabel = (db: DB, access: RepoAccess, idOrName: string): Promise<Label> =>
  getLabel(db, scopeOf(access), idOrName);

export async function createRepoLabel(db: DB, access: RepoAccess, doer: User, input: CreateLabelInput): Promise<Label> {
  await assertLabelWriter(db, access, doer);
  return createLabel(db, scopeOf(access), input);
}

export async function editRepoLabel(db: DB, access: RepoAccess, doer: User, id: string, input: EditLabelInput): Promise<Label> {
  await assertLabelWriter(db, access, doer);
  return editLabel(db, scopeOf(access), id, input);
}

/** Its issues lose it (foreign key), and its label events go with it, as Gitea. */
export async function deleteRepoLabel(db: DB, access: RepoAccess, doer: User, id: string): Promise<void> {
  await assertLabelWriter(db, access, doer);
  await deleteLabel(db, scopeOf(access), id);
  await deleteLabelEvents(db, Number(id), COMMENT_TYPE.label);
}

/**
 * Gitea's InitializeLabels (the labels page's "use a label set"): the set's labels are added in
 * one transaction; a label the repository already has by that name is kept as it is.
 */
export async function initializeRepoLabels(db: DB, access: RepoAccess, doer: User, setName: string): Promise<Label[]> {
  await assertLabelWriter(db, access, doer);
  const set = loadLabelTemplate(setName);
  if (!set) throw new InvalidError(`label template does not exist [name: ${setName}]`, 'template_name');
  return db.transaction().execute(async (trx) => {
    const added: Label[] = [];
    for (const l of set) {
      if (await getLabel(trx, scopeOf(access), l.name).catch(() => null)) continue;
      added.push(await createLabel(trx, scopeOf(access), { name: l.name, color: l.color, description: l.description, exclusive: l.exclusive }));
    }
    return added;
  });
}
