import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startClusterPair, type ClusterPair } from '../helpers/cluster-pair';
import { killedBy } from '../helpers/crash';
import { withPostgres } from '../helpers/postgres';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { ok } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Two nodes over one database and one data directory; node A is killed (SIGKILL) in the middle of
// a push, after git moved the refs and before the database and the webhooks followed
// (push.before-sync). Node B adopts A's push intent once A's heartbeat is older than the node
// timeout: the branch rows catch up with git, each receiver gets the push webhooks, one hook_task
// per delivery, and the push retried through the load balancer finds nothing left to send.

const run = promisify(execFile);
const NODE_TIMEOUT = 3;

/** The real git, both outputs kept: "Everything up-to-date" is on standard error. */
async function gitOut(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir() } });
}

/** The bare repository's branches, as `git for-each-ref` has them. */
async function gitBranches(pair: ClusterPair, repo: string): Promise<string[][]> {
  const bare = path.join(pair.dataDir, 'repositories', repo);
  const { stdout } = await gitOut(bare, 'for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/heads');
  return stdout.trim().split('\n').map((l) => l.split(' ')).sort();
}

async function branchRows(pair: ClusterPair, repoId: number): Promise<string[][]> {
  const rows = await pair.db.selectFrom('branch').select(['name', 'commit_id']).where('repo_id', '=', repoId).execute();
  return rows.map((r) => [r.name, r.commit_id]).sort();
}

type Hook = { ref: string; after: string };
const pushesTo = (rx: Receiver) => rx.of('push').map((r) => JSON.parse(r.body) as Hook);

withPostgres('a node killed in the middle of a push', () => {
  it('the other node adopts the push: branch rows equal git, webhooks sent once per hook_task, the retry is up to date', async () => {
    const receivers = [await startReceiver(), await startReceiver()];
    const pair = await startClusterPair({
      nodeTimeout: NODE_TIMEOUT,
      env: { HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' },
      envOf: (i): Record<string, string> => (i === 0 ? { HEARTH_TEST_CRASH_AT: 'push.before-sync' } : {}),
    });
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-push-crash-'));
    try {
      const repo = await ok(await pair.call('user/repos', { method: 'POST', json: { name: 'proj', auto_init: true } }), 201) as { id: number };
      for (const rx of receivers) {
        await ok(await pair.call('repos/root/proj/hooks', { method: 'POST', json: { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['push'] } }), 201);
      }
      const remote = `${pair.proxyUrl.replace('://', `://root:${encodeURIComponent(pair.password)}@`)}/root/proj.git`;
      await gitOut(work, 'clone', '-q', remote, 'c');
      const wt = path.join(work, 'c');
      fs.writeFileSync(path.join(wt, 'new.txt'), 'pushed as node A died\n');
      await gitOut(wt, 'add', '.');
      await gitOut(wt, '-c', 'user.name=Root', '-c', 'user.email=root@example.com', 'commit', '-q', '-m', 'Landed on A');
      await gitOut(wt, 'checkout', '-q', '-b', 'topic');
      const landed = (await gitOut(wt, 'rev-parse', 'HEAD')).stdout.trim();

      // The balancer sends this push to A, which dies once git has moved both refs.
      pair.proxy.pin(0);
      await killedBy(pair.nodes[0]!, gitOut(wt, 'push', '-q', 'origin', 'main', 'topic'));
      expect(await gitBranches(pair, 'root/proj.git')).toEqual([['main', landed], ['topic', landed]]);
      // The balancer takes the dead node out.
      pair.proxy.pin(1);

      // B adopts A's intent after the node timeout, and resyncs once for the node that died.
      const b = pair.nodes[1]!;
      await eventually(async () => /recovered work a crash interrupted/.test(b.out()), 45_000, 'node B recovers the push');
      expect(b.out()).toMatch(/"op":"push"/);
      expect(await branchRows(pair, repo.id)).toEqual(await gitBranches(pair, 'root/proj.git'));
      expect(await branchRows(pair, repo.id)).toEqual([['main', landed], ['topic', landed]]);
      await eventually(async () => /branch rows checked against git|nodes stopped without a clean stop/.test(b.out()), 30_000, 'the dead node noticed');

      // Every receiver gets the push of both branches (at least once).
      for (const rx of receivers) {
        await eventually(async () => ['refs/heads/main', 'refs/heads/topic'].every((ref) => pushesTo(rx).some((h) => h.ref === ref && h.after === landed)),
          30_000, 'push webhooks of both branches at each receiver');
      }
      // One hook_task per delivery: one per hook and ref, each delivery's id naming exactly one row.
      const tasks = await pair.db.selectFrom('hook_task').select(['uuid', 'hook_id', 'payload_content']).where('event', '=', 'push').execute();
      expect(tasks.length).toBe(receivers.length * 2);
      expect(new Set(tasks.map((t) => t.uuid)).size).toBe(tasks.length);
      const perHookRef = new Set(tasks.map((t) => `${t.hook_id} ${(JSON.parse(t.payload_content) as Hook).ref}`));
      expect(perHookRef.size).toBe(tasks.length);
      for (const rx of receivers) {
        for (const r of rx.of('push')) expect(tasks.filter((t) => t.uuid === r.headers['x-gitea-delivery']).length).toBe(1);
      }

      // The same push again, through the balancer: git finds every ref already there.
      const retry = await gitOut(wt, 'push', 'origin', 'main', 'topic');
      expect(retry.stderr).toContain('Everything up-to-date');

      // A comes back, the balancer takes turns again: nothing of the push is recovered or sent twice.
      await pair.restart(0);
      pair.proxy.pin(null);
      for (let i = 0; i < 2; i++) expect((await gitOut(wt, 'push', 'origin', 'main', 'topic')).stderr).toContain('Everything up-to-date');
      expect(pair.nodes[0]!.out()).not.toMatch(/recovered work a crash interrupted/);
      expect((await pair.db.selectFrom('hook_task').select('id').where('event', '=', 'push').execute()).length).toBe(tasks.length);
      expect(await branchRows(pair, repo.id)).toEqual(await gitBranches(pair, 'root/proj.git'));
    } finally {
      await pair.stop();
      for (const rx of receivers) await rx.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);
});
