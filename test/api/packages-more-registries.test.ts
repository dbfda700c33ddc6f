import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUserById } from '../../src/models/user';
import { blobExists } from '../../src/services/packages/blob-store';
import { cleanupPackages } from '../../src/services/packages/cleanup';
import { installCommand } from '../../src/services/packages/install-command';
import { blobFileCount, makeTar, makeZip, versionsOf } from '../helpers/package-clients';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';

// What the nine registries of issue 36 (cargo, go, composer, rubygems, helm, pub, swift,
// vagrant, chef) share with the core: [packages] limit_size_<type> and the owner quotas with
// Gitea's 403, the `package` webhook, the REST API, cleanup_packages, the install commands.

const TYPES = ['cargo', 'chef', 'composer', 'go', 'helm', 'pub', 'rubygems', 'swift', 'vagrant'];
let s: TestServer;
let alice: { username: string; password: string; id: number };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

const chart = (version: string, pad = '') => makeTar({ 'c/Chart.yaml': `apiVersion: v2\nname: c\nversion: ${version}\n# ${pad}\n` });
/** One small upload per type, each over its own protocol. */
const UPLOADS: Record<string, (owner: string) => Promise<Response>> = {
  go: (o) => s.request(`api/packages/${o}/go/upload`, { method: 'PUT', body: makeZip({ 'example.com/q@v1.0.0/go.mod': 'module example.com/q\n' }), auth: as(alice) }),
  composer: (o) => s.request(`api/packages/${o}/composer?version=1.0.0`, { method: 'PUT', body: makeZip({ 'composer.json': '{"name":"q/q"}' }), auth: as(alice) }),
  helm: (o) => s.request(`api/packages/${o}/helm/api/charts`, { method: 'POST', body: chart('1.0.0'), auth: as(alice) }),
  vagrant: (o) => s.request(`api/packages/${o}/vagrant/q/1.0.0/virtualbox.box`, { method: 'PUT', body: makeTar({ 'box.ovf': 'x' }), auth: as(alice) }),
};

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'more-alice');
});
afterAll(async () => { await s.stop(); });

describe('the core, over the new registries', () => {
  it('limit_size_<type> is read for each new type and cuts an upload with Gitea\'s 403; the owner count quota too', async () => {
    const env: Record<string, string> = {};
    for (const t of TYPES) env[`HEARTH__PACKAGES__LIMIT_SIZE_${t.toUpperCase()}`] = '10';
    const limited = await startTestServer(env);
    try {
      const user = await createUser(limited, 'quota-alice');
      for (const t of TYPES) expect(limited.hearth.config.packages[`limit_size_${t}` as keyof typeof limited.hearth.config.packages]).toBe(10);
      const big = await limited.request(`api/packages/${user.username}/helm/api/charts`, { method: 'POST', body: chart('1.0.0'), auth: as(user) });
      expect(big.status).toBe(403);
      expect(await json(big)).toEqual({ error: 'maximum allowed package type size exceeded' });
      const box = await limited.request(`api/packages/${user.username}/vagrant/q/1.0.0/virtualbox.box`, { method: 'PUT', body: Buffer.alloc(11), auth: as(user) });
      expect(box.status).toBe(403);
      expect(await limited.hearth.db.selectFrom('package').select('id').execute()).toEqual([]);
    } finally {
      await limited.stop();
    }
    const counted = await startTestServer({ HEARTH__PACKAGES__LIMIT_TOTAL_OWNER_COUNT: '1' });
    try {
      const user = await createUser(counted, 'count-alice');
      const put = (v: string) => counted.request(`api/packages/${user.username}/vagrant/q/${v}/virtualbox.box`, { method: 'PUT', body: makeTar({ 'box.ovf': v }), auth: as(user) });
      expect((await put('1.0.0')).status).toBe(201);
      const second = await put('2.0.0');
      expect(second.status).toBe(403);
      expect(await json(second)).toEqual({ errors: ['maximum allowed package count exceeded'] });
    } finally {
      await counted.stop();
    }
  });

  it('a new version sends the `package` webhook with its type', async () => {
    const hook = await s.request('api/v1/user/hooks', {
      method: 'POST', auth: as(alice), json: { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, events: ['package'], active: true },
    });
    const hookId = (await json(hook)).id as number;
    for (const t of Object.keys(UPLOADS)) expect((await UPLOADS[t]!(alice.username)).status, t).toBe(201);
    const tasks = await s.hearth.db.selectFrom('hook_task').selectAll().where('hook_id', '=', hookId).orderBy('id').execute();
    expect(tasks.map((t) => { const p = JSON.parse(t.payload_content); return `${p.action} ${p.package.type} ${p.package.name}@${p.package.version}`; }))
      .toEqual(['created go example.com/q@v1.0.0', 'created composer q/q@1.0.0', 'created helm c@1.0.0', 'created vagrant q@1.0.0']);
  });

  it('the REST API lists and deletes the new types\' packages', async () => {
    const bob = await createUser(s, 'more-bob');
    expect((await s.request(`api/packages/${bob.username}/helm/api/charts`, { method: 'POST', body: chart('2.0.0'), auth: as(bob) })).status).toBe(201);
    const list = await ok(await s.request(`api/v1/packages/${bob.username}?type=helm`, { auth: as(bob) }));
    expect(list.map((p: { type: string; name: string; version: string }) => `${p.type} ${p.name}@${p.version}`)).toEqual(['helm c@2.0.0']);
    const files = await ok(await s.request(`api/v1/packages/${bob.username}/helm/c/2.0.0/files`, { auth: as(bob) }));
    expect(files.map((f: { name: string }) => f.name)).toEqual(['c-2.0.0.tgz']);
    expect((await s.request(`api/v1/packages/${bob.username}/helm/c/2.0.0`, { method: 'DELETE', auth: as(bob) })).status).toBe(204);
    expect(await versionsOf(s, bob.id, 'helm')).toEqual([]);
  });

  it('cleanup_packages removes the blob a re-pushed chart no longer uses', async () => {
    const carol = await createUser(s, 'more-carol');
    const first = chart('3.0.0', 'first');
    expect((await s.request(`api/packages/${carol.username}/helm/api/charts`, { method: 'POST', body: first, auth: as(carol) })).status).toBe(201);
    const [old] = await s.hearth.db.selectFrom('package_blob').select('hash_sha256').orderBy('id', 'desc').limit(1).execute();
    expect((await s.request(`api/packages/${carol.username}/helm/api/charts`, { method: 'POST', body: chart('3.0.0', 'second'), auth: as(carol) })).status).toBe(201);
    expect(await blobExists(s.hearth.blobs, old!.hash_sha256)).toBe(true);
    await wait(1100);
    await cleanupPackages(s.hearth.db, s.hearth.blobs, s.dataDir, 0);
    expect(await blobExists(s.hearth.blobs, old!.hash_sha256)).toBe(false);
    const dl = await s.request(`api/packages/${carol.username}/helm/c-3.0.0.tgz`);
    expect(dl.status).toBe(200);
  });
});

/** Starts an upload that says it is `size` bytes long, sends `sent` of them, then drops the connection. */
function abortedUpload(method: string, p: string, size: number, sent: Buffer, headers: Record<string, string> = {}): Promise<void> {
  const url = new URL(p, s.hearth.config.server.root_url);
  return new Promise((resolve) => {
    const req = http.request(url, { method, headers: { 'Content-Length': String(size), Authorization: `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}`, ...headers } });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    req.write(sent, () => setTimeout(() => { req.destroy(); resolve(); }, 200));
  });
}

describe('aborted uploads', () => {
  it('a client that drops the connection mid-upload leaves no version, no blob and no temp file', async () => {
    const blobs = blobFileCount(s);
    await abortedUpload('PUT', `api/packages/${alice.username}/vagrant/cut/1.0.0/virtualbox.box`, 1 << 20, Buffer.alloc(64 * 1024, 1));
    const json = Buffer.from(JSON.stringify({ name: 'cut_crate', vers: '1.0.0' }));
    const head = Buffer.alloc(8 + json.length);
    head.writeUInt32LE(json.length, 0); json.copy(head, 4); head.writeUInt32LE(1 << 20, 4 + json.length);
    await abortedUpload('PUT', `api/packages/${alice.username}/cargo/api/v1/crates/new`, head.length + (1 << 20), Buffer.concat([head, Buffer.alloc(32 * 1024, 2)]));
    await wait(500);
    expect(await versionsOf(s, alice.id, 'vagrant')).not.toContain('cut@1.0.0');
    expect(await versionsOf(s, alice.id, 'cargo')).toEqual([]);
    expect(blobFileCount(s)).toBe(blobs);
    const tmp = path.join(s.dataDir, 'packages', 'tmp');
    // The uploads did start streaming into the store (its temp directory exists), and left nothing there.
    expect(fs.existsSync(tmp)).toBe(true);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});

describe('install commands', () => {
  it('names the registry and the version for each new type', async () => {
    const owner = (await getUserById(s.hearth.db, alice.id))!;
    const base = `${s.hearth.config.server.root_url}api/packages/${alice.username}`;
    const cmd = (type: string, name: string, version: string) => installCommand(s.hearth.config, owner, type, name, version);
    expect(cmd('cargo', 'demo', '1.0.0')).toEqual({ setup: `# ~/.cargo/config.toml\n[registries.${alice.username}]\nindex = "sparse+${base}/cargo/"`, command: `cargo add --registry ${alice.username} demo@1.0.0` });
    expect(cmd('go', 'example.com/q', 'v1.0.0')).toEqual({ setup: null, command: `GOPROXY=${base}/go go install example.com/q@v1.0.0` });
    expect(cmd('composer', 'q/q', '1.0.0')?.command).toBe('composer require "q/q:1.0.0"');
    expect(cmd('rubygems', 'g', '1.0')?.command).toBe(`gem install g --version "1.0" --source "${base}/rubygems"`);
    expect(cmd('helm', 'c', '1.0.0')).toEqual({ setup: `helm repo add ${alice.username} ${base}/helm\nhelm repo update`, command: `helm install c ${alice.username}/c --version 1.0.0` });
    expect(cmd('pub', 'p', '1.0.0')?.command).toBe(`dart pub add p:1.0.0 --hosted-url=${base}/pub`);
    expect(cmd('swift', 'scope.name', '1.0.0')).toEqual({ setup: `swift package-registry set ${base}/swift`, command: '.package(id: "scope.name", from: "1.0.0")' });
    expect(cmd('vagrant', 'box', '1.0.0')?.command).toBe(`vagrant box add --box-version 1.0.0 "${base}/vagrant/box"`);
    expect(cmd('chef', 'cb', '1.0.0')).toEqual({ setup: `# knife.rb\nknife[:supermarket_site] = '${base}/chef'`, command: 'knife supermarket install cb 1.0.0' });
    expect(cmd('no-such-type', 'x', '1')).toBeNull();
  });
});
