import type { Request, RequestHandler, Response } from 'express';
import { ForbiddenError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { ACCESS } from '../../services/permissions';
import { deleteRepository, editRepository } from '../../services/repo/repo-edit';
import { acceptTransfer, cancelTransfer, pendingTransfer, rejectTransfer, startTransfer, type PendingTransfer } from '../../services/repo/transfer';
import { csrfInput, field, formAction, formAlert, submitButton, type FieldErrors } from './forms';
import { repoOf, rootPath } from './guards';
import { repoLink, sendPage } from './layout';
import { settingsDone, settingsLink } from './repo-settings-layout';
import { dangerLink, formOf, text } from './settings-layout';

// The danger zone of a repository's settings: transfer to a user or an organization (at once,
// or pending until the recipient accepts), archive or unarchive, and delete after typing the
// repository's full name. Transfer and delete are the owner's (as the API's routes); each
// action calls the API's service.

/** The owner's actions (the API's repoOwners): an admin who is not the owner sees them refused. */
export const repoOwnerForm: RequestHandler = (req, _res, next) => {
  if (repoOf(req).mode < ACCESS.owner) throw new ForbiddenError('Only the owner of this repository may transfer or delete it.');
  next();
};

const fullName = (req: Request) => `${repoOf(req).owner.name}/${repoOf(req).repo.name}`;

export async function dangerZone(req: Request, res: Response): Promise<SafeHtml> {
  const { repo } = repoOf(req);
  // The page's header already read the pending transfer, if any (repo-social.ts): no second read.
  const known = res.locals.pendingTransfer as PendingTransfer | null | undefined;
  const pending = res.locals.transferPending === false ? null : known !== undefined ? known : await pendingTransfer(req.ctx.db, repo);
  const transfer = pending
    ? html`<p>A transfer to <strong>${pending.recipient.name}</strong> waits for them to accept it.</p>
<form method="post" action="${settingsLink(req, 'transfer/cancel')}">${csrfInput(req, res)}${submitButton('Cancel the transfer', '')}</form>`
    : html`<p>${dangerLink(settingsLink(req, 'transfer'), 'Transfer ownership')}</p>`;
  return html`<section id="danger" class="danger-zone" aria-labelledby="danger-h"><h3 id="danger-h">Danger zone</h3>
<h4>Transfer ownership</h4>${transfer}
<h4>${repo.is_archived ? 'Unarchive' : 'Archive'} this repository</h4>
<p>${repo.is_archived ? 'It takes pushes, issues and pull requests again.' : 'It becomes read-only: no pushes, issues or pull requests.'}</p>
<form method="post" action="${settingsLink(req, 'archive')}">${csrfInput(req, res)}<input type="hidden" name="archived" value="${repo.is_archived ? '' : 'on'}">${submitButton(repo.is_archived ? 'Unarchive' : 'Archive', repo.is_archived ? '' : 'danger')}</form>
<h4>Delete this repository</h4><p>Its code, issues, pull requests, releases and wiki are deleted for good.</p>
<p>${dangerLink(settingsLink(req, 'delete'), 'Delete this repository')}</p></section>`;
}

/** POST /{owner}/{repo}/settings/archive */
export async function archivePost(req: Request, res: Response): Promise<void> {
  const archived = text(formOf(req), 'archived') === 'on';
  await editRepository(req.ctx.h, repoOf(req), req.ctx.doer!, { archived });
  res.redirect(303, settingsDone(req, '', archived ? 'archived' : 'unarchived'));
}

function typedNameForm(req: Request, res: Response, kind: 'delete' | 'transfer', errors: FieldErrors = {}, values: Record<string, unknown> = {}): void {
  const deleting = kind === 'delete';
  const title = deleting ? 'Delete this repository' : 'Transfer ownership';
  const what = deleting
    ? 'Its code, issues, pull requests, releases, wiki and settings are deleted for good.'
    : 'The new owner (a user or an organization you may create repositories in) gets it at once; another user must accept it first.';
  sendPage(req, res, {
    title, status: Object.keys(errors).length ? 422 : 200,
    body: html`<div class="box"><h1>${title}</h1><p>${what}</p>${formAlert(errors[''])}
<form class="stack" method="post" action="${settingsLink(req, kind)}">${csrfInput(req, res)}
${deleting ? '' : field({ name: 'new_owner', label: 'New owner', value: text(values, 'new_owner'), required: true }, errors)}
${field({ name: 'repo_name', label: `Type ${fullName(req)} to confirm`, value: text(values, 'repo_name'), required: true, autocomplete: 'off' }, errors)}
${submitButton(title, 'danger')} <a class="button" href="${settingsLink(req)}#danger">Cancel</a></form></div>`,
  });
}

const typedRight = (req: Request): FieldErrors | null =>
  (text(formOf(req), 'repo_name').trim() === fullName(req) ? null : { repo_name: `Type the repository's full name, ${fullName(req)}, to confirm.` });

/** GET /{owner}/{repo}/settings/delete */
export const deleteForm = (req: Request, res: Response): void => typedNameForm(req, res, 'delete');

/** POST /{owner}/{repo}/settings/delete: 422 unless the full name was typed. */
export async function deletePost(req: Request, res: Response): Promise<void> {
  const wrong = typedRight(req);
  if (wrong) return typedNameForm(req, res, 'delete', wrong, formOf(req));
  await deleteRepository(req.ctx.h, repoOf(req), req.ctx.doer!);
  res.redirect(303, rootPath(req, '/'));
}

/** GET /{owner}/{repo}/settings/transfer */
export const transferForm = (req: Request, res: Response): void => typedNameForm(req, res, 'transfer');

/** POST /{owner}/{repo}/settings/transfer: moved at once, or pending for the recipient. */
export async function transferPost(req: Request, res: Response): Promise<void> {
  const wrong = typedRight(req);
  if (wrong) return typedNameForm(req, res, 'transfer', wrong, formOf(req));
  let moved: { owner: string; pending: boolean } | undefined;
  const errors = await formAction(async () => {
    const view = await startTransfer(req.ctx.h, req.ctx.doer!, repoOf(req), { newOwner: text(formOf(req), 'new_owner').trim() });
    moved = { owner: view.access.owner.name, pending: !!view.pending };
  }, { new_owner: 'new_owner', newOwner: 'new_owner' });
  if (errors || !moved) return typedNameForm(req, res, 'transfer', errors ?? {}, formOf(req));
  if (moved.pending) return void res.redirect(303, settingsDone(req, '', 'transfer-started'));
  res.redirect(303, repoLink(req.ctx.config, { owner: { ...repoOf(req).owner, name: moved.owner }, repo: repoOf(req).repo }));
}

/** POST /{owner}/{repo}/settings/transfer/cancel: the owner withdraws a pending transfer. */
export async function transferCancel(req: Request, res: Response): Promise<void> {
  await cancelTransfer(req.ctx.db, repoOf(req));
  res.redirect(303, settingsDone(req, '', 'transfer-cancelled'));
}

/** GET /{owner}/{repo}/transfer: the recipient's page of a pending transfer: accept or reject it. */
export async function transferPendingPage(req: Request, res: Response): Promise<void> {
  const pending = await pendingTransfer(req.ctx.db, repoOf(req).repo);
  if (!pending) throw new ForbiddenError('This repository has no pending transfer.');
  const to = (verb: string) => repoLink(req.ctx.config, repoOf(req), `transfer/${verb}`);
  res.locals.transferOffer = null; // this page is where the banner leads
  sendPage(req, res, {
    title: 'Pending transfer',
    body: html`<div class="box"><h1>Pending transfer</h1><p>${pending.doer.name} transfers <strong>${fullName(req)}</strong> to ${pending.recipient.name}.</p>
<form class="inline" method="post" action="${to('accept')}">${csrfInput(req, res)}${submitButton('Accept the transfer')}</form>
<form class="inline" method="post" action="${to('reject')}">${csrfInput(req, res)}${submitButton('Reject the transfer', 'danger')}</form></div>`,
  });
}

/** POST /{owner}/{repo}/transfer/accept and /reject: the recipient's answer (the service checks who may give it). */
export async function transferAnswer(req: Request, res: Response): Promise<void> {
  const accept = req.path.endsWith('/accept');
  const view = accept
    ? await acceptTransfer(req.ctx.h, req.ctx.doer!, repoOf(req))
    : await rejectTransfer(req.ctx.db, req.ctx.doer!, repoOf(req));
  res.redirect(303, repoLink(req.ctx.config, view.access));
}
