import type { DB } from '../../db/connect';
import type { User, UserUpdate } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import { getUserById, searchUsers, updateUser, USER_TYPE_INDIVIDUAL } from '../../models/user';
import { ghostUser } from '../../convert/issue';
import { actionsUser } from '../actions/run-notify';
import { visibleLevels } from '../visibility';

export type SettingsPatch = {
  full_name?: string; website?: string; description?: string; location?: string; language?: string;
  theme?: string; diff_view_style?: string; hide_email?: boolean; hide_activity?: boolean;
  /** The settings pages' own: profile visibility (0 public, 1 limited, 2 private) and single-key shortcuts. */
  visibility?: number; keyboard_shortcuts?: boolean;
};

export async function updateUserSettings(db: DB, user: User, patch: SettingsPatch): Promise<User> {
  const { hide_email, hide_activity, keyboard_shortcuts, ...text } = patch;
  const update: UserUpdate = { ...text, updated_unix: nowUnix() };
  if (keyboard_shortcuts !== undefined) update.keyboard_shortcuts = keyboard_shortcuts ? 1 : 0;
  if (hide_email !== undefined) update.keep_email_private = hide_email ? 1 : 0;
  if (hide_activity !== undefined) update.hide_activity = hide_activity ? 1 : 0;
  await updateUser(db, user.id, update);
  return (await getUserById(db, user.id))!;
}

export type UserSearchInput = {
  viewer: User | null; publicOnly: boolean; keyword: string; uid: number;
  page: { offset: number; limit: number };
};

/** Gitea's pseudo users, which uid=-1 and uid=-2 name in a user search. */
const SYSTEM_USERS: Record<number, () => User> = { [-1]: ghostUser, [-2]: actionsUser };

/**
 * Individual users the viewer may see (the viewer itself always), the keyword matching names
 * and the e-mail addresses the viewer may know; uid -1 and -2 answer Ghost and gitea-actions.
 */
export async function searchVisibleUsers(db: DB, q: UserSearchInput): Promise<{ users: User[]; total: number }> {
  const system = SYSTEM_USERS[q.uid];
  if (system) return { users: [system()], total: 1 };
  return searchUsers(db, {
    keyword: q.keyword || undefined,
    uid: q.uid || undefined,
    type: USER_TYPE_INDIVIDUAL,
    visibilities: visibleLevels(q.viewer, q.publicOnly),
    includeId: q.publicOnly ? undefined : q.viewer?.id,
    byEmail: { viewerId: q.viewer?.id, admin: !!q.viewer?.is_admin },
    // As Gitea's /users/search (SearchUsers' default order).
    alphabetical: true,
    offset: q.page.offset,
    limit: q.page.limit,
  });
}
