import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { blobsBytes } from '../../git/blob';
import { readRefTips, type RefTips } from '../../git/ref-tips';
import { entryAt } from '../../git/tree';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { checkReadPath, checkTreePath, COMMIT_ID, dirOfRepo, refPrefix } from '../repo/contents-paths';
import { changeFiles, type FileOp } from '../repo/contents-write';
import { loadRules } from '../repo/protected-branches';
import { canUserPush, effectiveRule } from '../repo/protection-rules';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// Editing files in the browser (`_new`, `_edit`, `_upload`, `_delete` under a branch): where
// the URL points, whether the user may commit straight to that branch, and the one commit a
// form makes, through the contents service the API's writes use (its checks, branch
// protection and events included). Rules stay there; this only shapes what the forms send.

export type EditorTarget = {
  branch: string; path: string;
  /** The branch's head; null in an empty repository (the first commit makes the branch). */
  commit: string | null;
  tips: RefTips;
};

/** `{branch}/{path}` of an editor URL: the shortest run of segments naming a branch, as Gitea's RepoRefByType. */
export async function editorTarget(config: Config, access: RepoAccess, rest: string): Promise<EditorTarget> {
  const tips = await readRefTips(dirOfRepo(config, access));
  const parts = rest.split('/').filter((p, i, all) => p || i < all.length - 1);
  let used = refPrefix(parts, new Set(tips.branches.keys()));
  // Before the first commit only the default branch can be written to.
  if (!used && !tips.branches.size) used = refPrefix(parts, new Set([access.repo.default_branch]));
  if (!used) throw new NotFoundError(`branch does not exist [name: ${rest}]`);
  const branch = parts.slice(0, used).join('/');
  const path = checkReadPath(parts.slice(used).join('/'));
  if (path === null) throw new NotFoundError('path contains a malformed path component');
  return { branch, path, commit: tips.branches.get(branch) ?? null, tips };
}

/** Whether the user may commit to the branch itself (else only to a new one), as branch protection says. */
export async function canCommitTo(db: DB, access: RepoAccess, doer: User, branch: string): Promise<boolean> {
  const rule = effectiveRule(await loadRules(db, access.repo.id), branch);
  if (!rule) return true;
  return !rule.s.require_signed_commits && canUserPush(db, rule, { user: doer, mode: access.mode });
}

/** Gitea's GetUniquePatchBranchName: `{user}-patch-{n}`, the first that is free. */
export function patchBranchName(doer: User, tips: RefTips): string {
  for (let n = 1; n <= 1000; n++) {
    const name = `${doer.lower_name}-patch-${n}`;
    if (!tips.branches.has(name)) return name;
  }
  return '';
}

/** 404 unless the target is a file (or symlink) on the branch: what a delete form deletes. */
export async function assertFile(config: Config, access: RepoAccess, t: EditorTarget): Promise<void> {
  const entry = t.commit && t.path ? await entryAt(dirOfRepo(config, access), t.commit, t.path) : null;
  if (!entry || entry.kind !== 'blob') throw new NotFoundError('repository file does not exist');
}

/** Largest file the editor opens as text; larger ones are changed by upload. */
export const EDIT_MAX = 1024 * 1024;

/** The text of the file to edit, and its blob id (sent back so a change made meanwhile is caught). */
export async function fileToEdit(config: Config, access: RepoAccess, t: EditorTarget): Promise<{ text: string; sha: string }> {
  const entry = t.commit && t.path ? await entryAt(dirOfRepo(config, access), t.commit, t.path) : null;
  if (!entry || entry.kind !== 'blob' || entry.mode === '120000') throw new NotFoundError('repository file does not exist');
  const bytes = entry.size <= EDIT_MAX ? (await blobsBytes(dirOfRepo(config, access), [entry.sha])).get(entry.sha) : undefined;
  if (!bytes || bytes.subarray(0, 8000).includes(0)) throw new ForbiddenError('This file is binary or too large to edit in the browser; upload a new version instead.');
  return { text: bytes.toString('utf8'), sha: entry.sha };
}

export type CommitForm = {
  summary: string; body: string; choice: 'direct' | 'commit-to-new-branch'; newBranch: string; signoff: boolean;
  /** The commit the form was opened at: a file changed since then is a conflict, not overwritten. */
  lastCommit: string;
};

/** Gitea's message: the summary (or the default), a blank line and the body. */
const messageOf = (f: CommitForm, fallback: string): string => {
  const body = f.body.trim();
  return `${f.summary.trim() || fallback}${body ? `\n\n${body}` : ''}`;
};

/** The blob `path` had when the form was opened, for the service's sha check; undefined when unknown. */
async function shaAtOpen(config: Config, access: RepoAccess, f: CommitForm, path: string): Promise<string | undefined> {
  if (!COMMIT_ID.test(f.lastCommit)) return undefined;
  const entry = await entryAt(dirOfRepo(config, access), f.lastCommit, path).catch(() => null);
  return entry?.kind === 'blob' ? entry.sha : undefined;
}

export type EditorChange =
  | { kind: 'new'; path: string; content: string }
  | { kind: 'edit'; fromPath: string; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'upload'; dir: string; files: { name: string; content: Buffer }[] };

const join = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

async function opsOf(config: Config, access: RepoAccess, f: CommitForm, c: EditorChange): Promise<{ ops: FileOp[]; fallback: string }> {
  const text = (s: string) => Buffer.from(s.replace(/\r/g, ''));
  switch (c.kind) {
    case 'new': return { ops: [{ operation: 'create', path: c.path, content: text(c.content) }], fallback: `Add ${c.path}` };
    case 'edit': return {
      ops: [{ operation: 'update', path: c.path, fromPath: c.fromPath, content: text(c.content), sha: await shaAtOpen(config, access, f, c.fromPath) }],
      fallback: `Update ${c.path}`,
    };
    case 'delete': return { ops: [{ operation: 'delete', path: c.path, sha: await shaAtOpen(config, access, f, c.path) }], fallback: `Delete ${c.path}` };
    default: return {
      ops: c.files.map((file) => ({ operation: 'upload' as const, path: join(c.dir, file.name), content: file.content })),
      fallback: `Upload files to "${c.dir || '/'}"`,
    };
  }
}

/** Makes the form's commit; returns the branch written to. Field errors name the form's fields. */
export async function commitFromEditor(h: Hearth, access: RepoAccess, doer: User, t: EditorTarget, f: CommitForm, c: EditorChange): Promise<string> {
  const paths = c.kind === 'upload' ? c.files.map((x) => join(c.dir, x.name)) : [c.path];
  for (const p of paths) if (checkTreePath(p) === null) throw new InvalidError(`The file name ${p || '(none)'} is not allowed.`, 'tree_path');
  if (c.kind === 'upload' && !c.files.length) throw new InvalidError('Choose at least one file to upload.', 'files');
  const toNew = f.choice === 'commit-to-new-branch';
  if (toNew && !f.newBranch.trim()) throw new InvalidError('Name the new branch.', 'new_branch_name');
  const { ops, fallback } = await opsOf(h.config, access, f, c);
  await changeFiles(h, access, doer, {
    branch: t.branch, newBranch: toNew ? f.newBranch.trim() : null, message: messageOf(f, fallback), signoff: f.signoff,
  }, ops);
  return toNew ? f.newBranch.trim() : t.branch;
}
