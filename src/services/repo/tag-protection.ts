import type { DB } from '../../db/connect';
import type { ProtectedTag, User } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';
import { BadRequestError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { compileGlob } from '../../lib/glob';
import { nowUnix } from '../../lib/time';
import {
  deleteProtectedTag, getProtectedTagById, getProtectedTagByPattern, insertProtectedTag, listProtectedTags, updateProtectedTag,
} from '../../models/protected-tag';
import { isUserInTeams } from '../../models/user-lookup';
import { ACCESS } from '../permissions';
import type { RepoAccess } from './repos';
import { teamIdsByNames, teamNamesOf, userIdsByNames, userNamesOf } from './whitelists';
import { recordAudit, type AuditTarget } from '../audit/record';

export type TagProtectionView = { row: ProtectedTag; users: string[]; teams: string[] };
export type TagProtectionInput = { name_pattern?: string | null; whitelist_usernames?: string[] | null; whitelist_teams?: string[] | null };

/** `/re/` is a regular expression (searched, not anchored); anything else a glob where `*` spans `/`. */
function compilePattern(pattern: string): RegExp {
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) return new RegExp(pattern.slice(1, -1));
  return compileGlob(pattern);
}

function assertValidPattern(pattern: string): void {
  try {
    compilePattern(pattern);
  } catch (err) {
    throw new InvalidError(`[name_pattern]: invalid pattern: ${(err as Error).message}`, 'name_pattern');
  }
}

const idsOf = (json: string): number[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
};

/**
 * As Gitea's IsUserAllowedToControlTag: a tag no rule matches is free; otherwise some matching
 * rule must list the user (or one of their teams).
 */
export async function mayControlTag(db: DB, rules: ProtectedTag[], tag: string, user: User): Promise<boolean> {
  let allowed = true;
  for (const rule of rules) {
    let re: RegExp;
    try {
      re = compilePattern(rule.name_pattern);
    } catch {
      return false;
    }
    if (!re.test(tag)) continue;
    allowed = idsOf(rule.allowlist_user_ids).includes(user.id) || (await isUserInTeams(db, user.id, idsOf(rule.allowlist_team_ids)));
    if (allowed) break;
  }
  return allowed;
}

/** Pushes creating, moving or deleting a protected tag need the user on its whitelist. */
export async function checkTagPush(db: DB, access: RepoAccess, doer: User, updates: RefUpdate[]): Promise<string | null> {
  const tags = updates.filter((u) => u.ref.startsWith('refs/tags/'));
  if (!tags.length) return null;
  const rules = await listProtectedTags(db, access.repo.id);
  for (const u of tags) {
    const name = u.ref.slice('refs/tags/'.length);
    if (!(await mayControlTag(db, rules, name, doer))) return `Tag ${name} is protected`;
  }
  return null;
}

/** For the tag API: 422 when the tag is protected from this user, as Gitea answers. */
export async function assertMayControlTag(db: DB, access: RepoAccess, doer: User, tag: string, verb: 'create' | 'delete'): Promise<void> {
  const rules = await listProtectedTags(db, access.repo.id);
  if (!(await mayControlTag(db, rules, tag, doer))) throw new InvalidError(`user not allowed to ${verb} protected tag`);
}

async function viewOf(db: DB, access: RepoAccess, row: ProtectedTag): Promise<TagProtectionView> {
  return {
    row,
    users: await userNamesOf(db, access, idsOf(row.allowlist_user_ids), ACCESS.read),
    teams: await teamNamesOf(db, idsOf(row.allowlist_team_ids)),
  };
}

async function rowById(db: DB, access: RepoAccess, id: number): Promise<ProtectedTag> {
  const row = Number.isSafeInteger(id) ? await getProtectedTagById(db, access.repo.id, id) : undefined;
  if (!row) throw new NotFoundError();
  return row;
}

export async function listTagProtections(db: DB, access: RepoAccess): Promise<TagProtectionView[]> {
  return Promise.all((await listProtectedTags(db, access.repo.id)).map((r) => viewOf(db, access, r)));
}

export async function getTagProtection(db: DB, access: RepoAccess, id: number): Promise<TagProtectionView> {
  return viewOf(db, access, await rowById(db, access, id));
}

const tagRuleTarget = (r: Pick<ProtectedTag, 'id' | 'name_pattern'>): AuditTarget => ({ type: 'protected_tag', id: r.id, name: r.name_pattern });

export async function createTagProtection(db: DB, access: RepoAccess, input: TagProtectionInput): Promise<TagProtectionView> {
  const pattern = (input.name_pattern ?? '').trim();
  if (!pattern) throw new BadRequestError('name_pattern are empty');
  if (!input.whitelist_usernames?.length && !input.whitelist_teams?.length) {
    throw new BadRequestError('both whitelist_usernames and whitelist_teams are empty');
  }
  assertValidPattern(pattern);
  if (await getProtectedTagByPattern(db, access.repo.id, pattern)) throw new ForbiddenError('Tag protection already exist');
  const users = await userIdsByNames(db, input.whitelist_usernames ?? []);
  const teams = await teamIdsByNames(db, access.owner, input.whitelist_teams ?? []);
  const now = nowUnix();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertProtectedTag(trx, {
      repo_id: access.repo.id, name_pattern: pattern, allowlist_user_ids: JSON.stringify(users),
      allowlist_team_ids: JSON.stringify(teams), created_unix: now, updated_unix: now,
    });
    await recordAudit(trx, { op: 'repo.tag_protection.create', target: tagRuleTarget(inserted), repo: access.repo });
    return inserted;
  });
  return viewOf(db, access, row);
}

export async function editTagProtection(db: DB, access: RepoAccess, id: number, input: TagProtectionInput): Promise<TagProtectionView> {
  const row = await rowById(db, access, id);
  const patch: Partial<ProtectedTag> = { updated_unix: nowUnix() };
  if (input.name_pattern != null) {
    const pattern = input.name_pattern.trim();
    if (!pattern) throw new InvalidError('[name_pattern]: must not be empty', 'name_pattern');
    assertValidPattern(pattern);
    patch.name_pattern = pattern;
  }
  if (input.whitelist_teams != null) patch.allowlist_team_ids = JSON.stringify(await teamIdsByNames(db, access.owner, input.whitelist_teams));
  if (input.whitelist_usernames != null) patch.allowlist_user_ids = JSON.stringify(await userIdsByNames(db, input.whitelist_usernames));
  await db.transaction().execute(async (trx) => {
    await updateProtectedTag(trx, row.id, patch);
    await recordAudit(trx, { op: 'repo.tag_protection.update', target: tagRuleTarget({ ...row, ...patch }), repo: access.repo });
  });
  return viewOf(db, access, await rowById(db, access, id));
}

export async function deleteTagProtection(db: DB, access: RepoAccess, id: number): Promise<void> {
  const row = await rowById(db, access, id);
  await db.transaction().execute(async (trx) => {
    await deleteProtectedTag(trx, row.id);
    await recordAudit(trx, { op: 'repo.tag_protection.delete', target: tagRuleTarget(row), repo: access.repo });
  });
}
