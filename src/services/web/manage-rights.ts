import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { canWriteEither, issueCtx } from '../issue/issue-access';
import type { RepoAccess } from '../repo/repos';

/** Whether the labels and milestones pages show their forms: the services' own writer rule. */
export async function mayManageLabels(db: DB, access: RepoAccess, doer: User | null): Promise<boolean> {
  return !!doer && !access.repo.is_archived && canWriteEither(await issueCtx(db, access, doer));
}
