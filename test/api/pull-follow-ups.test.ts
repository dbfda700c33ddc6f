import { afterAll, beforeAll, expect, it } from 'vitest';
import path from 'node:path';
import { closeHearth, openHearth } from '../../src/hearth';
import { startServer, type RunningServer } from '../../src/server';
import { queueFollowUp } from '../../src/services/pull/pull-follow-queue';
import { quietLog } from '../helpers/database';
import { createRepo, git } from '../helpers/git';
import { as, cloneWork, commitFile, ok, type Creds } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// A pull request follow-up (re-testing the pull requests a push moved) is a durable job: one
// queued when the server stops runs after the restart on the same data directory.

let s: TestServer;
let restarted: RunningServer | null = null;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => {
  await restarted?.close();
  await s.stop();
});

it('a follow-up queued before a stop runs after a restart', async () => {
  const alice: Creds = await createUser(s, 'alice');
  const repo = await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  const work = await cloneWork(s, 'alice', 'proj', alice);
  const first = await work.branch('feature', { 'a.txt': 'a\n' });
  const pr = await ok(await s.request('api/v1/repos/alice/proj/pulls', { method: 'POST', auth: as(alice), json: { head: 'feature', base: 'main', title: 'Feature' } }), 201);
  const headOf = async (db: RunningServer['hearth']['db']) =>
    (await db.selectFrom('pull_request').select('head_commit_id').where('issue_id', '=', pr.id as number).executeTakeFirstOrThrow()).head_commit_id;
  expect(await headOf(s.hearth.db)).toBe(first);
  const config = s.hearth.config;
  await s.close();

  // While no server runs: the branch moves in git, and its follow-up is queued (as a push whose
  // server stopped before the job ran would leave it).
  const second = await commitFile(work.dir, 'b.txt', 'b\n');
  await git(work.dir, 'push', '-q', path.join(config.repository.root, 'alice', 'proj.git'), 'HEAD:feature');
  const offline = await openHearth(config, quietLog());
  try {
    await queueFollowUp(offline.db, { repoId: repo.id as number, pusherId: (pr.user as { id: number }).id });
    expect(await offline.db.selectFrom('job').select('kind').where('kind', '=', 'pull.follow-up').execute()).toHaveLength(1);
    expect(await headOf(offline.db)).toBe(first);
  } finally {
    await closeHearth(offline);
  }

  restarted = await startServer(config);
  const db = restarted.hearth.db;
  await eventually(async () => (await headOf(db)) === second, 20_000, 'the pull request follows the push after the restart');
  await eventually(async () => (await db.selectFrom('job').select('id').where('kind', '=', 'pull.follow-up').execute()).length === 0, 10_000, 'the follow-up job done');
});
