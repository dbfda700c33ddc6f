import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startClusterPair } from '../helpers/cluster-pair';
import { killedBy } from '../helpers/crash';
import { withPostgres } from '../helpers/postgres';
import { startReceiver } from '../helpers/receiver';
import { ok } from '../helpers/server';
import { eventually } from '../helpers/wait';

// A git push moves refs without the repository's refs lock. Node A dies after git moved main and
// before its push was announced (push.before-sync); before node B adopts A's intent, an API
// commit on B moves main on. The adoption must still announce A's push: its commit is in the
// branch, under the later one. (Judged by the tip alone, the push counted as not landed and its
// webhook never went out.)

const run = promisify(execFile);
const NODE_TIMEOUT = 8;

const gitOut = (cwd: string, ...args: string[]) =>
  run('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir() } });

type Push = { ref: string; before: string; after: string };

withPostgres('a dead node\'s push adopted after another move of its branch', () => {
  it('is announced once adopted, after the move that went on from it', async () => {
    const receiver = await startReceiver();
    const pair = await startClusterPair({
      nodeTimeout: NODE_TIMEOUT,
      env: { HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' },
      envOf: (i): Record<string, string> => (i === 0 ? { HEARTH_TEST_CRASH_AT: 'push.before-sync' } : {}),
    });
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-push-adoption-'));
    try {
      await ok(await pair.call('user/repos', { method: 'POST', json: { name: 'proj', auto_init: true } }), 201);
      await ok(await pair.call('repos/root/proj/hooks', { method: 'POST', json: { type: 'gitea', active: true, config: { url: receiver.url, content_type: 'json' }, events: ['push'] } }), 201);
      const remote = `${pair.proxyUrl.replace('://', `://root:${encodeURIComponent(pair.password)}@`)}/root/proj.git`;
      await gitOut(work, 'clone', '-q', remote, 'c');
      const wt = path.join(work, 'c');
      const base = (await gitOut(wt, 'rev-parse', 'HEAD')).stdout.trim();
      fs.writeFileSync(path.join(wt, 'pushed.txt'), 'pushed as node A died\n');
      await gitOut(wt, 'add', '.');
      await gitOut(wt, '-c', 'user.name=Root', '-c', 'user.email=root@example.com', 'commit', '-q', '-m', 'Landed on A');
      const landed = (await gitOut(wt, 'rev-parse', 'HEAD')).stdout.trim();

      pair.proxy.pin(0);
      await killedBy(pair.nodes[0]!, gitOut(wt, 'push', '-q', 'origin', 'main'));
      pair.proxy.pin(1);
      // B moves main on before it adopts A's push (A's heartbeat is not stale yet).
      const commit = await ok(await pair.call('repos/root/proj/contents/later.txt', {
        method: 'POST', node: 1, json: { branch: 'main', content: Buffer.from('later\n').toString('base64'), message: 'Later, on B' },
      }), 201) as { commit: { sha: string; parents: { sha: string }[] } };
      expect(commit.commit.parents.map((p) => p.sha)).toEqual([landed]);
      expect(pair.nodes[1]!.out()).not.toMatch(/recovered work a crash interrupted/);

      await eventually(async () => /recovered work a crash interrupted/.test(pair.nodes[1]!.out()), 60_000, 'node B adopts the push');
      const pushes = () => receiver.of('push').map((r) => JSON.parse(r.body) as Push);
      await eventually(async () => pushes().some((p) => p.after === landed), 30_000, 'the adopted push announced');
      expect(pushes().filter((p) => p.after === landed).map((p) => [p.ref, p.before])).toEqual([['refs/heads/main', base]]);
      expect(pushes().filter((p) => p.after === commit.commit.sha).map((p) => [p.ref, p.before])).toEqual([['refs/heads/main', landed]]);
    } finally {
      await pair.stop();
      await receiver.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);
});
