// git for the runner: clones over HTTP with the job token. The token reaches git through the
// environment and a credential helper, never through arguments (visible in `ps`) or a config file.

import { execFile } from 'node:child_process';

export interface GitAuth {
  username: string;
  password: string;
}

function authEnv(auth: GitAuth | null): { args: string[]; env: Record<string, string> } {
  if (!auth) return { args: ['-c', 'credential.helper='], env: {} };
  const helper = '!f() { test "$1" = get && printf \'username=%s\\npassword=%s\\n\' "$HEARTH_RUNNER_GIT_USER" "$HEARTH_RUNNER_GIT_TOKEN"; }; f';
  return {
    args: ['-c', 'credential.helper=', '-c', `credential.helper=${helper}`],
    env: { HEARTH_RUNNER_GIT_USER: auth.username, HEARTH_RUNNER_GIT_TOKEN: auth.password },
  };
}

export function runGit(cwd: string, args: string[], auth: GitAuth | null = null, signal?: AbortSignal): Promise<string> {
  const a = authEnv(auth);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    LANG: 'C',
    ...a.env,
  };
  return new Promise((resolve, reject) => {
    execFile('git', [...a.args, ...args], { cwd, env, signal, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args[0]} failed: ${String(stderr || err.message).trim()}`));
      else resolve(stdout);
    });
  });
}

/** Fetches `ref` (a branch, tag or commit) of `url` into `dir` (a new repository) and checks it out. */
export async function fetchAndCheckout(
  dir: string, url: string, ref: string, auth: GitAuth | null, depth: number, signal?: AbortSignal, fallbackRef?: string,
): Promise<string> {
  await runGit(dir, ['init', '-q'], null, signal);
  await runGit(dir, ['remote', 'add', 'origin', url], null, signal);
  const deep = depth > 0 ? [`--depth=${depth}`] : [];
  try {
    await runGit(dir, ['fetch', '-q', '--no-tags', ...deep, 'origin', ref], auth, signal);
    await runGit(dir, ['checkout', '-q', '--force', 'FETCH_HEAD'], null, signal);
  } catch (err) {
    // a server may refuse a commit id in `want`: fetch the ref the commit came from instead
    if (!fallbackRef || !/^[0-9a-f]{40}$/.test(ref)) throw err;
    await runGit(dir, ['fetch', '-q', '--no-tags', 'origin', fallbackRef], auth, signal);
    await runGit(dir, ['checkout', '-q', '--force', ref], null, signal);
  }
  return (await runGit(dir, ['rev-parse', 'HEAD'], null, signal)).trim();
}
