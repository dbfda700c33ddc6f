import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { verifyPassword } from '../../lib/password';
import { getEmail } from '../../models/email';
import { VISIBILITY, type VisibilityName } from '../visibility';
import { updateUserSettings } from './user-settings';
import { deleteUser, updateUserWithEmail } from './users';

// What a user changes of their own account from the settings pages, with Gitea's form checks
// (routers/web/user/setting): the profile, the primary e-mail, the appearance, deleting the
// account. The API's settings endpoint keeps its own shape (user-settings.ts) under these.

export type ProfileForm = {
  full_name: string; website: string; location: string; description: string; visibility: string; keep_email_private: boolean;
};

/** Gitea's UpdateProfileForm limits: the field named, 422 on the page. */
function checkProfile(form: ProfileForm): VisibilityName {
  if (form.full_name.length > 100) throw new InvalidError('The full name must be at most 100 characters.', 'full_name');
  if (form.location.length > 50) throw new InvalidError('The location must be at most 50 characters.', 'location');
  if (form.description.length > 255) throw new InvalidError('The description must be at most 255 characters.', 'description');
  if (form.website && !(URL.canParse(form.website) && /^https?:$/.test(new URL(form.website).protocol))) {
    throw new InvalidError('The website must be an http or https URL.', 'website');
  }
  if (!(form.visibility in VISIBILITY)) throw new InvalidError('Choose public, limited or private.', 'visibility');
  return form.visibility as VisibilityName;
}

export async function updateProfile(db: DB, user: User, form: ProfileForm): Promise<User> {
  const visibility = checkProfile(form);
  return updateUserSettings(db, user, {
    full_name: form.full_name.trim(), website: form.website.trim(), location: form.location.trim(),
    description: form.description, hide_email: form.keep_email_private, visibility: VISIBILITY[visibility],
  });
}

export type AppearanceForm = { theme: string; keyboard_shortcuts: boolean; diff_view_style: string };

const THEMES = ['gitea-auto', 'gitea-light', 'gitea-dark'];

/** Theme (Gitea's names), single-key shortcuts, and the diff style (Gitea's "unified" or "split"). */
export async function updateAppearance(db: DB, user: User, form: AppearanceForm): Promise<User> {
  if (!THEMES.includes(form.theme)) throw new InvalidError('Choose auto, light or dark.', 'theme');
  if (form.diff_view_style !== 'unified' && form.diff_view_style !== 'split') throw new InvalidError('Choose unified or split.', 'diff_view_style');
  return updateUserSettings(db, user, { theme: form.theme, diff_view_style: form.diff_view_style, keyboard_shortcuts: form.keyboard_shortcuts });
}

/** Makes one of the user's own (activated) addresses the primary one. */
export async function makePrimaryEmail(db: DB, user: User, email: string): Promise<void> {
  const row = await getEmail(db, email.trim());
  if (!row || row.uid !== user.id) throw new NotFoundError(`email address does not exist [email: ${email}]`);
  if (row.is_primary) return;
  await updateUserWithEmail(db, user, {}, row.email);
}

/** Deletes the user's own account once the password proves it is them (Gitea's rules apply). */
export async function deleteOwnAccount(db: DB, user: User, password: string): Promise<void> {
  if (!(await verifyPassword(password, user.passwd, user.passwd_hash_algo))) {
    throw new InvalidError('The password is not correct.', 'password');
  }
  await deleteUser(db, user);
}
