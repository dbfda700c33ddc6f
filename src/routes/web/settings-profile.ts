import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { html } from '../../lib/html';
import { avatarUrl } from '../../convert/user';
import { updateProfile } from '../../services/user/account';
import { deleteAvatar, uploadAvatar } from '../../services/user/avatars';
import { VISIBILITY_NAMES } from '../../services/visibility';
import { checkbox, confirmPage, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { rootPath } from './guards';
import { dangerLink, donePath, formOf, radioGroup, settingsPage, text, textArea } from './settings-layout';
import type { Multipart } from './table';

// /user/settings: the profile (full name, website, location, description, visibility, e-mail
// privacy) and the avatar (upload, a multipart form, and delete), through the same services
// as the API's PATCH /user/settings and POST/DELETE /user/avatar.

type Form = Record<string, unknown>;
type View = { values?: Form; errors?: FieldErrors; status?: number; form?: 'profile' | 'avatar' };

const VISIBILITY_HINTS: Record<string, string> = {
  public: 'Everyone sees your profile.',
  limited: 'Only signed-in users see it.',
  private: 'Only you, your organizations\' members and admins see it.',
};

function profileValues(user: User): Form {
  return {
    full_name: user.full_name, website: user.website, location: user.location, description: user.description,
    visibility: VISIBILITY_NAMES[user.visibility] ?? 'public', keep_email_private: user.keep_email_private ? 'on' : '',
  };
}

function page(req: Request, res: Response, view: View = {}): void {
  const user = req.ctx.doer!;
  const mine = view.form === 'profile';
  const v = mine && view.values ? view.values : profileValues(user);
  const errors = mine ? view.errors ?? {} : {};
  const avatarErrors = view.form === 'avatar' ? view.errors ?? {} : {};
  settingsPage(req, res, {
    tab: 'profile', title: 'Profile', status: view.status,
    body: html`<section aria-labelledby="profile-h"><h2 id="profile-h">Public profile</h2>${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, '/user/settings')}">${csrfInput(req, res)}
${field({ name: 'full_name', label: 'Full name', value: text(v, 'full_name'), autocomplete: 'name' }, errors)}
${field({ name: 'website', label: 'Website', type: 'url', value: text(v, 'website'), autocomplete: 'url' }, errors)}
${field({ name: 'location', label: 'Location', value: text(v, 'location') }, errors)}
${textArea({ name: 'description', label: 'Biography', value: text(v, 'description'), hint: 'At most 255 characters.' }, errors)}
${radioGroup('visibility', 'Profile visibility', VISIBILITY_NAMES.map((n) => ({ value: n, label: n[0]!.toUpperCase() + n.slice(1), hint: VISIBILITY_HINTS[n] })), text(v, 'visibility'), errors)}
${checkbox('keep_email_private', 'Hide my e-mail address from others', v.keep_email_private === 'on')}
${submitButton('Update profile')}</form></section>
<section id="avatar" aria-labelledby="avatar-h"><h2 id="avatar-h">Avatar</h2>
<p><img class="avatar-large" src="${avatarUrl(req.ctx.config, user)}" alt="Your current avatar" width="96" height="96"></p>${formAlert(avatarErrors[''])}
<form class="stack" method="post" action="${rootPath(req, '/user/settings/avatar')}" enctype="multipart/form-data">${csrfInput(req, res)}
<div class="field${avatarErrors.avatar ? ' invalid' : ''}"><label for="f-avatar">Choose an image</label>
<input id="f-avatar" name="avatar" type="file" accept="image/png,image/jpeg,image/gif,image/webp" required${avatarErrors.avatar ? html` aria-invalid="true" aria-describedby="f-avatar-error"` : ''}>
${avatarErrors.avatar ? html`<p class="error" id="f-avatar-error">${avatarErrors.avatar}</p>` : ''}</div>
${submitButton('Update avatar')}</form>
${user.avatar ? html`<p>${dangerLink(rootPath(req, '/user/settings/avatar/delete'), 'Delete avatar')}</p>` : ''}</section>`,
  });
}

export const profileForm = (req: Request, res: Response): void => page(req, res);

/** POST /user/settings */
export async function saveProfile(req: Request, res: Response): Promise<void> {
  const body = formOf(req);
  const errors = await formAction(async () => {
    await updateProfile(req.ctx.db, req.ctx.signer!, {
      full_name: text(body, 'full_name'), website: text(body, 'website'), location: text(body, 'location'),
      description: text(body, 'description'), visibility: text(body, 'visibility'), keep_email_private: body.keep_email_private === 'on',
    });
  });
  if (errors) return page(req, res, { values: body, errors, status: 422, form: 'profile' });
  redirectAfterPost(req, res, donePath('/user/settings', 'profile'));
}

/** POST /user/settings/avatar (multipart: `avatar`). */
export async function saveAvatar(req: Request, res: Response): Promise<void> {
  const file = ((req.files ?? []) as Express.Multer.File[])[0];
  const errors = file?.size
    ? await formAction(async () => { await uploadAvatar(req.ctx.h, req.ctx.signer!, file.buffer.toString('base64')); }, { image: 'avatar' })
    : { avatar: 'Choose an image file.' };
  if (errors) return page(req, res, { errors, status: 422, form: 'avatar' });
  redirectAfterPost(req, res, donePath('/user/settings', 'avatar'), 'avatar');
}

export function confirmDeleteAvatar(req: Request, res: Response): void {
  confirmPage(req, res, {
    title: 'Delete your avatar', message: 'Your avatar goes back to the generated one.',
    action: rootPath(req, '/user/settings/avatar/delete'), button: 'Delete avatar', cancel: rootPath(req, '/user/settings#avatar'),
  });
}

/** POST /user/settings/avatar/delete */
export async function removeAvatar(req: Request, res: Response): Promise<void> {
  await deleteAvatar(req.ctx.h, req.ctx.signer!);
  redirectAfterPost(req, res, donePath('/user/settings', 'avatar-deleted'), 'avatar');
}

/** The largest upload read: past [picture] avatar_max_file_size the service answers the form (422); far past it, 413. */
export const AVATAR: Multipart = { field: 'avatar', limits: (req: Request) => ({ fileSize: req.ctx.config.picture.avatar_max_file_size * 2 + 1024, files: 1 }) };
