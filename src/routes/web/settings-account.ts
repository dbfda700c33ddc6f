import type { Request, Response } from 'express';
import type { EmailAddress } from '../../db/schema';
import { html } from '../../lib/html';
import { deleteOwnAccount, makePrimaryEmail } from '../../services/user/account';
import { addEmails, deleteEmails, listEmails } from '../../services/user/emails';
import { changeOwnPassword } from '../../services/user/users';
import { csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { rootPath } from './guards';
import { sendPage } from './layout';
import { endSessionCookie, sessionOf } from './session';
import { dangerLink, donePath, formOf, settingsPage, text } from './settings-layout';

// /user/settings/account: the password (the other sessions end with it), the e-mail addresses
// (add, make primary, delete) and deleting the account, behind a confirmation page that asks
// for the password again.

type Form = Record<string, unknown>;
type View = { values?: Form; errors?: FieldErrors; status?: number; form?: 'password' | 'email' };
const PATH = '/user/settings/account';

function emailRow(req: Request, res: Response, e: EmailAddress) {
  const primary = e.is_primary ? html` <span class="badge">Primary</span>` : '';
  const actions = e.is_primary ? '' : html`<div class="row-actions"><form method="post" action="${rootPath(req, `${PATH}/email/primary`)}">${csrfInput(req, res)}<input type="hidden" name="email" value="${e.email}">
<button type="submit" aria-label="Make ${e.email} primary">Make primary</button></form>
${dangerLink(rootPath(req, `${PATH}/email/delete?email=${encodeURIComponent(e.email)}`), 'Delete', `Delete ${e.email}`)}</div>`;
  return html`<li>${e.email}${primary}${actions}</li>`;
}

async function page(req: Request, res: Response, view: View = {}): Promise<void> {
  const pw = view.form === 'password' ? view.errors ?? {} : {};
  const em = view.form === 'email' ? view.errors ?? {} : {};
  const emails = await listEmails(req.ctx.db, req.ctx.doer!);
  settingsPage(req, res, {
    tab: 'account', title: 'Account', status: view.status,
    body: html`<section id="password" aria-labelledby="password-h"><h2 id="password-h">Password</h2>${formAlert(pw[''])}
<form class="stack" method="post" action="${rootPath(req, PATH)}">${csrfInput(req, res)}
${field({ name: 'old_password', label: 'Current password', type: 'password', autocomplete: 'current-password', required: true }, pw)}
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true, hint: `At least ${req.ctx.config.security.min_password_length} characters. Your other sessions will be signed out.` }, pw)}
${field({ name: 'retype', label: 'Confirm the new password', type: 'password', autocomplete: 'new-password', required: true }, pw)}
${submitButton('Change password')}</form></section>
<section id="emails" aria-labelledby="emails-h"><h2 id="emails-h">E-mail addresses</h2>
<ul class="list">${emails.map((e) => emailRow(req, res, e))}</ul>${formAlert(em[''])}
<form class="stack" method="post" action="${rootPath(req, `${PATH}/email`)}">${csrfInput(req, res)}
${field({ name: 'email', label: 'Add an e-mail address', type: 'email', value: view.form === 'email' ? text(view.values ?? {}, 'email') : '', autocomplete: 'email', required: true }, em)}
${submitButton('Add e-mail address')}</form></section>
<section id="delete" aria-labelledby="delete-h"><h2 id="delete-h">Delete your account</h2>
<p>Deleting your account cannot be undone. Repositories you own and organizations you belong to must be transferred or left first.</p>
<p>${dangerLink(rootPath(req, `${PATH}/delete`), 'Delete your account')}</p></section>`,
  });
}

export const accountForm = (req: Request, res: Response): Promise<void> => page(req, res);

/** POST /user/settings/account: the password. This browser stays signed in, the others end. */
export async function changePassword(req: Request, res: Response): Promise<void> {
  const keep = sessionOf(res)?.id ?? 0;
  const errors = await formAction(() => changeOwnPassword(req.ctx.h, req.ctx.signer!, formOf(req), keep));
  if (errors) return page(req, res, { errors, status: 422, form: 'password' });
  redirectAfterPost(req, res, donePath(PATH, 'password'), 'password');
}

/** POST /user/settings/account/email */
export async function addEmail(req: Request, res: Response): Promise<void> {
  const body = formOf(req);
  const errors = await formAction(async () => { await addEmails(req.ctx.h, req.ctx.signer!, [text(body, 'email')]); }, { emails: 'email' });
  if (errors) return page(req, res, { values: body, errors, status: 422, form: 'email' });
  redirectAfterPost(req, res, donePath(PATH, 'email-added'), 'emails');
}

/** POST /user/settings/account/email/primary */
export async function primaryEmail(req: Request, res: Response): Promise<void> {
  await makePrimaryEmail(req.ctx.db, req.ctx.signer!, text(formOf(req), 'email'));
  redirectAfterPost(req, res, donePath(PATH, 'email-primary'), 'emails');
}

export function confirmDeleteEmail(req: Request, res: Response): void {
  const email = typeof req.query.email === 'string' ? req.query.email : '';
  sendPage(req, res, {
    title: 'Delete an e-mail address',
    body: html`<div class="box"><h1>Delete an e-mail address</h1><p>Remove <strong>${email}</strong> from your account?</p>
<form method="post" action="${rootPath(req, `${PATH}/email/delete`)}">${csrfInput(req, res)}<input type="hidden" name="email" value="${email}">
${submitButton('Delete e-mail address', 'danger')} <a class="button" href="${rootPath(req, `${PATH}#emails`)}">Cancel</a></form></div>`,
  });
}

/** POST /user/settings/account/email/delete (the primary one stays: a 400 page). */
export async function deleteEmail(req: Request, res: Response): Promise<void> {
  await deleteEmails(req.ctx.db, req.ctx.signer!, [text(formOf(req), 'email')]);
  redirectAfterPost(req, res, donePath(PATH, 'email-deleted'), 'emails');
}

function deletePage(req: Request, res: Response, errors: FieldErrors = {}, status = 200): void {
  sendPage(req, res, {
    status,
    title: 'Delete your account',
    body: html`<div class="box"><h1>Delete your account</h1>
<p>This deletes <strong>${req.ctx.doer!.name}</strong> and cannot be undone. Enter your password to confirm.</p>${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, `${PATH}/delete`)}">${csrfInput(req, res)}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true }, errors)}
${submitButton('Delete my account', 'danger')} <a class="button" href="${rootPath(req, `${PATH}#delete`)}">Cancel</a></form></div>`,
  });
}

export const confirmDeleteAccount = (req: Request, res: Response): void => deletePage(req, res);

/** POST /user/settings/account/delete: the account goes, and with it this browser's session. */
export async function deleteAccount(req: Request, res: Response): Promise<void> {
  const errors = await formAction(() => deleteOwnAccount(req.ctx.db, req.ctx.signer!, text(formOf(req), 'password')));
  if (errors) return deletePage(req, res, errors, 422);
  endSessionCookie(req, res);
  res.redirect(303, req.ctx.config.server.root_url);
}
