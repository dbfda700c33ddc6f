import type { User } from '../db/schema';

export type VisibilityName = 'public' | 'limited' | 'private';
export const VISIBILITY: Record<VisibilityName, number> = { public: 0, limited: 1, private: 2 };
export const VISIBILITY_NAMES: VisibilityName[] = ['public', 'limited', 'private'];
export const visibilityName = (v: number): VisibilityName => VISIBILITY_NAMES[v] ?? 'public';

/** Whether `viewer` may see `user` at all (404 otherwise). Organizations extend this later. */
export function isUserVisibleTo(user: User, viewer: User | null): boolean {
  if (user.visibility === VISIBILITY.public) return true;
  if (!viewer) return false;
  if (viewer.is_admin || viewer.id === user.id) return true;
  if (user.visibility === VISIBILITY.limited) return !viewer.is_restricted;
  return false;
}

/**
 * Visibility levels a viewer may list in searches (the viewer itself is added by the caller).
 * As Gitea's BuildCanSeeUserCondition, a restricted viewer lists no other user.
 */
export function visibleLevels(viewer: User | null, publicOnly: boolean): number[] | undefined {
  if (publicOnly || !viewer) return [VISIBILITY.public];
  if (viewer.is_admin) return undefined;
  return viewer.is_restricted ? [] : [VISIBILITY.public, VISIBILITY.limited];
}
