// The git hooks API (Gitea's modules/git/hook.go behind routers/api/v1/repo/git_hook.go): a
// repository's server-side scripts, kept where Gitea keeps them, `hooks/<name>.d/<name>` in the
// bare repository. Hearth stores them but never runs them: git runs the server's own hooks
// (core.hooksPath, src/git/hooks.ts) and never looks inside `<name>.d`; so they are written
// without the executable bit.

import fs from 'node:fs';
import path from 'node:path';
import { NotFoundError } from '../../lib/errors';

export const GIT_HOOK_NAMES = ['pre-receive', 'update', 'post-receive'] as const;

export type GitHook = { name: string; isActive: boolean; content: string };

function hookPath(dir: string, name: string): string {
  if (!(GIT_HOOK_NAMES as readonly string[]).includes(name)) throw new NotFoundError();
  return path.join(dir, 'hooks', `${name}.d`, name);
}

function readIfFile(file: string): string | null {
  try {
    return fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/** A hook as Gitea's GetHook: its script when set, else git's sample (inactive), else empty. */
export function getGitHook(dir: string, name: string): GitHook {
  const content = readIfFile(hookPath(dir, name));
  if (content !== null) return { name, isActive: true, content };
  return { name, isActive: false, content: readIfFile(path.join(dir, 'hooks', `${name}.sample`)) ?? '' };
}

export const listGitHooks = (dir: string): GitHook[] => GIT_HOOK_NAMES.map((name) => getGitHook(dir, name));

/**
 * Gitea's Hook.Update: blank content removes the script; otherwise it is written without CRs
 * (the answer echoes the content as given, as Gitea's).
 */
export function editGitHook(dir: string, name: string, content: string): GitHook {
  const file = hookPath(dir, name);
  if (!content.trim()) {
    fs.rmSync(file, { force: true });
    return { name, isActive: false, content };
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content.replaceAll('\r', ''), { mode: 0o644 });
  return { name, isActive: true, content };
}

export function deleteGitHook(dir: string, name: string): void {
  editGitHook(dir, name, '');
}
