import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cronOf } from '../../src/services/cron/scheduler';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { as, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { testsOnPostgres } from '../helpers/test-database';

// Who repacks after a push. One node (SQLite): git's own automatic gc, run by receive-pack. Several
// nodes (PostgreSQL): no push starts it on whichever node took the push; the cron leader's
// git_gc_repos does (enabled there by default, `gc --auto`, daily).

let s: TestServer;
let alice: { username: string; password: string };

const repoDir = () => path.join(s.hearth.config.repository.root, 'alice', 'packs.git');
const packs = () => fs.readdirSync(path.join(repoDir(), 'objects', 'pack')).filter((f) => f.endsWith('.pack')).length;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'packs');
  // Each push stays one pack, and two packs are enough for `gc --auto` to repack.
  for (const [k, v] of [['receive.unpackLimit', '1'], ['gc.autoPackLimit', '1'], ['gc.autoDetach', 'false']]) await git(repoDir(), 'config', k, v);
}, 60_000);
afterAll(async () => { await s.stop(); });

it('a push repacks through git itself on one node, and only through the leader\'s git_gc_repos on PostgreSQL', async () => {
  const wt = await workTree({ 'a.txt': 'one\n' });
  const url = remoteUrl(s, 'alice', 'packs', alice.username, alice.password);
  await git(wt, 'push', '-q', url, 'main');
  fs.writeFileSync(path.join(wt, 'b.txt'), 'two\n');
  await git(wt, 'add', '.');
  await git(wt, 'commit', '-qm', 'two');
  await git(wt, 'push', '-q', url, 'main');
  expect(packs()).toBe(testsOnPostgres ? 2 : 1);

  const res = await s.request('api/v1/admin/cron', { auth: as(s.admin) });
  const gc = ((await json(res)) as { name: string; schedule: string }[]).find((t) => t.name === 'git_gc_repos')!;
  expect(gc.schedule).toBe(testsOnPostgres ? '@every 24h' : '-');
  if (!testsOnPostgres) return;
  expect((await s.request('api/v1/admin/cron/git_gc_repos', { method: 'POST', auth: as(s.admin) })).status).toBe(204);
  await cronOf(s.hearth.db)!.idle();
  expect(packs()).toBe(1);
  expect((await git(repoDir(), 'log', '--format=%s', 'main')).trim()).toBe('two\ninitial');
}, 120_000);
