import type { Request, Response } from 'express';
import { AppError } from '../../lib/errors';
import { html, raw, type SafeHtml } from '../../lib/html';
import type { CommitForm } from '../../services/web/editor';
import { checkbox, field, formAlert, type FieldErrors } from './forms';

// The commit box every editor form ends with (Gitea's commit_summary, commit_message,
// commit_choice, new_branch_name, last_commit), reading it back from a post, and turning the
// contents service's refusals into messages beside the fields they concern.

type Body = Record<string, unknown>;
export const text = (body: Body, key: string): string => (typeof body[key] === 'string' ? (body[key] as string) : '');

export function readCommitForm(body: Body): CommitForm {
  return {
    summary: text(body, 'commit_summary').slice(0, 500), body: text(body, 'commit_message'),
    choice: text(body, 'commit_choice') === 'commit-to-new-branch' ? 'commit-to-new-branch' : 'direct',
    newBranch: text(body, 'new_branch_name').slice(0, 255), signoff: body.signoff === 'on', lastCommit: text(body, 'last_commit'),
  };
}

export type CommitBox = CommitForm & { branch: string; canDirect: boolean; placeholder: string };

export function commitBox(v: CommitBox, errors: FieldErrors, button: string, danger = false): SafeHtml {
  const direct = v.canDirect && v.choice === 'direct';
  const radio = (value: string, checked: boolean, disabled: boolean, label: SafeHtml) =>
    html`<div class="field check"><label><input type="radio" name="commit_choice" value="${value}"${checked ? raw(' checked') : ''}${disabled ? raw(' disabled') : ''}> ${label}</label></div>`;
  return html`<fieldset class="commit-box"><legend>Commit changes</legend>
${field({ name: 'commit_summary', label: 'Summary', value: v.summary, hint: `Left empty: “${v.placeholder}”.` }, errors)}
<div class="field"><label for="f-commit_message">Extended description</label><textarea id="f-commit_message" name="commit_message" rows="4">${v.body}</textarea></div>
${radio('direct', direct, !v.canDirect, html`Commit directly to the <code>${v.branch}</code> branch.${v.canDirect ? '' : html` <span class="meta">(protected: you may not commit to it)</span>`}`)}
${radio('commit-to-new-branch', !direct, false, html`Create a new branch for this commit and start a pull request.`)}
${field({ name: 'new_branch_name', label: 'New branch name', value: v.newBranch }, errors)}
${checkbox('signoff', 'Add a Signed-off-by line', v.signoff)}
<input type="hidden" name="last_commit" value="${v.lastCommit}">
${formAlert(errors[''])}
<p><button type="submit" class="${danger ? 'danger' : 'primary'}">${button}</button></p></fieldset>`;
}

/** Messages of the contents service's refusals, said for a person at a form. */
function explain(err: AppError, branch: string): FieldErrors {
  const m = err.message;
  if (/^sha does not match/.test(m)) return { '': 'This file was changed since you opened it. Reload the page to see the change, then make yours again.' };
  if (/^user cannot commit to repo/.test(m)) return { '': `You may not commit to the protected branch ${branch}: commit to a new branch and start a pull request instead.` };
  if (/^branch already exists/.test(m)) return { new_branch_name: 'A branch of that name exists already: choose another name.' };
  if (/\[new_branch\]|\[branch\]/.test(m)) return { new_branch_name: 'That is not a valid branch name.' };
  if (/^repository file already exists/.test(m)) return { tree_path: 'A file of that name exists already.' };
  if (/^a (file|directory|symbolic link) exists where/.test(m)) return { tree_path: `${m.replace(/ \[path: .*\]$/, '')}.` };
  if (/^path is protected/.test(m)) return { tree_path: 'This file is protected on this branch: commit to a new branch instead.' };
  if (/^repository file does not exist/.test(m)) return { '': 'This file no longer exists on the branch.' };
  if (/^file is too large/.test(m)) return { files: 'A file is larger than this instance takes.' };
  if (/^branch .* was updated meanwhile/.test(m)) return { '': 'The branch moved while you committed: try again.' };
  return { '': m };
}

/**
 * Runs the commit; a refusal a person can act on (a conflict, a protected branch, a taken
 * name, a bad path) comes back as field errors for a 422 re-render, anything else is thrown.
 */
export async function editorAction<T>(branch: string, run: () => Promise<T>): Promise<{ ok: T } | { errors: FieldErrors }> {
  try {
    return { ok: await run() };
  } catch (err) {
    if (!(err instanceof AppError) || ![400, 403, 404, 409, 413, 422].includes(err.status)) throw err;
    const field = (err as { field?: string }).field;
    if (field && ['tree_path', 'new_branch_name', 'files'].includes(field)) return { errors: { [field]: err.message } };
    return { errors: explain(err, branch) };
  }
}

export const isPost = (req: Request): boolean => req.method === 'POST';
export type Page = (req: Request, res: Response, errors: FieldErrors, status: number) => Promise<void>;
