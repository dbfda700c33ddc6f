// actions/checkout, natively: the task's repository (or `with.repository` on the same instance)
// cloned over HTTP with the job token into the workspace (or `with.path`), at the task's commit
// (or `with.ref`). fetch-depth as the action's: 1 by default, 0 for the whole history.

import fs from 'node:fs';
import path from 'node:path';
import { toStr } from '../lib/actions-expr';
import { fetchAndCheckout } from './git';
import type { JobRun } from './scope';
import type { StepResult } from './types';

export async function checkout(run: JobRun, w: Record<string, string>): Promise<StepResult> {
  const g = run.github;
  const serverUrl = toStr(g.server_url).replace(/\/$/, '');
  const repository = w.repository || toStr(g.repository);
  const sameRepo = repository.toLowerCase() === toStr(g.repository).toLowerCase();
  const ref = w.ref || (sameRepo ? toStr(g.sha) : 'HEAD');
  const depth = w['fetch-depth'] === undefined || w['fetch-depth'] === '' ? 1 : Number(w['fetch-depth']);
  const token = w.token || toStr(g.token) || run.task.secrets.GITHUB_TOKEN || '';
  const dir = path.resolve(run.dirs.workspace, w.path || '.');
  if (!dir.startsWith(run.dirs.workspace)) {
    run.reporter.log(`##[error]checkout path '${w.path}' is outside the workspace`);
    return 'failure';
  }
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.mkdirSync(dir, { recursive: true });
  const url = `${serverUrl}/${repository}.git`;
  run.reporter.log(`Syncing repository: ${repository}`);
  const fetch = (auth: { username: string; password: string } | null) => fetchAndCheckout(dir, url, ref, auth,
    Number.isFinite(depth) ? depth : 1, run.signal, sameRepo && !w.ref ? toStr(g.ref) : undefined);
  try {
    const head = await fetch({ username: 'x-access-token', password: token }).catch(async (err: unknown) => {
      // the job token opens the task's repository only: another public one needs none
      if (sameRepo || w.token) throw err;
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      return fetch(null);
    });
    run.reporter.log(`Checked out ${repository} at ${head} into ${path.relative(run.dirs.workspace, dir) || '.'}`);
    return 'success';
  } catch (err) {
    run.reporter.log(`##[error]checkout of ${repository}@${ref} failed: ${(err as Error).message}`);
    return run.isCancelled() ? 'cancelled' : 'failure';
  }
}
