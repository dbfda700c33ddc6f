import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git } from '../helpers/git';
import { runHearth, startHearthProcess } from '../helpers/process';
import { startReceiver } from '../helpers/receiver';
import { basicHeader } from '../helpers/server';
import { eventually } from '../helpers/wait';

// A push killed after git moved the refs and before the database followed (SIGKILL at a crash
// point, as a power loss would stop it): the next start syncs and announces what landed.

const dirs: string[] = [];
const tmp = (prefix: string) => { const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix)); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

describe('a push cut short by a crash', () => {
  it('is synced and its webhook sent at the next start (regression: the push landed, its events were lost for good)', async () => {
    const rx = await startReceiver();
    const data = tmp('hearth-crash-push-');
    const env = { HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' };
    let server = await startHearthProcess(data, env);
    await eventually(async () => /password:\s+\S+/.test(server.out()), 10_000, 'first admin printed');
    const password = /password:\s+(\S+)/.exec(server.out())![1]!;
    const auth = basicHeader('root', password);
    const call = (url: string, p: string, method = 'GET', json?: unknown) => fetch(`${url}/api/v1/${p}`, {
      method, headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json),
    });
    await call(server.url, 'admin/users/root', 'PATCH', { login_name: 'root', source_id: 0, must_change_password: false });
    expect((await call(server.url, 'user/repos', 'POST', { name: 'proj', auto_init: true })).status).toBe(201);
    expect((await call(server.url, 'repos/root/proj/hooks', 'POST', { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['push'] })).status).toBe(201);
    await server.child.kill('SIGTERM');
    await server.exited;

    server = await startHearthProcess(data, { ...env, HEARTH_TEST_CRASH_AT: 'push.before-sync' });
    const work = tmp('hearth-crash-push-wt-');
    const remote = `${server.url.replace('://', `://root:${password}@`)}/root/proj.git`;
    await git(work, 'clone', '-q', remote, 'c');
    const wt = path.join(work, 'c');
    fs.writeFileSync(path.join(wt, 'new.txt'), 'pushed before the crash\n');
    await git(wt, 'add', '.');
    await git(wt, '-c', 'user.name=Root', '-c', 'user.email=root@example.com', 'commit', '-q', '-m', 'Landed');
    await git(wt, 'checkout', '-q', '-b', 'topic');
    await git(wt, 'push', '-q', 'origin', 'main', 'topic').catch(() => { /* the server died mid-push */ });
    expect(await server.exited).not.toBe(0);
    const landed = (await git(wt, 'rev-parse', 'HEAD')).trim();

    server = await startHearthProcess(data, env);
    try {
      expect(server.out()).toContain('recovered work a crash interrupted');
      const branches = await (await call(server.url, 'repos/root/proj/branches')).json() as { name: string; commit: { id: string } }[];
      expect(branches.map((b) => [b.name, b.commit.id]).sort()).toEqual([['main', landed], ['topic', landed]]);
      await eventually(async () => rx.requests.some((r) => JSON.parse(r.body).after === landed && JSON.parse(r.body).ref === 'refs/heads/main'), 15_000, 'push webhook');
      expect(rx.requests.some((r) => JSON.parse(r.body).ref === 'refs/heads/topic')).toBe(true);
      const pusher = JSON.parse(rx.requests.find((r) => JSON.parse(r.body).ref === 'refs/heads/main')!.body).pusher.login;
      expect(pusher).toBe('root');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      // A commit through the contents API, killed after the branch moved: the same at the next start.
      server = await startHearthProcess(data, { ...env, HEARTH_TEST_CRASH_AT: 'refs.after-move' });
      await call(server.url, 'repos/root/proj/contents/api.txt', 'POST', { content: Buffer.from('via the API\n').toString('base64'), message: 'API commit' })
        .catch(() => { /* the server died mid-request */ });
      expect(await server.exited).not.toBe(0);
      server = await startHearthProcess(data, env);
      const main = await (await call(server.url, 'repos/root/proj/branches/main')).json() as { commit: { id: string; message: string } };
      expect(main.commit.message.trim()).toBe('API commit');
      await eventually(async () => rx.requests.some((r) => JSON.parse(r.body).after === main.commit.id), 15_000, 'webhook of the API commit');

      // A branch deleted through the API (no intent), killed after git: the start after an unclean
      // stop resyncs the branch rows in the background.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      server = await startHearthProcess(data, { ...env, HEARTH_TEST_CRASH_AT: 'branch.after-delete' });
      await call(server.url, 'repos/root/proj/branches/topic', 'DELETE').catch(() => { /* the server died */ });
      expect(await server.exited).not.toBe(0);
      server = await startHearthProcess(data, env);
      await eventually(async () => /branch rows checked against git after an unclean stop/.test(server.out()), 15_000, 'resync after the unclean stop');
      expect((await call(server.url, 'repos/root/proj/branches/topic')).status).toBe(404);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const doctor = await runHearth(['doctor', '--data', data]);
      expect(doctor.code, doctor.out + doctor.err).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      await rx.close();
    }
  }, 120_000);
});
