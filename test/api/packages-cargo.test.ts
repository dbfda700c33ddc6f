import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobPath } from '../../src/services/packages/blob-store';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, requireClient, runClient, versionsOf, writeTree } from '../helpers/package-clients';
import { as, createToken, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// Gitea's Cargo registry with the real cargo: publish, the sparse index, fetch and build from it,
// yank and unyank; the web API's refusals over HTTP.

const CARGO = requireClient('cargo', 'packages-cargo');
let s: TestServer;
let alice: { username: string; password: string; id: number };
let writeToken: string;
let readToken: string;
let work: string;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const base = (owner: string) => `${s.hearth.config.server.root_url}api/packages/${owner}/cargo`;

/**
 * A CARGO_HOME whose registry "hearth" is the owner's sparse index, with the token given.
 * Debian's cargo (1.65) has sparse registries behind -Z sparse-registry: RUSTC_BOOTSTRAP lets a
 * stable cargo take it; a newer cargo, where it is stable, only notes the flag is not needed.
 */
function cargoHome(owner: string, token: string): Record<string, string> {
  const home = fs.mkdtempSync(path.join(work, 'home-'));
  writeTree(home, {
    'cargo/config.toml': `[registries.hearth]\nindex = "sparse+${base(owner)}/"\n[net]\nretry = 0\n[unstable]\nsparse-registry = true\n`,
    'cargo/credentials.toml': `[registries.hearth]\ntoken = "Bearer ${token}"\n`,
  });
  const rustup = path.join(os.homedir(), '.rustup');
  return {
    HOME: home, CARGO_HOME: path.join(home, 'cargo'), CARGO_TARGET_DIR: path.join(home, 'target'), CARGO_TERM_COLOR: 'never', RUSTC_BOOTSTRAP: '1',
    ...(process.env.RUSTUP_HOME || fs.existsSync(rustup) ? { RUSTUP_HOME: process.env.RUSTUP_HOME ?? rustup } : {}),
  };
}

/** A library crate's sources. */
function crate(name: string, version: string, extra = ''): string {
  const dir = fs.mkdtempSync(path.join(work, `${name}-`));
  writeTree(dir, {
    'Cargo.toml': `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\ndescription = "A crate for hearth"\nlicense = "MIT"\nhomepage = "https://example.com/${name}"\n${extra}`,
    'src/lib.rs': `pub fn answer() -> &'static str { "${name} ${version}" }\n`,
  });
  return dir;
}

const publish = (dir: string, env: Record<string, string>) =>
  runClient(CARGO!, ['publish', '--registry', 'hearth', '--no-verify', '--allow-dirty'], { cwd: dir, env });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'cargo-alice');
  writeToken = await createToken(s, alice, ['write:package']);
  readToken = await createToken(s, alice, ['read:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cargo-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('cargo registry with the real cargo', () => {
  it.skipIf(!CARGO)('cargo publishes a crate, the sparse index lists it, and another crate builds against it', async () => {
    const env = cargoHome(alice.username, writeToken);
    const r = await publish(crate('hearth_demo', '1.0.0'), env);
    expect(r.out).toMatch(/Uploading hearth_demo v1.0.0/);
    expect(r.code).toBe(0);
    const config = await ok(await s.request(`api/packages/${alice.username}/cargo/config.json`, { auth: as(alice) }));
    expect(config).toEqual({ dl: `${base(alice.username)}/api/v1/crates`, api: base(alice.username), 'auth-required': false });
    const line = JSON.parse(await ok(await s.request(`api/packages/${alice.username}/cargo/he/ar/hearth_demo`)));
    expect(line).toMatchObject({ name: 'hearth_demo', vers: '1.0.0', deps: [], features: {}, yanked: false });

    const app = fs.mkdtempSync(path.join(work, 'app-'));
    writeTree(app, {
      'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\nhearth_demo = { version = "1", registry = "hearth" }\n',
      'src/main.rs': 'fn main() { println!("{}", hearth_demo::answer()); }\n',
    });
    const reader = cargoHome(alice.username, readToken);
    const run = await runClient(CARGO!, ['run', '-q'], { cwd: app, env: reader });
    expect(run.out).toContain('hearth_demo 1.0.0');
    expect(run.code).toBe(0);
    // The .crate cargo downloaded into its cache is the stored blob, whose sha256 the index gave as cksum.
    const cache = path.join(reader.CARGO_HOME!, 'registry', 'cache');
    const cached = fs.readdirSync(cache, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('hearth_demo-1.0.0.crate'));
    expect(cached).toBeDefined();
    const bytes = fs.readFileSync(path.join(cache, cached!));
    expect(sha256(bytes)).toBe(line.cksum);
    expect(fs.readFileSync(blobPath(s.dataDir, line.cksum))).toEqual(bytes);
    const dl = Buffer.from(await (await s.request(`api/packages/${alice.username}/cargo/api/v1/crates/hearth_demo/1.0.0/download`)).arrayBuffer());
    expect(dl).toEqual(bytes);
  });

  it.skipIf(!CARGO)('publishing the same version again is refused with 409', async () => {
    const env = cargoHome(alice.username, writeToken);
    const dir = crate('hearth_twice', '0.1.0');
    expect((await publish(dir, env)).code).toBe(0);
    const again = await publish(dir, env);
    expect(again.code).not.toBe(0);
    expect(again.out).toMatch(/409|already exists/);
    expect(await versionsOf(s, alice.id, 'cargo')).toContain('hearth_twice@0.1.0');
  });

  it.skipIf(!CARGO)('a read:package token cannot publish', async () => {
    const r = await publish(crate('hearth_readonly', '1.0.0'), cargoHome(alice.username, readToken));
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/401|permission/);
    expect(await versionsOf(s, alice.id, 'cargo')).not.toContain('hearth_readonly@1.0.0');
  });

  it.skipIf(!CARGO)('cargo yank and yank --undo flip the index entry', async () => {
    const env = cargoHome(alice.username, writeToken);
    expect((await publish(crate('hearth_yank', '2.0.0'), env)).code).toBe(0);
    const entry = async () => JSON.parse(await ok(await s.request(`api/packages/${alice.username}/cargo/he/ar/hearth_yank`))).yanked;
    const y = await runClient(CARGO!, ['yank', '--registry', 'hearth', '--version', '2.0.0', 'hearth_yank'], { env });
    expect(y.code, y.out).toBe(0);
    expect(await entry()).toBe(true);
    const u = await runClient(CARGO!, ['yank', '--undo', '--registry', 'hearth', '--version', '2.0.0', 'hearth_yank'], { env });
    expect(u.code, u.out).toBe(0);
    expect(await entry()).toBe(false);
  });
});

/** The publish body cargo sends: u32 LE + JSON, u32 LE + crate. */
function publishBody(meta: object, crateBytes: Buffer, declared = crateBytes.length): Buffer {
  const json = Buffer.from(JSON.stringify(meta));
  const a = Buffer.alloc(4); a.writeUInt32LE(json.length);
  const b = Buffer.alloc(4); b.writeUInt32LE(declared);
  return Buffer.concat([a, json, b, crateBytes]);
}
const put = (owner: string, body: Buffer, token: string) =>
  s.request(`api/packages/${owner}/cargo/api/v1/crates/new`, { method: 'PUT', body, auth: { token, as: 'bearer' } });

describe('cargo web API over HTTP', () => {
  it('a crate shorter than declared, a bad name or a bad version is a 400 in cargo\'s error shape, leaving nothing', async () => {
    const before = blobFileCount(s);
    const short = await put(alice.username, publishBody({ name: 'short_crate', vers: '1.0.0' }, Buffer.from('abc'), 10), writeToken);
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ errors: [{ detail: 'invalid content size' }] });
    expect((await put(alice.username, publishBody({ name: '1bad', vers: '1.0.0' }, Buffer.from('x')), writeToken)).status).toBe(400);
    expect((await put(alice.username, publishBody({ name: 'okname', vers: 'one' }, Buffer.from('x')), writeToken)).status).toBe(400);
    expect(await versionsOf(s, alice.id, 'cargo')).not.toContain('short_crate@1.0.0');
    expect(blobFileCount(s)).toBe(before);
  });

  it('search finds the newest version of each crate; owners lists the package owner', async () => {
    const meta = (v: string) => ({ name: 'searchable', vers: v, description: `v${v}`, deps: [] });
    expect((await put(alice.username, publishBody(meta('1.0.0'), Buffer.from('one')), writeToken)).status).toBe(200);
    expect((await put(alice.username, publishBody(meta('1.2.0'), Buffer.from('two')), writeToken)).status).toBe(200);
    const found = await ok(await s.request(`api/packages/${alice.username}/cargo/api/v1/crates?q=searchab`));
    expect(found).toEqual({ crates: [{ name: 'searchable', max_version: '1.2.0', description: 'v1.2.0' }], meta: { total: 1 } });
    expect(await ok(await s.request(`api/packages/${alice.username}/cargo/api/v1/crates/searchable/owners`)))
      .toEqual({ users: [{ id: alice.id, login: alice.username, name: alice.username }] });
  });

  it('a renamed dependency keeps its crate in `package`', async () => {
    const dep = { name: 'serde', version_req: '^1', features: [], optional: false, default_features: true, target: null, kind: 'normal', registry: null, explicit_name_in_toml: 'my_serde' };
    expect((await put(alice.username, publishBody({ name: 'renamer', vers: '0.1.0', deps: [dep] }, Buffer.from('r')), writeToken)).status).toBe(200);
    const line = JSON.parse(await ok(await s.request(`api/packages/${alice.username}/cargo/re/na/renamer`)));
    expect(line.deps).toEqual([{ name: 'my_serde', req: '^1', features: [], optional: false, default_features: true, target: null, kind: 'normal', registry: null, package: 'serde' }]);
  });

  it('a private organization: anonymous gets 401 for the index and downloads; auth-required is true', async () => {
    await createOrg(s, alice, 'cargo-private', { visibility: 'private' });
    expect((await put('cargo-private', publishBody({ name: 'secret', vers: '1.0.0' }, Buffer.from('s')), writeToken)).status).toBe(200);
    expect((await s.request('api/packages/cargo-private/cargo/config.json')).status).toBe(401);
    expect((await s.request('api/packages/cargo-private/cargo/se/cr/secret')).status).toBe(401);
    expect((await s.request('api/packages/cargo-private/cargo/api/v1/crates/secret/1.0.0/download')).status).toBe(401);
    const config = await ok(await s.request('api/packages/cargo-private/cargo/config.json', { auth: { token: readToken, as: 'bearer' } }));
    expect(config['auth-required']).toBe(true);
  });
});
