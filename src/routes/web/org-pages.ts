import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { avatarUrl } from '../../convert/user';
import { createOrganization, deleteOrganization, editOrganization } from '../../services/org/orgs';
import { deleteAvatar, uploadAvatar } from '../../services/user/avatars';
import { VISIBILITY_NAMES, type VisibilityName } from '../../services/visibility';
import { orgForOwner } from '../../services/web/org-settings';
import { doerOf } from '../context';
import { checkbox, confirmPage, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { sendPage, webUrl } from './layout';
import { dangerLink, formOf, radioGroup, text, textArea } from './settings-layout';

// /org/create and an organization's settings (/org/{org}/settings: the profile and the typed-name
// deletion), through the services of POST /orgs, PATCH /orgs/{org} and DELETE /orgs/{org}.

type Form = Record<string, unknown>;

const VISIBILITY_HINTS: Record<string, string> = {
  public: 'Everyone sees it.', limited: 'Only signed-in users see it.', private: 'Only its members see it.',
};
const visibilityChoices = VISIBILITY_NAMES.map((n) => ({ value: n, label: n[0]!.toUpperCase() + n.slice(1), hint: VISIBILITY_HINTS[n] }));
const visibilityOf = (v: string): VisibilityName | undefined => ((VISIBILITY_NAMES as readonly string[]).includes(v) ? v as VisibilityName : undefined);
export const orgPath = (org: Pick<User, 'name'>, rest = '') => `/org/${encodePath(org.name)}${rest}`;

function createForm(req: Request, res: Response, v: Form, errors: FieldErrors): SafeHtml {
  return html`<h1>New organization</h1>${formAlert(errors[''])}
<form class="stack" method="post" action="${webUrl(req.ctx.config, 'org/create')}">${csrfInput(req, res)}
${field({ name: 'org_name', label: 'Organization name', value: text(v, 'org_name'), required: true, autofocus: true }, errors)}
${radioGroup('visibility', 'Visibility', visibilityChoices, text(v, 'visibility') || 'public', errors)}
${checkbox('repo_admin_change_team_access', 'Repository admins may add and remove teams\' access', v.repo_admin_change_team_access === 'on')}
${submitButton('Create organization')}</form>`;
}

/** GET /org/create */
export function createOrgPage(req: Request, res: Response): void {
  sendPage(req, res, { title: 'New organization', body: createForm(req, res, { repo_admin_change_team_access: 'on' }, {}) });
}

/** POST /org/create: 303 to the new organization, or the form again (422). */
export async function createOrgPost(req: Request, res: Response): Promise<void> {
  const b = formOf(req);
  let org: User | undefined;
  const errors = await formAction(async () => {
    org = await createOrganization(req.ctx.db, doerOf(req), {
      username: text(b, 'org_name').trim(), visibility: visibilityOf(text(b, 'visibility')),
      repo_admin_change_team_access: b.repo_admin_change_team_access === 'on',
    });
  }, { username: 'org_name' });
  if (errors || !org) return sendPage(req, res, { status: 422, title: 'New organization', body: createForm(req, res, b, errors ?? {}) });
  redirectAfterPost(req, res, encodePath(org.name));
}

const SETTINGS_TABS: [string, string][] = [
  ['', 'Profile'], ['/hooks', 'Webhooks'], ['/labels', 'Labels'], ['/blocked_users', 'Blocked users'], ['/actions/secrets', 'Secrets'], ['/actions/variables', 'Variables'],
];

/** The settings' navigation (`current`: the tab's path under /settings), the teams beside it. */
export function settingsNav(req: Request, org: User, current = ''): SafeHtml {
  const { config } = req.ctx;
  const tab = ([rest, label]: [string, string]) =>
    html`<a${rest === current ? html` aria-current="page"` : ''} href="${webUrl(config, orgPath(org, `/settings${rest}`))}">${label}</a>`;
  return html`<nav class="tabs" aria-label="Organization settings">${SETTINGS_TABS.map(tab)}
<a href="${webUrl(config, orgPath(org, '/teams'))}">Teams</a><a href="${webUrl(config, orgPath(org, '/teams/new'))}">New team</a></nav>`;
}

const profileValues = (org: User): Form => ({
  full_name: org.full_name, description: org.description, website: org.website, location: org.location,
  visibility: VISIBILITY_NAMES[org.visibility] ?? 'public', repo_admin_change_team_access: org.repo_admin_change_team_access ? 'on' : '',
});

function settingsBody(req: Request, res: Response, org: User, v: Form, errors: FieldErrors): SafeHtml {
  const { config } = req.ctx;
  const done = req.query.done === 'profile' ? html`<div class="flash" role="status">The organization's profile has been updated.</div>` : '';
  return html`<p><a href="${webUrl(config, encodePath(org.name))}">Back to ${org.name}</a></p><h1>Settings</h1>${settingsNav(req, org)}${done}${formAlert(errors[''])}
<form class="stack" method="post" action="${webUrl(config, orgPath(org, '/settings'))}">${csrfInput(req, res)}
${field({ name: 'full_name', label: 'Full name', value: text(v, 'full_name') }, errors)}
${textArea({ name: 'description', label: 'Description', value: text(v, 'description'), hint: 'At most 255 characters.' }, errors)}
${field({ name: 'website', label: 'Website', type: 'url', value: text(v, 'website') }, errors)}
${field({ name: 'location', label: 'Location', value: text(v, 'location') }, errors)}
${radioGroup('visibility', 'Visibility', visibilityChoices, text(v, 'visibility'), errors)}
${checkbox('repo_admin_change_team_access', 'Repository admins may add and remove teams\' access', v.repo_admin_change_team_access === 'on')}
${submitButton('Update settings')}</form>
${avatarSection(req, res, org, errors)}
<h2>Delete this organization</h2><p>${dangerLink(webUrl(config, orgPath(org, '/settings/delete')), 'Delete organization')}</p>`;
}

function avatarSection(req: Request, res: Response, org: User, errors: FieldErrors): SafeHtml {
  const { config } = req.ctx;
  const error = errors.avatar;
  return html`<section id="avatar" aria-labelledby="avatar-h"><h2 id="avatar-h">Avatar</h2>
<p><img class="avatar-large" src="${avatarUrl(config, org)}" alt="The current avatar of ${org.name}" width="96" height="96"></p>
<form class="stack" method="post" action="${webUrl(config, orgPath(org, '/settings/avatar'))}" enctype="multipart/form-data">${csrfInput(req, res)}
<div class="field${error ? ' invalid' : ''}"><label for="f-avatar">Choose an image</label>
<input id="f-avatar" name="avatar" type="file" accept="image/png,image/jpeg,image/gif,image/webp" required${error ? html` aria-invalid="true" aria-describedby="f-avatar-error"` : ''}>
${error ? html`<p class="error" id="f-avatar-error">${error}</p>` : ''}</div>${submitButton('Update avatar')}</form>
${org.avatar ? html`<p>${dangerLink(webUrl(config, orgPath(org, '/settings/avatar/delete')), 'Delete avatar')}</p>` : ''}</section>`;
}

/** POST /org/{org}/settings/avatar (multipart: `avatar`), as POST /orgs/{org}/avatar. */
export async function orgAvatarPost(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  const file = ((req.files ?? []) as Express.Multer.File[])[0];
  const errors = file?.size
    ? await formAction(async () => { await uploadAvatar(req.ctx.h, org, file.buffer.toString('base64')); }, { image: 'avatar' })
    : { avatar: 'Choose an image file.' };
  if (errors) return sendPage(req, res, { status: 422, title: `${org.name} settings`, body: settingsBody(req, res, org, profileValues(org), errors.avatar ? errors : { avatar: errors[''] ?? '' }) });
  redirectAfterPost(req, res, orgPath(org, '/settings'), 'avatar');
}

/** GET /org/{org}/settings/avatar/delete */
export async function orgAvatarDeletePage(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  const back = webUrl(req.ctx.config, orgPath(org, '/settings'));
  confirmPage(req, res, { title: 'Delete the avatar', message: `The avatar of ${org.name} goes back to the generated one.`, action: webUrl(req.ctx.config, orgPath(org, '/settings/avatar/delete')), button: 'Delete avatar', cancel: back });
}

/** POST /org/{org}/settings/avatar/delete */
export async function orgAvatarDelete(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  await deleteAvatar(req.ctx.h, org);
  redirectAfterPost(req, res, orgPath(org, '/settings'), 'avatar');
}

/** GET /org/{org}/settings */
export async function orgSettingsPage(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  sendPage(req, res, { title: `${org.name} settings`, body: settingsBody(req, res, org, profileValues(org), {}) });
}

function checkProfile(b: Form): FieldErrors | null {
  const website = text(b, 'website').trim();
  if (website && !/^https?:\/\/[^\s]+$/i.test(website)) return { website: 'Enter an http or https address.' };
  if (text(b, 'full_name').length > 100) return { full_name: 'At most 100 characters.' };
  if (text(b, 'description').length > 255) return { description: 'At most 255 characters.' };
  if (text(b, 'location').length > 50) return { location: 'At most 50 characters.' };
  return null;
}

/** POST /org/{org}/settings */
export async function orgSettingsPost(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  const b = formOf(req);
  const errors = checkProfile(b) ?? await formAction(async () => {
    await editOrganization(req.ctx.db, org, {
      full_name: text(b, 'full_name'), description: text(b, 'description'), website: text(b, 'website').trim(), location: text(b, 'location'),
      visibility: visibilityOf(text(b, 'visibility')), repo_admin_change_team_access: b.repo_admin_change_team_access === 'on',
    });
  });
  if (errors) return sendPage(req, res, { status: 422, title: `${org.name} settings`, body: settingsBody(req, res, org, b, errors) });
  redirectAfterPost(req, res, `${orgPath(org, '/settings')}?done=profile`);
}

function deleteBody(req: Request, res: Response, org: User, errors: FieldErrors): SafeHtml {
  const { config } = req.ctx;
  return html`<div class="box"><h1>Delete ${org.name}</h1>${formAlert(errors[''])}
<p>The organization, its teams, members' access and webhooks are deleted. An organization that still owns repositories cannot be deleted: transfer or delete them first.</p>
<form class="stack" method="post" action="${webUrl(config, orgPath(org, '/settings/delete'))}">${csrfInput(req, res)}
${field({ name: 'org_name', label: `Type ${org.name} to confirm`, required: true, autocomplete: 'off' }, errors)}
${submitButton('Delete organization', 'danger')} <a class="button" href="${webUrl(config, orgPath(org, '/settings'))}">Cancel</a></form></div>`;
}

/** GET /org/{org}/settings/delete */
export async function orgDeletePage(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  sendPage(req, res, { title: `Delete ${org.name}`, body: deleteBody(req, res, org, {}) });
}

/** POST /org/{org}/settings/delete: the typed name must match; 303 home. */
export async function orgDeletePost(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  const typed = text(formOf(req), 'org_name').trim();
  const errors = typed.toLowerCase() !== org.lower_name
    ? { org_name: 'The name typed is not this organization\'s.' }
    : await formAction(() => deleteOrganization(req.ctx.h, org));
  if (errors) return sendPage(req, res, { status: 422, title: `Delete ${org.name}`, body: deleteBody(req, res, org, errors) });
  redirectAfterPost(req, res, '/');
}
