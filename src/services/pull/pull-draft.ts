import type { User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { editPull } from './pull-edit';
import { isWip } from './pull-merge';
import { loadPull } from './pull-views';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// Draft pull requests, as Gitea marks them: a title starting with a work-in-progress prefix
// ("WIP:" or "[WIP]"), which the merge refuses. Marking one is an edit of the title (its
// author or a writer, as any title change), recorded on the timeline as a title change.

const PREFIX = /^\s*(wip:|\[wip\])\s*/i;

export async function setPullDraft(h: Hearth, access: RepoAccess, doer: User, index: number, draft: boolean): Promise<void> {
  const { issue, pr } = await loadPull(h, access, doer, index, false);
  if (pr.has_merged || issue.is_closed) throw new InvalidError('A closed pull request is neither draft nor ready.', 'title');
  if (isWip(issue.title) === draft) return;
  const title = draft ? `WIP: ${issue.title}` : issue.title.replace(PREFIX, '');
  await editPull(h, access, doer, index, { title: title || issue.title });
}
