import path from 'node:path';
import { expect } from 'vitest';
import type { DB } from '../../src/db/connect';
import { COMMENT_TYPE } from '../../src/lib/comment-type';
import { findCounterDrift } from '../../src/models/repo-counters';
import type { PairCall } from '../helpers/cluster-pair';
import { git, gitTry } from '../helpers/git';

// What the cluster race scenarios (races.test.ts) build through the API and check afterwards in
// git, on the shared bare repository, and in the nodes' database.

export const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The answer's status and JSON body (null when it has none), for requests expected to fail too. */
export async function answer(res: Promise<Response>): Promise<{ status: number; body: any }> {
  const r = await res;
  const text = await r.text();
  let body: unknown = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = text; }
  return { status: r.status, body };
}

async function expectStatus(res: Promise<Response>, status: number, what: string): Promise<any> {
  const a = await answer(res);
  expect(a.status, `${what}: ${JSON.stringify(a.body)}`).toBe(status);
  return a.body;
}

/** root/`name` with a README on main; its id. */
export async function makeRepo(call: PairCall, name: string): Promise<number> {
  const body = await expectStatus(call('user/repos', { method: 'POST', json: { name, auto_init: true, default_branch: 'main', readme: 'Default' } }), 201, 'repo');
  return body.id as number;
}

/** One commit on main creating `files`; each path's blob sha. */
export async function seedFiles(call: PairCall, repo: string, files: Record<string, string>): Promise<Record<string, string>> {
  const body = await expectStatus(call(`repos/root/${repo}/contents`, {
    method: 'POST', json: { branch: 'main', files: Object.entries(files).map(([p, c]) => ({ operation: 'create', path: p, content: b64(c) })) },
  }), 201, 'seed');
  return Object.fromEntries((body.files as { path: string; sha: string }[]).map((f) => [f.path, f.sha]));
}

export type OpenPull = { index: number; head: string };

/** A branch `topic-<i>` off main adding its own file, and a pull request of it into main. */
export async function openPull(call: PairCall, repo: string, i: number): Promise<OpenPull> {
  await expectStatus(call(`repos/root/${repo}/contents/topic-${i}.txt`, {
    method: 'POST', json: { branch: 'main', new_branch: `topic-${i}`, content: b64(`topic ${i}\n`) },
  }), 201, `topic-${i}`);
  const pr = await expectStatus(call(`repos/root/${repo}/pulls`, {
    method: 'POST', json: { head: `topic-${i}`, base: 'main', title: `topic ${i}` },
  }), 201, `pull of topic-${i}`);
  return { index: pr.number as number, head: pr.head.sha as string };
}

/** The shared bare repository of root/`repo` (both nodes write it). */
export const bareOf = (dataDir: string, repo: string) => path.join(dataDir, 'repositories', 'root', `${repo}.git`);

export const tipOf = async (bare: string, branch = 'main') => (await git(bare, 'rev-parse', `refs/heads/${branch}`)).trim();

export async function reachable(bare: string, commit: string, tip: string): Promise<boolean> {
  return (await gitTry(bare, 'merge-base', '--is-ancestor', commit, tip)).code === 0;
}

/** Every commit of main's history that merges `head` (as its second parent). */
export async function mergesOf(bare: string, head: string): Promise<string[]> {
  const lines = (await git(bare, 'rev-list', '--merges', '--parents', 'refs/heads/main')).trim().split('\n').filter(Boolean);
  return lines.map((l) => l.split(' ')).filter((p) => p[2] === head).map((p) => p[0]!);
}

/** Every branch row of the repository names the commit git's ref does, and no branch is missing. */
export async function expectBranchRowsEqualGit(db: DB, repoId: number, bare: string): Promise<void> {
  const refs = (await git(bare, 'for-each-ref', '--format=%(refname:strip=2) %(objectname)', 'refs/heads')).trim().split('\n');
  const rows = await db.selectFrom('branch').select(['name', 'commit_id']).where('repo_id', '=', repoId).execute();
  expect(Object.fromEntries(rows.map((r) => [r.name, r.commit_id]))).toEqual(Object.fromEntries(refs.map((l) => l.split(' '))));
}

/** The repository counters (issues, pulls, open and closed, ...) equal counts of their rows. */
export async function expectCountersMatchRows(db: DB): Promise<void> {
  expect(await findCounterDrift(db)).toEqual([]);
}

/** Each pull request is marked merged once: one merge event, its merge commit on main, merging its head. */
export async function expectMergedOnce(call: PairCall, db: DB, bare: string, repo: string, pull: OpenPull): Promise<void> {
  const pr = await expectStatus(call(`repos/root/${repo}/pulls/${pull.index}`), 200, `pull ${pull.index}`);
  expect(pr.merged, `pull ${pull.index} merged`).toBe(true);
  expect(pr.state).toBe('closed');
  const tip = await tipOf(bare);
  expect(await reachable(bare, pull.head, tip), `head of ${pull.index} on main`).toBe(true);
  expect(await mergesOf(bare, pull.head), `merge commits of ${pull.index}`).toEqual([pr.merge_commit_sha]);
  const events = await db.selectFrom('comment').innerJoin('issue', 'issue.id', 'comment.issue_id')
    .select('comment.id').where('issue.repo_id', '=', pr.base.repo_id).where('issue.index', '=', pull.index)
    .where('comment.type', '=', COMMENT_TYPE.mergePull).execute();
  expect(events, `merge events of ${pull.index}`).toHaveLength(1);
}
