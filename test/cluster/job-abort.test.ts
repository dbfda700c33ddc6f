import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { startClusterPair, type ClusterPair } from '../helpers/cluster-pair';
import { withPostgres } from '../helpers/postgres';
import { ok } from '../helpers/server';
import { eventually } from '../helpers/wait';

// A long job whose node loses its lease stops (issue 35's follow-up): a push mirror's `git push`
// to a remote that never answers is killed once another node took the job, and the node records
// nothing on the mirror, rather than pushing on beside the other node's rerun.

const LEASE_S = 9;

/** An HTTP server that takes requests and never answers them (a remote that stalled). */
async function startStalledRemote(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer(() => { hits++; });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/stalled/target.git`, hits: () => hits,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

type Proc = { pid: number; ppid: number; pgid: number; args: string };
const processes = (): Proc[] => execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' }).split('\n')
  .map((l) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(l)).filter((m) => m !== null)
  .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), args: m[4]! }));

/**
 * The `git <command>` children of the pair's node `i`, each with the processes of its own process
 * group (git's remote helper among them), which a stop must end too.
 */
function gitRunsOf(pair: ClusterPair, i: number, command: 'push' | 'fetch'): { pid: number; group: string[] }[] {
  const ps = processes();
  return ps.filter((p) => p.ppid === pair.nodes[i]!.child.pid && new RegExp(`^git .* ${command} `).test(p.args))
    .map((git) => ({ pid: git.pid, group: ps.filter((p) => p.pgid === git.pid).map((p) => p.args) }));
}

/** Processes left in git's process group (its helpers outlive a git killed alone). */
const groupLeft = (pgid: number): string[] => processes().filter((p) => p.pgid === pgid).map((p) => p.args);

/**
 * The running job of `kind` is handed to the other node, as its sweep and claim would once the
 * lease ran out in database time; held long, so that no sweep hands it out again while the test
 * looks. Resolves with the index of the node that ran it.
 */
async function takeOver(pair: ClusterPair, kind: string): Promise<{ victim: number; jobId: number; other: string }> {
  const job = await pair.db.selectFrom('job').select(['id', 'locked_by']).where('kind', '=', kind).where('state', '=', 'running').executeTakeFirstOrThrow();
  const nodes = await pair.db.selectFrom('node').select(['id', 'pid']).execute();
  const victim = pair.nodes.findIndex((n) => n.child.pid === nodes.find((r) => r.id === job.locked_by)!.pid);
  const other = nodes.find((r) => r.id !== job.locked_by)!.id;
  await pair.db.updateTable('job').set({ locked_by: other, lease_until: Date.now() + 600_000 }).where('id', '=', job.id).execute();
  return { victim, jobId: job.id, other };
}

withPostgres('a long job when its node loses the lease', () => {
  it('kills the push mirror\'s git push and records nothing on the mirror', async () => {
    const remote = await startStalledRemote();
    const pair = await startClusterPair({ env: { HEARTH__QUEUE__LEASE: String(LEASE_S), HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' } });
    try {
      await ok(await pair.call('user/repos', { method: 'POST', json: { name: 'mirrored', auto_init: true } }), 201);
      await ok(await pair.call('repos/root/mirrored/push_mirrors', { method: 'POST', json: { remote_address: remote.url, interval: '0' } }));
      await ok(await pair.call('repos/root/mirrored/push_mirrors-sync', { method: 'POST' }));
      await eventually(async () => remote.hits() > 0, 60_000, 'the push under way');
      const { victim, jobId, other } = await takeOver(pair, 'mirror.push');
      const [run, ...more] = gitRunsOf(pair, victim, 'push');
      expect(more).toEqual([]);
      // git and the remote helper it started for the HTTP remote.
      expect(run!.group.some((args) => /remote-http/.test(args)), run!.group.join('; ')).toBe(true);
      await eventually(async () => /job stopped: its lease was lost/.test(pair.nodes[victim]!.out()), 30_000, 'the victim stopped the job');
      await eventually(async () => groupLeft(run!.pid).length === 0, 10_000, 'its git push and its helper killed');
      const mirror = await pair.db.selectFrom('push_mirror').select(['last_update_unix', 'last_error']).executeTakeFirstOrThrow();
      expect(mirror).toEqual({ last_update_unix: 0, last_error: '' });
      expect(await pair.db.selectFrom('job').select('locked_by').where('id', '=', jobId).executeTakeFirstOrThrow()).toEqual({ locked_by: other });
    } finally {
      await pair.stop();
      await remote.close();
    }
  }, 180_000);

  it('kills the pull mirror\'s git fetch and records nothing on the mirror', async () => {
    const remote = await startStalledRemote();
    const pair = await startClusterPair({ env: { HEARTH__QUEUE__LEASE: String(LEASE_S), HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' } });
    try {
      await ok(await pair.call('user/repos', { method: 'POST', json: { name: 'src', auto_init: true } }), 201);
      const source = `${pair.nodes[0]!.url}/root/src.git`;
      const made = await ok(await pair.call('repos/migrate', { method: 'POST', json: { clone_addr: source, repo_name: 'follower', mirror: true, auth_username: 'root', auth_password: pair.password } }), 201) as { id: number };
      // The remote stalls from now on.
      await pair.db.updateTable('mirror').set({ remote_address: remote.url }).where('repo_id', '=', made.id).execute();
      const before = await pair.db.selectFrom('mirror').select(['updated_unix', 'last_error']).where('repo_id', '=', made.id).executeTakeFirstOrThrow();
      await ok(await pair.call('repos/root/follower/mirror-sync', { method: 'POST' }));
      await eventually(async () => remote.hits() > 0, 60_000, 'the fetch under way');
      const { victim } = await takeOver(pair, 'mirror.pull');
      const [run, ...more] = gitRunsOf(pair, victim, 'fetch');
      expect(more).toEqual([]);
      // git and the remote helper it started for the HTTP remote.
      expect(run!.group.some((args) => /remote-http/.test(args)), run!.group.join('; ')).toBe(true);
      await eventually(async () => /job stopped: its lease was lost/.test(pair.nodes[victim]!.out()), 30_000, 'the victim stopped the job');
      await eventually(async () => groupLeft(run!.pid).length === 0, 10_000, 'its git fetch and its helper killed');
      expect(await pair.db.selectFrom('mirror').select(['updated_unix', 'last_error']).where('repo_id', '=', made.id).executeTakeFirstOrThrow()).toEqual(before);
    } finally {
      await pair.stop();
      await remote.close();
    }
  }, 180_000);
});
