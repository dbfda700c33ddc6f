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

/** The `git <command>` processes in the process group of the pair's node `i` (its children). */
function gitRunsOf(pair: ClusterPair, i: number, command: 'push' | 'fetch'): string[] {
  const ps = execFileSync('ps', ['-eo', 'pgid=,args='], { encoding: 'utf8' });
  return ps.split('\n').map((l) => l.trim()).filter((l) => l.startsWith(`${pair.nodes[i]!.child.pid} `))
    .map((l) => l.slice(l.indexOf(' ') + 1)).filter((args) => new RegExp(`^git .* ${command} `).test(args));
}

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
      expect(gitRunsOf(pair, victim, 'push')).toHaveLength(1);
      await eventually(async () => /job stopped: its lease was lost/.test(pair.nodes[victim]!.out()), 30_000, 'the victim stopped the job');
      await eventually(async () => gitRunsOf(pair, victim, 'push').length === 0, 10_000, 'its git push killed');
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
      expect(gitRunsOf(pair, victim, 'fetch')).toHaveLength(1);
      await eventually(async () => /job stopped: its lease was lost/.test(pair.nodes[victim]!.out()), 30_000, 'the victim stopped the job');
      await eventually(async () => gitRunsOf(pair, victim, 'fetch').length === 0, 10_000, 'its git fetch killed');
      expect(await pair.db.selectFrom('mirror').select(['updated_unix', 'last_error']).where('repo_id', '=', made.id).executeTakeFirstOrThrow()).toEqual(before);
    } finally {
      await pair.stop();
      await remote.close();
    }
  }, 180_000);
});
