import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { adminDeleteUser, adminEditUser, assertSiteAdmin } from '../../services/user/admin-users';
import { createUser, renameUser, requireUser } from '../../services/user/users';
import { adminEmailList, adminUserList } from '../../services/web/admin-dashboard';
import { doerOf } from '../context';
import { checkbox, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { adminPage, pageWindow, searchForm, searchTerm } from './admin-layout';
import { pager, sendPage, webUrl, when } from './layout';
import { dangerLink, formOf, text } from './settings-layout';

// /-/admin/users: the accounts with search and paging, a new account (Gitea's default: the
// password must be changed at first sign-in), an account's edit form and its deletion (with or
// without purging what it owns), a rename (its own form, so a taken name leaves the rest of the
// edit unsaved rather than half-saved), through the services of the API's /admin/users.

type Form = Record<string, unknown>;
const USERS_PER_PAGE = 50;
const usersPath = '/-/admin/users';
const userPath = (u: Pick<User, 'name'>, rest = '') => `${usersPath}/${encodePath(u.name)}${rest}`;

function userRow(req: Request, u: User): SafeHtml {
  const { config } = req.ctx;
  const flags = [u.is_admin ? 'Admin' : '', u.is_restricted ? 'Restricted' : '', u.prohibit_login ? 'Login prohibited' : '', u.is_active ? '' : 'Inactive']
    .filter(Boolean).map((f) => html` <span class="badge">${f}</span>`);
  return html`<tr><td><a href="${webUrl(config, userPath(u))}">${u.name}</a>${flags}</td><td>${u.email}</td><td>${String(u.num_repos)}</td><td>${when(u.created_unix)}</td></tr>`;
}

/** GET /-/admin/users */
export async function usersPage(req: Request, res: Response): Promise<void> {
  const q = searchTerm(req);
  const w = pageWindow(req, USERS_PER_PAGE);
  const { users, total } = await adminUserList(req.ctx.db, req.ctx.doer, q, w);
  const base = webUrl(req.ctx.config, usersPath);
  adminPage(req, res, {
    tab: 'users', title: `User accounts (${total})`,
    body: html`<p><a class="button primary" href="${webUrl(req.ctx.config, `${usersPath}/new`)}">Create user account</a> <a href="${webUrl(req.ctx.config, '-/admin/emails')}">E-mail addresses</a></p>
${searchForm(base, 'Search user accounts', q)}
<div class="scroll"><table class="list-table"><tr><th>Name</th><th>E-mail</th><th>Repositories</th><th>Created</th></tr>${users.map((u) => userRow(req, u))}</table></div>
${pager(base, w.page, w.offset + users.length < total, q ? { q } : {})}`,
  });
}

function newForm(req: Request, res: Response, v: Form, errors: FieldErrors): SafeHtml {
  const fresh = !Object.keys(v).length;
  return html`${formAlert(errors[''])}<form class="stack" method="post" action="${webUrl(req.ctx.config, `${usersPath}/new`)}">${csrfInput(req, res)}
${field({ name: 'user_name', label: 'Username', value: text(v, 'user_name'), required: true, autofocus: true }, errors)}
${field({ name: 'email', label: 'E-mail address', type: 'email', value: text(v, 'email'), required: true }, errors)}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', required: true }, errors)}
${checkbox('must_change_password', 'Require the user to change the password at first sign-in', fresh || v.must_change_password === 'on')}
${checkbox('restricted', 'Restricted: sees only what they are explicitly given', v.restricted === 'on')}
${submitButton('Create user account')}</form>`;
}

/** GET /-/admin/users/new */
export function newUserPage(req: Request, res: Response): void {
  assertSiteAdmin(req.ctx.doer);
  adminPage(req, res, { tab: 'users', title: 'Create user account', body: newForm(req, res, {}, {}) });
}

/** POST /-/admin/users/new: 303 to the new account's page, or the form again (422). */
export async function newUserPost(req: Request, res: Response): Promise<void> {
  assertSiteAdmin(req.ctx.doer);
  const b = formOf(req);
  let made: User | undefined;
  const errors = await formAction(async () => {
    made = await createUser(req.ctx.db, req.ctx.config, {
      username: text(b, 'user_name').trim(), email: text(b, 'email').trim(), password: text(b, 'password'),
      mustChangePassword: b.must_change_password === 'on', restricted: b.restricted === 'on',
    });
  }, { username: 'user_name' });
  if (errors || !made) return adminPage(req, res, { tab: 'users', title: 'Create user account', status: 422, body: newForm(req, res, b, errors ?? {}) });
  redirectAfterPost(req, res, `${userPath(made)}?done=user-created`);
}

const editValues = (u: User): Form => ({
  full_name: u.full_name, email: u.email, website: u.website, location: u.location, max_repo_creation: String(u.max_repo_creation),
  admin: u.is_admin ? 'on' : '', restricted: u.is_restricted ? 'on' : '', prohibit_login: u.prohibit_login ? 'on' : '',
  active: u.is_active ? 'on' : '', must_change_password: u.must_change_password ? 'on' : '',
  allow_create_organization: u.allow_create_organization ? 'on' : '', allow_git_hook: u.allow_git_hook ? 'on' : '', allow_import_local: u.allow_import_local ? 'on' : '',
});

const FLAG_LABELS: [string, string][] = [
  ['active', 'Active'], ['admin', 'Site administrator'], ['restricted', 'Restricted'], ['prohibit_login', 'Prohibit sign-in'],
  ['must_change_password', 'Must change the password at next sign-in'], ['allow_create_organization', 'May create organizations'],
  ['allow_git_hook', 'May create git hooks'], ['allow_import_local', 'May import local repositories'],
];

function editForm(req: Request, res: Response, u: User, v: Form, errors: FieldErrors): SafeHtml {
  return html`<p>Account of <a href="${webUrl(req.ctx.config, encodePath(u.name))}">${u.name}</a>, created ${when(u.created_unix)}.</p>${formAlert(errors[''])}
<form class="stack" method="post" action="${webUrl(req.ctx.config, userPath(u))}">${csrfInput(req, res)}
${field({ name: 'full_name', label: 'Full name', value: text(v, 'full_name') }, errors)}
${field({ name: 'email', label: 'E-mail address', type: 'email', value: text(v, 'email'), required: true }, errors)}
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: 'Leave empty to keep the password.' }, errors)}
${field({ name: 'website', label: 'Website', type: 'url', value: text(v, 'website') }, errors)}
${field({ name: 'location', label: 'Location', value: text(v, 'location') }, errors)}
${field({ name: 'max_repo_creation', label: 'Maximum repositories', type: 'number', value: text(v, 'max_repo_creation'), hint: '-1 uses the site default.' }, errors)}
<fieldset><legend>Permissions</legend>${FLAG_LABELS.map(([k, label]) => checkbox(k, label, v[k] === 'on'))}</fieldset>
${submitButton('Update user account')}</form>
${renameForm(req, res, u, v, errors)}
<h2>Delete this account</h2><p>${dangerLink(webUrl(req.ctx.config, userPath(u, '/delete')), 'Delete user account')}</p>`;
}

// The old name keeps leading to the account (a redirect), as the API's rename does.
function renameForm(req: Request, res: Response, u: User, v: Form, errors: FieldErrors): SafeHtml {
  return html`<h2 id="rename">Rename this account</h2><form class="stack" method="post" action="${webUrl(req.ctx.config, userPath(u, '/rename'))}">${csrfInput(req, res)}
${field({ name: 'new_username', label: 'Username', value: text(v, 'new_username') || u.name, required: true, hint: 'The old name redirects to the new one until someone takes it.' }, errors)}
${submitButton('Rename user account')}</form>`;
}

async function contextUser(req: Request): Promise<User> {
  assertSiteAdmin(req.ctx.doer);
  return requireUser(req.ctx.db, String(req.params.username));
}

/** GET /-/admin/users/{username} */
export async function editUserPage(req: Request, res: Response): Promise<void> {
  const u = await contextUser(req);
  adminPage(req, res, { tab: 'users', title: `Edit user account ${u.name}`, body: editForm(req, res, u, editValues(u), {}) });
}

function parseMax(raw: string): number | undefined {
  if (!raw.trim()) return undefined;
  const n = Number(raw);
  return Number.isInteger(n) ? n : Number.NaN;
}

/** POST /-/admin/users/{username} */
export async function editUserPost(req: Request, res: Response): Promise<void> {
  const u = await contextUser(req);
  const b = formOf(req);
  const max = parseMax(text(b, 'max_repo_creation'));
  const flags = Object.fromEntries(FLAG_LABELS.map(([k]) => [k, b[k] === 'on']));
  const errors = Number.isNaN(max) ? { max_repo_creation: 'Enter a whole number.' } : await formAction(async () => {
    await adminEditUser(req.ctx.h, u, {
      ...flags, full_name: text(b, 'full_name').slice(0, 100), email: text(b, 'email'), password: text(b, 'password') || undefined,
      website: text(b, 'website'), location: text(b, 'location').slice(0, 50), max_repo_creation: max,
    });
  });
  if (errors) return adminPage(req, res, { tab: 'users', title: `Edit user account ${u.name}`, status: 422, body: editForm(req, res, u, b, errors) });
  redirectAfterPost(req, res, `${userPath(u)}?done=user-updated`);
}

/** POST /-/admin/users/{username}/rename: 303 to the account under its new name, or 422 beside the field. */
export async function renameUserPost(req: Request, res: Response): Promise<void> {
  const u = await contextUser(req);
  const b = formOf(req);
  const name = text(b, 'new_username').trim();
  const errors = await formAction(() => renameUser(req.ctx.h, u, name), { username: 'new_username' });
  if (errors) return adminPage(req, res, { tab: 'users', title: `Edit user account ${u.name}`, status: 422, body: editForm(req, res, u, { ...editValues(u), new_username: name }, errors) });
  redirectAfterPost(req, res, `${userPath({ name })}?done=user-renamed`, 'rename');
}

/** GET /-/admin/users/{username}/delete: the confirmation, with the purge choice. */
export async function deleteUserPage(req: Request, res: Response, error = ''): Promise<void> {
  const u = await contextUser(req);
  sendPage(req, res, {
    title: `Delete ${u.name}`, status: error ? 422 : 200,
    body: html`<div class="box"><h1>Delete ${u.name}</h1>${formAlert(error)}<p>The account, its keys, tokens and settings are deleted. Without purging, an account that still owns repositories or organizations cannot be deleted.</p>
<form method="post" action="${webUrl(req.ctx.config, userPath(u, '/delete'))}">${csrfInput(req, res)}
${checkbox('purge', 'Purge: also delete its repositories and leave or delete its organizations', false)}
${submitButton('Delete user account', 'danger')} <a class="button" href="${webUrl(req.ctx.config, userPath(u))}">Cancel</a></form></div>`,
  });
}

/** POST /-/admin/users/{username}/delete */
export async function deleteUserPost(req: Request, res: Response): Promise<void> {
  const u = await contextUser(req);
  const errors = await formAction(() => adminDeleteUser(req.ctx.h, doerOf(req), u, formOf(req).purge === 'on'));
  if (errors) return deleteUserPage(req, res, Object.values(errors)[0] ?? 'The account could not be deleted.');
  redirectAfterPost(req, res, `${usersPath}?done=user-deleted`);
}

/** GET /-/admin/emails: every account's e-mail addresses, with search and paging. */
export async function emailsPage(req: Request, res: Response): Promise<void> {
  const q = searchTerm(req);
  const w = pageWindow(req, USERS_PER_PAGE);
  const { emails, total } = await adminEmailList(req.ctx.db, req.ctx.doer, q, w);
  const base = webUrl(req.ctx.config, '-/admin/emails');
  const row = (e: (typeof emails)[number]) => html`<tr><td>${e.email}</td><td><a href="${webUrl(req.ctx.config, `${usersPath}/${encodePath(e.user_name)}`)}">${e.user_name}</a></td><td>${e.is_primary ? 'Primary' : ''}</td><td>${e.is_activated ? 'Activated' : 'Not activated'}</td></tr>`;
  adminPage(req, res, {
    tab: 'users', title: `E-mail addresses (${total})`,
    body: html`${searchForm(base, 'Search e-mail addresses', q)}
<div class="scroll"><table class="list-table"><tr><th>Address</th><th>User</th><th>Primary</th><th>State</th></tr>${emails.map(row)}</table></div>
${pager(base, w.page, w.offset + emails.length < total, q ? { q } : {})}`,
  });
}
