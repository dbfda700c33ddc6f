import type { Label, Milestone, User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { checkFormValues, formToMarkdown, type FormValues } from '../../lib/issue-form-body';
import type { IssueConfig, IssueTemplate } from '../../lib/issue-template';
import { checkFormFile, storeFormFile, type FormFile } from '../issue/attachment-upload';
import { issueTarget } from '../issue/attachments';
import { canWrite, issueCtx } from '../issue/issue-access';
import { listIssueTemplates, readIssueConfig } from '../issue/issue-templates';
import type { IssueView } from '../issue/issue-views';
import { createIssue, listAssignees } from '../issue/issues';
import { listRepoMilestones } from '../issue/milestones';
import type { RepoAccess } from '../repo/repos';
import { labelsPage } from './issue-pages-meta';
import type { Hearth } from '../../hearth';

// The new issue page: the repository's templates (a chooser when there are any), the chosen
// one, and for writers what labels, assignees and milestones the form offers. Creating goes
// through the API's createIssue; an issue form's values become its body as Gitea writes them,
// and an attached file is checked before the issue is written, then stored on it.

export type NewIssueScreen = {
  templates: IssueTemplate[]; templateErrors: string[]; issueConfig: IssueConfig;
  /** Writers choose labels, assignees and milestone; others' choices are dropped, as the API does. */
  choices: { labels: Label[]; milestones: Milestone[]; assignees: User[] } | null;
};

export async function newIssueScreen(h: Hearth, access: RepoAccess, doer: User): Promise<NewIssueScreen> {
  const ctx = await issueCtx(h.db, access, doer);
  const [list, issueConfig] = await Promise.all([listIssueTemplates(h.config, access), readIssueConfig(h.config, access)]);
  const writer = canWrite(ctx, false) && !access.repo.is_archived;
  let choices: NewIssueScreen['choices'] = null;
  if (writer) {
    const [labels, { milestones }, assignees] = await Promise.all([
      labelsPage(h.db, access),
      listRepoMilestones(h.db, ctx, { state: 'open', offset: 0, limit: 100 }),
      listAssignees(h.db, access),
    ]);
    choices = { labels: [...labels.repo, ...labels.org].filter((l) => !l.is_archived), milestones, assignees };
  }
  return {
    templates: list.templates, templateErrors: [...list.errors.keys()], issueConfig: issueConfig.config, choices,
  };
}

export type NewIssueInput = {
  title: string; body: string; labels: number[]; assignees: string[]; milestone: number;
  /** The template the form came from (its ref goes on the issue). */
  template?: IssueTemplate;
  /** An issue form's answers (a YAML template): they replace `body`. */
  values?: FormValues;
  file?: FormFile;
};

/** Field errors of an issue form, keyed `form-<id>` as the page names them. */
export class IssueFormErrors extends InvalidError {
  constructor(readonly fields: Map<string, string>) { super('Some answers of the form need attention.'); }
}

export async function createIssueFromPage(h: Hearth, access: RepoAccess, doer: User, input: NewIssueInput): Promise<IssueView> {
  if (!input.title.trim()) throw new InvalidError('Enter a title.', 'title');
  let body = input.body;
  const fields = input.template?.body ?? [];
  if (fields.length) {
    const values = input.values ?? { text: new Map(), chosen: new Map() };
    const errors = checkFormValues(fields, values);
    if (errors.size) throw new IssueFormErrors(errors);
    body = formToMarkdown(fields, values);
  }
  if (input.file) checkFormFile(h.config, input.file);
  const view = await createIssue(h.db, access, doer, {
    title: input.title.trim(), body, labels: input.labels, assignees: input.assignees,
    milestone: input.milestone || undefined, ref: input.template?.ref.replace(/^refs\/heads\/$/, '') || undefined,
  });
  if (input.file) await storeFormFile(h, await issueTarget(h.db, access, doer, view.issue.index, true), doer, input.file);
  return view;
}
