import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { basicHeader, createUser, json, startTestServer } from '../helpers/server';
import { startReceiver } from '../helpers/receiver';
import { eventually } from '../helpers/wait';
import { killHard, startHearthProcess, type HearthProcess } from '../helpers/process';

// Deliveries survive a crash: a server killed with SIGKILL while a delivery is in flight sends
// it after the restart, with the same UUID. The allowlist refuses loopback under `external`,
// even by a name that resolves to it.

const startProcess = (dataDir: string) => startHearthProcess(dataDir, { HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });

describe('durable deliveries', () => {
  it('a delivery in flight when the server is killed (SIGKILL) is sent after the restart, with the same UUID', async () => {
    const rx = await startReceiver();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-crash-'));
    const procs: HearthProcess[] = [];
    try {
      rx.answer((_r, n) => (n === 0 ? 'hang' : 200));
      const first = await startProcess(dataDir);
      procs.push(first);
      const password = /password:\s+(\S+)/.exec(first.out())![1]!;
      const auth = { Authorization: basicHeader('root', password), 'Content-Type': 'application/json' };
      const call = (p: string, body: unknown) => fetch(`${first.url}/api/v1/${p}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      expect((await call('user/repos', { name: 'crash' })).status).toBe(201);
      expect((await call('repos/root/crash/hooks', { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['issues'] })).status).toBe(201);
      expect((await call('repos/root/crash/issues', { title: 'Survives' })).status).toBe(201);
      await eventually(async () => rx.requests.length === 1);
      killHard(first.child);
      await new Promise((r) => first.child.once('exit', r));
      // The server itself is gone: nothing answers on its port.
      await eventually(async () => (await fetch(`${first.url}/api/healthz`).catch(() => null)) === null, 10_000, 'server gone');
      procs.push(await startProcess(dataDir));
      await eventually(async () => rx.requests.length === 2, 20_000, 'redelivery after restart');
      expect(rx.requests[1]!.headers['x-gitea-delivery']).toBe(rx.requests[0]!.headers['x-gitea-delivery']);
      expect(JSON.parse(rx.requests[1]!.body).issue.title).toBe('Survives');
    } finally {
      for (const p of procs) killHard(p.child);
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
