import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ACCESS, type Unit } from '../permissions';
import { settingsOf, type RepoSettings } from '../repo/repo-settings';
import { knownUnitMode, unitModeOf, type RepoAccess } from '../repo/repos';

// Which parts of a repository a web visitor may open: the unit must be enabled and the visitor
// must read it (an organization team may grant issues but not code). Gitea's web pages answer
// 404, not 403, for a unit the visitor may not see.

export type WebUnit = 'repo.code' | 'repo.issues' | 'repo.pulls' | 'repo.releases' | 'repo.wiki' | 'repo.actions';

const SETTING: Record<WebUnit, keyof RepoSettings> = {
  'repo.code': 'has_code', 'repo.issues': 'has_issues', 'repo.pulls': 'has_pull_requests', 'repo.releases': 'has_releases',
  'repo.wiki': 'has_wiki', 'repo.actions': 'has_actions',
};

export async function unitReadable(db: DB, access: RepoAccess, viewer: User | null, unit: WebUnit): Promise<boolean> {
  if (!settingsOf(access.repo)[SETTING[unit]]) return false;
  return (await unitModeOf(db, access, viewer, unit as Unit)) >= ACCESS.read;
}

const UNITS = Object.keys(SETTING) as WebUnit[];

/** The units the visitor may open, for the repository's tabs (every page of it asks: no await where the mode is known). */
export async function readableUnits(db: DB, access: RepoAccess, viewer: User | null): Promise<Set<WebUnit>> {
  const out = new Set<WebUnit>();
  const settings = settingsOf(access.repo);
  for (const u of UNITS) {
    if (!settings[SETTING[u]]) continue;
    const mode = knownUnitMode(access, viewer, u as Unit) ?? await unitModeOf(db, access, viewer, u as Unit);
    if (mode >= ACCESS.read) out.add(u);
  }
  return out;
}

/**
 * Whether the visitor may change files here: write on the code unit of a repository that is
 * neither archived nor a mirror (the contents API's guards and service say the same).
 */
export async function codeWritable(db: DB, access: RepoAccess, viewer: User | null): Promise<boolean> {
  if (!viewer || access.repo.is_archived || access.repo.is_mirror) return false;
  return (await unitModeOf(db, access, viewer, 'repo.code')) >= ACCESS.write;
}
