import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { basicHeader, createUser, json, startTestServer } from '../helpers/server';
import { startReceiver } from '../helpers/receiver';
import { eventually } from '../helpers/wait';

// Deliveries survive a crash: a server killed with SIGKILL while a delivery is in flight sends
// it after the restart, with the same UUID. The allowlist refuses loopback under `external`,
// even by a name that resolves to it.

const root = path.resolve(__dirname, '../..');
const children: ChildProcess[] = [];
/** SIGKILL to the whole process group: tsx runs the server in a child process of its own. */
const killHard = (c: ChildProcess) => { try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ } };
afterAll(() => { for (const c of children) killHard(c); });

/**
 * hearth from source in its own process (so it can be killed), over `dataDir`, on a port the
 * kernel picks (a fixed random one could be taken by another test's socket: CI saw that as a
 * server that never came up). Fails at once, with the server's output, if it exits first.
 */
async function startProcess(dataDir: string): Promise<{ child: ChildProcess; url: string; out: () => string }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/main.ts'), 'web', '--port', '0', '--data', dataDir], {
    env: { ...process.env, HEARTH__LOG__LEVEL: 'info', HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' }, stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let out = '';
  let exited: number | null | undefined;
  child.stdout!.on('data', (b) => { out += b; });
  child.stderr!.on('data', (b) => { out += b; });
  child.once('exit', (code) => { exited = code; });
  const listening = () => /"url":"(http:[^"]+)"/.exec(out)?.[1];
  try {
    await eventually(async () => {
      if (exited !== undefined) throw new Error(`hearth exited (${exited}) before listening`);
      return listening() !== undefined;
    }, 60_000, 'hearth up');
  } catch (e) {
    throw new Error(`${(e as Error).message}; its output:\n${out}`);
  }
  return { child, url: listening()!.replace(/\/$/, ''), out: () => out };
}

describe('durable deliveries', () => {
  it('a delivery in flight when the server is killed (SIGKILL) is sent after the restart, with the same UUID', async () => {
    const rx = await startReceiver();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-crash-'));
    try {
      rx.answer((_r, n) => (n === 0 ? 'hang' : 200));
      const first = await startProcess(dataDir);
      const password = /password:\s+(\S+)/.exec(first.out())![1]!;
      const auth = { Authorization: basicHeader('root', password), 'Content-Type': 'application/json' };
      const call = (p: string, body: unknown) => fetch(`${first.url}/api/v1/${p}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      expect((await call('user/repos', { name: 'crash' })).status).toBe(201);
      expect((await call('repos/root/crash/hooks', { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['issues'] })).status).toBe(201);
      expect((await call('repos/root/crash/issues', { title: 'Survives' })).status).toBe(201);
      await eventually(async () => rx.requests.length === 1);
      killHard(first.child);
      await new Promise((r) => first.child.once('exit', r));
      // The server itself is gone (not only tsx's wrapper): nothing answers on its port.
      await eventually(async () => (await fetch(`${first.url}/api/healthz`).catch(() => null)) === null, 10_000, 'server gone');
      await startProcess(dataDir);
      await eventually(async () => rx.requests.length === 2, 20_000, 'redelivery after restart');
      expect(rx.requests[1]!.headers['x-gitea-delivery']).toBe(rx.requests[0]!.headers['x-gitea-delivery']);
      expect(JSON.parse(rx.requests[1]!.body).issue.title).toBe('Survives');
    } finally {
      for (const c of children) killHard(c);
      await rx.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});

describe('allowed_host_list', () => {
  it('refuses loopback under the default `external`, by address and by a name that resolves to it', async () => {
    const s = await startTestServer({ HEARTH__WEBHOOK__MAX_ATTEMPTS: '1' });
    const rx = await startReceiver();
    try {
      const alice = await createUser(s, 'alice');
      const auth = { basic: [alice.username, alice.password] as [string, string] };
      await s.request('api/v1/user/repos', { method: 'POST', auth, json: { name: 'guarded' } });
      const urls = [rx.url, rx.url.replace('127.0.0.1', 'localhost')];
      const hooks = [];
      for (const url of urls) {
        const res = await s.request('api/v1/repos/alice/guarded/hooks', { method: 'POST', auth, json: { type: 'gitea', active: true, config: { url, content_type: 'json' }, events: ['issues'] } });
        hooks.push(await json(res));
      }
      await s.request('api/v1/repos/alice/guarded/issues', { method: 'POST', auth, json: { title: 'Nope' } });
      for (const hook of hooks) {
        await eventually(async () => (await json(await s.request(`api/v1/repos/alice/guarded/hooks/${hook.id}/deliveries`, { auth }))).length === 1
          && (await json(await s.request(`api/v1/repos/alice/guarded/hooks/${hook.id}/deliveries`, { auth })))[0].delivered_at !== null);
        const [d] = await json(await s.request(`api/v1/repos/alice/guarded/hooks/${hook.id}/deliveries`, { auth }));
        expect(d).toMatchObject({ success: false, status_code: 0, attempts: 1 });
        const detail = await json(await s.request(`api/v1/repos/alice/guarded/hooks/${hook.id}/deliveries/${d.id}`, { auth }));
        expect(detail.response.body).toMatch(/allowed_host_list/);
      }
      expect(rx.requests).toHaveLength(0);
    } finally {
      await s.stop();
      await rx.close();
    }
  });
});
