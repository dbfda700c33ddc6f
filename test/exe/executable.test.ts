import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { git } from '../helpers/git';
import { processDatabaseEnv, runHearth, runsExecutable, startHearthProcess } from '../helpers/process';
import { startReceiver } from '../helpers/receiver';
import { startTestS3 } from '../helpers/s3';
import { basicHeader } from '../helpers/server';
import { testsOnPostgres } from '../helpers/test-database';
import { eventually } from '../helpers/wait';

// hearth as it ships: one process driven over HTTP and the git CLI, from the first start to a
// clean shutdown and a doctor run. In the suite it runs from source; CI runs it again against
// the built executable (HEARTH_EXECUTABLE=dist/hearth), which is where the bundling, the packed
// SQLite addon and the Node 24 runtime can break what the in-process tests never see.

const dirs: string[] = [];
const tmp = (prefix: string) => { const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix)); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

type Call = (p: string, init?: { method?: string; json?: unknown; body?: RequestInit['body']; auth?: string }) => Promise<Response>;

async function expectStatus(res: Response, status: number): Promise<any> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) : undefined;
}

describe(`hearth in its own process (${runsExecutable ? process.env.HEARTH_EXECUTABLE : 'from source'}, ${testsOnPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('serves the API and git from first start to a clean shutdown', async () => {
    const rx = await startReceiver();
    const data = tmp('hearth-exe-');
    // In the PostgreSQL pass the server and the commands after it share a database of their own.
    const onDb = await processDatabaseEnv();
    const server = await startHearthProcess(data, { ...onDb, HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
    try {
      await eventually(async () => /password:\s+\S+/.test(server.out()), 10_000, 'first admin printed');
      const rootAuth = basicHeader('root', /password:\s+(\S+)/.exec(server.out())![1]!);
      const call: Call = (p, init = {}) => {
        const headers: Record<string, string> = { Authorization: init.auth ?? rootAuth };
        if (init.json !== undefined) headers['Content-Type'] = 'application/json';
        const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
        return fetch(`${server.url}/${p}`, { method: init.method ?? 'GET', headers, body });
      };

      const version = await expectStatus(await call('api/v1/version'), 200);
      const cli = await runHearth(['--version']);
      expect(cli.out).toContain(version.version);

      // A user, a token, a repository made from templates.
      await expectStatus(await call('api/v1/admin/users', { method: 'POST', json: { username: 'alice', email: 'alice@example.com', password: 'alice-password', must_change_password: false } }), 201);
      const alice = basicHeader('alice', 'alice-password');
      const token = await expectStatus(await call('api/v1/users/alice/tokens', { method: 'POST', auth: alice, json: { name: 'cli', scopes: ['write:repository', 'write:issue', 'write:package'] } }), 201);
      const tokenAuth = `token ${token.sha1}`;
      const repo = await expectStatus(await call('api/v1/user/repos', { method: 'POST', auth: tokenAuth, json: { name: 'proj', auto_init: true, license: 'MIT', readme: 'Default' } }), 201);
      expect(repo.default_branch).toBe('main');
      await expectStatus(await call('api/v1/repos/alice/proj/hooks', { method: 'POST', auth: tokenAuth, json: { type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['push'] } }), 201);

      // git over HTTP with the token: clone, commit on a branch, push.
      const work = tmp('hearth-exe-wt-');
      const remote = `${server.url.replace('://', `://alice:${token.sha1}@`)}/alice/proj.git`;
      await git(work, 'clone', '-q', remote, 'c');
      const wt = path.join(work, 'c');
      expect(fs.readFileSync(path.join(wt, 'LICENSE'), 'utf8')).toContain('Permission is hereby granted');
      await git(wt, 'checkout', '-q', '-b', 'feature');
      fs.writeFileSync(path.join(wt, 'notes.md'), 'Grüße aus dem Executable\n');
      await git(wt, 'add', '.');
      await git(wt, '-c', 'user.name=Alice', '-c', 'user.email=alice@example.com', 'commit', '-q', '-m', 'Add notes');
      await git(wt, 'push', '-q', 'origin', 'feature');
      await eventually(async () => rx.requests.some((r) => JSON.parse(r.body).ref === 'refs/heads/feature'), 15_000, 'push webhook delivered');

      const file = await expectStatus(await call('api/v1/repos/alice/proj/contents/notes.md?ref=feature', { auth: tokenAuth }), 200);
      expect(Buffer.from(file.content, 'base64').toString('utf8')).toBe('Grüße aus dem Executable\n');
      const archive = await call('api/v1/repos/alice/proj/archive/feature.zip', { auth: tokenAuth });
      expect(archive.status).toBe(200);
      expect(Buffer.from(await archive.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');

      // A pull request merged through the API lands in a fresh clone.
      const pull = await expectStatus(await call('api/v1/repos/alice/proj/pulls', { method: 'POST', auth: tokenAuth, json: { title: 'Notes', head: 'feature', base: 'main' } }), 201);
      await expectStatus(await call(`api/v1/repos/alice/proj/pulls/${pull.number}/merge`, { method: 'POST', auth: tokenAuth, json: { Do: 'merge' } }), 200);
      await git(work, 'clone', '-q', remote, 'again');
      expect(fs.readFileSync(path.join(work, 'again', 'notes.md'), 'utf8')).toBe('Grüße aus dem Executable\n');

      // Issues with paging headers; many distinct queries (new prepared statements, old ones
      // collected: the Node 24.19+ ObjectWrap abort happened exactly there).
      for (let i = 1; i <= 3; i++) await expectStatus(await call('api/v1/repos/alice/proj/issues', { method: 'POST', auth: tokenAuth, json: { title: `Issue ${i}` } }), 201);
      const page = await call('api/v1/repos/alice/proj/issues?type=issues&limit=2', { auth: tokenAuth });
      expect(page.headers.get('x-total-count')).toBe('3');
      expect(page.headers.get('link')).toContain('rel="next"');
      for (const q of ['Issue', 'Issue 2', 'nothing', 'Notes']) {
        await expectStatus(await call(`api/v1/repos/issues/search?q=${encodeURIComponent(q)}&state=all`, { auth: tokenAuth }), 200);
      }

      // A release asset and a generic package: uploads through multer and the blob store.
      const release = await expectStatus(await call('api/v1/repos/alice/proj/releases', { method: 'POST', auth: tokenAuth, json: { tag_name: 'v1.0.0', target_commitish: 'main' } }), 201);
      const form = new FormData();
      form.append('attachment', new Blob([Buffer.from('asset bytes\n'.repeat(100))]), 'asset.txt');
      const asset = await expectStatus(await call(`api/v1/repos/alice/proj/releases/${release.id}/assets`, { method: 'POST', auth: tokenAuth, body: form }), 201);
      expect(await (await fetch(asset.browser_download_url)).text()).toBe('asset bytes\n'.repeat(100));
      await expectStatus(await call('api/packages/alice/generic/tool/1.0.0/tool.bin', { method: 'PUT', auth: tokenAuth, body: Buffer.from([0, 1, 2, 255]) }), 201);
      const pkg = await call('api/packages/alice/generic/tool/1.0.0/tool.bin', { auth: tokenAuth });
      expect(Buffer.from(await pkg.arrayBuffer())).toEqual(Buffer.from([0, 1, 2, 255]));

      // Avatars decode on a worker thread, whose code the executable carries packed: a PNG large
      // enough to be scaled down, and a WebP (libwebp's module handed to the thread).
      const png = new PNG({ width: 720, height: 600 });
      let seed = 7;
      for (let i = 0; i < png.data.length; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        png.data[i] = i % 4 === 3 ? 255 : Math.min(255, ((i >> 2) % 720) / 3 + (seed % 24));
      }
      const big = PNG.sync.write(png);
      expect(big.length).toBeGreaterThan(262144);
      await expectStatus(await call('api/v1/user/avatar', { method: 'POST', auth: alice, json: { image: big.toString('base64') } }), 204);
      const me = await expectStatus(await call('api/v1/user', { auth: alice }), 200);
      const avatar = PNG.sync.read(Buffer.from(await (await fetch(me.avatar_url)).arrayBuffer()));
      expect([avatar.width, avatar.height]).toEqual([512, 512]);
      const webp = 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';
      await expectStatus(await call('api/v1/repos/alice/proj/avatar', { method: 'POST', auth: tokenAuth, json: { image: webp } }), 204);
      await expectStatus(await call('api/v1/repos/alice/proj/avatar', { method: 'POST', auth: tokenAuth, json: { image: Buffer.from('RIFF\x1a\0\0\0WEBPVP8L\x0d\0\0\0/garbage', 'latin1').toString('base64') } }), 422);

      // A large document renders on the markdown thread, also packed.
      const doc = 'Some **bold** text for @alice.\n\n'.repeat(2000);
      const rendered = await expectStatus(await call('api/v1/markdown', { method: 'POST', auth: alice, json: { Text: doc, Mode: 'comment' } }), 200);
      expect(rendered.split('<strong>bold</strong>').length).toBe(2001);
      expect(rendered).toContain('class="mention"');

      // The web home page, then a clean shutdown on SIGTERM.
      expect(await (await call('')).text()).toContain('<!DOCTYPE html>');
      expect((await call('api/healthz')).status).toBe(200);
      process.kill(server.child.pid!, 'SIGTERM');
      expect(await server.exited).toBe(0);
      // Basic credentials (alice's, root's) were checked above: no library's deprecated call
      // printed a warning (passport-http's `new Buffer()` did, once, in the executable).
      expect(server.out()).not.toMatch(/DeprecationWarning|DEP0\d{3}/);

      // The data directory it left is sound.
      const doctor = await runHearth(['doctor', '--data', data], onDb);
      expect(doctor.code, doctor.out + doctor.err).toBe(0);
      const users = await runHearth(['admin', 'user', 'list', '--data', data], onDb);
      expect(users.out).toContain('alice');
      // It ran on the pass's engine: SQLite's file exists only when SQLite held the data.
      expect(fs.existsSync(path.join(data, 'hearth.db'))).toBe(!testsOnPostgres);
    } finally {
      server.child.kill('SIGKILL');
      await rx.close();
    }
  }, 180_000);

  it('registers a runner over the runner protocol (connect and protobuf-es, packed as a bundle of their own, load on both sides)', async () => {
    const data = tmp('hearth-exe-runner-');
    const server = await startHearthProcess(data, await processDatabaseEnv());
    try {
      await eventually(async () => /password:\s+\S+/.test(server.out()), 10_000, 'first admin printed');
      const rootAuth = basicHeader('root', /password:\s+(\S+)/.exec(server.out())![1]!);
      const { token } = await expectStatus(await fetch(`${server.url}/api/v1/admin/runners/registration-token`, { headers: { Authorization: rootAuth } }), 200);
      // `hearth runner register`: the command's client and the server's handler each load the protocol's bundle.
      const file = path.join(data, 'runner-registration');
      const reg = await runHearth(['runner', 'register', '--instance', server.url, '--token', token, '--name', 'exe-runner', '--labels', 'exe', '--config', file]);
      expect(reg.code, reg.err).toBe(0);
      expect(reg.out).toContain("runner 'exe-runner' registered");
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ name: 'exe-runner', labels: ['exe'] });
      const runners = await expectStatus(await fetch(`${server.url}/api/v1/admin/actions/runners`, { headers: { Authorization: rootAuth } }), 200);
      expect(runners.runners.map((r: { name: string }) => r.name)).toEqual(['exe-runner']);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('keeps package files in an S3 bucket (the AWS SDK, packed as a bundle of its own, loads with the first use)', async () => {
    const s3 = await startTestS3();
    const data = tmp('hearth-exe-s3-');
    const server = await startHearthProcess(data, { ...await processDatabaseEnv(), ...s3.env('exe/') });
    try {
      await eventually(async () => /password:\s+\S+/.test(server.out()), 10_000, 'first admin printed');
      const rootAuth = basicHeader('root', /password:\s+(\S+)/.exec(server.out())![1]!);
      const bytes = Buffer.from('bytes kept in the bucket\n'.repeat(1000));
      const url = `${server.url}/api/packages/root/generic/kept/1.0.0/kept.bin`;
      await expectStatus(await fetch(url, { method: 'PUT', headers: { Authorization: rootAuth }, body: bytes }), 201);
      const got = await fetch(url, { headers: { Authorization: rootAuth } });
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
      // Served from the bucket: the data directory keeps no copy.
      const files = fs.readdirSync(data, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(files.filter((e) => fs.statSync(path.join(e.parentPath, e.name)).size === bytes.length)).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
      await s3.stop();
    }
  }, 120_000);
});
