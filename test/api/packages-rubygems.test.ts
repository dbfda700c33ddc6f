import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marshalDump } from '../../src/services/packages/rubygems/marshal';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, makeTar, requireClient, runClient, versionsOf, writeTree } from '../helpers/package-clients';
import { as, createToken, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// Gitea's RubyGems registry with the real gem and bundle: gem push, gem install (compact index
// and quick gemspecs), bundle install, gem yank; the full indexes read back by ruby's Marshal.

const GEM = requireClient('gem', 'packages-rubygems');
const BUNDLE = requireClient('bundle', 'packages-rubygems');
const RUBY = requireClient('ruby', 'packages-rubygems');
let s: TestServer;
let alice: { username: string; password: string; id: number };
let writeToken: string;
let readToken: string;
let work: string;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const registry = (owner: string) => `${s.hearth.config.server.root_url}api/packages/${owner}/rubygems`;

/** gem with a temp HOME and gem dirs, never reaching rubygems.org. */
function gemEnv(token: string): Record<string, string> {
  const home = fs.mkdtempSync(path.join(work, 'home-'));
  return { HOME: home, GEM_HOME: path.join(home, 'gems'), GEM_PATH: path.join(home, 'gems'), GEM_SPEC_CACHE: path.join(home, 'specs'), GEM_HOST_API_KEY: `Bearer ${token}` };
}

/** Builds a gem with `gem build`; returns its path. */
async function buildGem(name: string, version: string, deps: [string, string][] = []): Promise<string> {
  const dir = fs.mkdtempSync(path.join(work, `${name}-`));
  const module = name.split('_').map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
  writeTree(dir, {
    [`${name}.gemspec`]: `Gem::Specification.new do |s|\n  s.name = "${name}"\n  s.version = "${version}"\n  s.summary = "Summary of ${name}"\n  s.description = "A gem for hearth"\n  s.authors = ["Alice"]\n  s.license = "MIT"\n  s.homepage = "https://example.com/${name}"\n  s.required_ruby_version = ">= 2.5"\n  s.files = ["lib/${name}.rb"]\n${deps.map(([d, r]) => `  s.add_runtime_dependency "${d}", "${r}"\n`).join('')}end\n`,
    [`lib/${name}.rb`]: `module ${module}\n  def self.hi\n    "${name} ${version}"\n  end\nend\n`,
  });
  const r = await runClient(GEM!, ['build', `${name}.gemspec`], { cwd: dir, env: { HOME: dir } });
  if (r.code !== 0) throw new Error(r.out);
  return path.join(dir, `${name}-${version}.gem`);
}

const push = (file: string, owner: string, token: string) => runClient(GEM!, ['push', '--host', registry(owner), file], { env: gemEnv(token) });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'gem-alice');
  writeToken = await createToken(s, alice, ['write:package']);
  readToken = await createToken(s, alice, ['read:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-gems-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('rubygems registry with the real gem and bundle', () => {
  it.skipIf(!GEM)('gem push stores a gem; gem install fetches it with its dependency from hearth', async () => {
    const base = await buildGem('hearth_base', '1.0.0');
    const app = await buildGem('hearth_app', '2.0.0', [['hearth_base', '~> 1.0']]);
    const p1 = await push(base, alice.username, writeToken);
    expect(p1.code, p1.out).toBe(0);
    expect((await push(app, alice.username, writeToken)).code).toBe(0);
    const env = gemEnv(readToken);
    const source = registry(alice.username).replace('://', `://${alice.username}:${readToken}@`);
    const r = await runClient(GEM!, ['install', '--clear-sources', '--source', source, '--no-document', 'hearth_app'], { env });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Successfully installed hearth_base-1.0.0[\s\S]*Successfully installed hearth_app-2.0.0/);
    const cached = path.join(env.GEM_HOME!, 'cache', 'hearth_base-1.0.0.gem');
    expect(fs.readFileSync(cached)).toEqual(fs.readFileSync(base));
    const run = await runClient(RUBY!, ['-e', 'require "hearth_app"; require "hearth_base"; print HearthApp.hi, "|", HearthBase.hi'], { env });
    expect(run.out).toBe('hearth_app 2.0.0|hearth_base 1.0.0');
  });

  it.skipIf(!GEM || !BUNDLE)('bundle install resolves from the compact index', async () => {
    const gemfile = await buildGem('hearth_bundled', '0.3.0');
    expect((await push(gemfile, alice.username, writeToken)).code).toBe(0);
    const env = gemEnv(readToken);
    const dir = fs.mkdtempSync(path.join(work, 'bundle-'));
    const root = new URL(s.hearth.config.server.root_url);
    writeTree(dir, { Gemfile: `source "${registry(alice.username)}"\ngem "hearth_bundled", "0.3.0"\n` });
    const bundleEnv = { ...env, BUNDLE_PATH: path.join(dir, 'vendor'), BUNDLE_APP_CONFIG: path.join(dir, '.bundle'), [`BUNDLE_${root.host.replace(/[.:]/g, (c) => (c === '.' ? '__' : '___')).toUpperCase()}`]: `${alice.username}:${readToken}` };
    const r = await runClient(BUNDLE!, ['install'], { cwd: dir, env: bundleEnv });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Installing hearth_bundled 0\.3\.0/);
    expect(fs.readFileSync(path.join(dir, 'Gemfile.lock'), 'utf8')).toContain('hearth_bundled (0.3.0)');
  });

  it.skipIf(!GEM)('pushing the same version again is refused with 409; a read:package token cannot push', async () => {
    const file = await buildGem('hearth_twice', '1.0.0');
    expect((await push(file, alice.username, writeToken)).code).toBe(0);
    const again = await push(file, alice.username, writeToken);
    expect(again.out).toMatch(/409|already exists/);
    const other = await buildGem('hearth_readonly', '1.0.0');
    const ro = await push(other, alice.username, readToken);
    expect(ro.out).toMatch(/401|permission/);
    expect(await versionsOf(s, alice.id, 'rubygems')).not.toContain('hearth_readonly@1.0.0');
  });

  it.skipIf(!GEM)('gem yank removes the version', async () => {
    const file = await buildGem('hearth_yanked', '0.1.0');
    expect((await push(file, alice.username, writeToken)).code).toBe(0);
    const r = await runClient(GEM!, ['yank', 'hearth_yanked', '-v', '0.1.0', '--host', registry(alice.username)], { env: gemEnv(writeToken) });
    expect(r.code, r.out).toBe(0);
    expect(await versionsOf(s, alice.id, 'rubygems')).not.toContain('hearth_yanked@0.1.0');
  });
});

/** ruby reads a Marshal dump back and prints it with inspect. */
function rubyLoad(bytes: Buffer, expr = 'x.inspect'): string {
  return execFileSync(RUBY!, ['-e', `require "rubygems"; x = Marshal.load(STDIN.read); print(${expr})`], { input: bytes }).toString();
}

describe('rubygems indexes', () => {
  it.skipIf(!RUBY)('Marshal dumps load in ruby: fixnums at every width, UTF-8 strings, symbols, hashes', () => {
    const ints = [0, 1, 122, 123, 255, 256, 65535, 65536, 2 ** 24, 2 ** 30 - 1, -1, -123, -124, -256, -257, -65537, -(2 ** 30)];
    expect(rubyLoad(marshalDump(ints))).toBe(`[${ints.join(', ')}]`);
    expect(rubyLoad(marshalDump(['héllo', { kind: 'symbol', name: 'runtime' }, { kind: 'symbol', name: 'runtime' }, { kind: 'hash', entries: [['k', true]] }, null, false])))
      .toBe('["héllo", :runtime, :runtime, {"k"=>true}, nil, false]');
  });

  it.skipIf(!GEM || !RUBY)('specs, latest_specs, prerelease_specs and quick gemspecs load in ruby', async () => {
    const owner = await createUser(s, 'gem-index');
    const token = await createToken(s, owner, ['write:package']);
    for (const [n, v] of [['idx_one', '1.0.0'], ['idx_one', '1.1.0'], ['idx_one', '2.0.0.beta1'], ['idx_two', '0.5.0']] as const) {
      expect((await push(await buildGem(n, v), owner.username, token)).code).toBe(0);
    }
    const get = async (p: string) => Buffer.from(await (await s.request(`api/packages/${owner.username}/rubygems/${p}`)).arrayBuffer());
    const specs = rubyLoad(zlib.gunzipSync(await get('specs.4.8.gz')), 'x.map { |n, v, p| [n, v.to_s, p].join(" ") }.join(",")');
    expect(specs).toBe('idx_one 1.0.0 ruby,idx_one 1.1.0 ruby,idx_two 0.5.0 ruby');
    expect(rubyLoad(zlib.gunzipSync(await get('latest_specs.4.8.gz')), 'x.map { |n, v, p| [n, v.to_s].join(" ") }.join(",")')).toBe('idx_one 1.1.0,idx_two 0.5.0');
    expect(rubyLoad(zlib.gunzipSync(await get('prerelease_specs.4.8.gz')), 'x.map { |n, v, p| [n, v.to_s].join(" ") }.join(",")')).toBe('idx_one 2.0.0.beta1');
    const spec = rubyLoad(zlib.inflateSync(await get('quick/Marshal.4.8/idx_one-1.1.0.gemspec.rz')),
      '[x.name, x.version.to_s, x.summary, x.authors.join, x.homepage, x.instance_variable_get(:@license).join, x.required_ruby_version.to_s, x.platform.to_s].join("|")');
    expect(spec).toBe('idx_one|1.1.0|Summary of idx_one|Alice|https://example.com/idx_one|MIT|>= 2.5|ruby');
    expect((await s.request(`api/packages/${owner.username}/rubygems/quick/Marshal.4.8/idx_one-1.1.0.gemspec`)).status).toBe(501);
    const info = await ok(await s.request(`api/packages/${owner.username}/rubygems/info/idx_one`));
    const file = await get('gems/idx_one-1.0.0.gem');
    expect(info.split('\n')[1]).toBe(`1.0.0 |checksum:${sha256(file)},ruby:>= 2.5,rubygems:>= 0`);
    const versions = await ok(await s.request(`api/packages/${owner.username}/rubygems/versions`));
    const md5 = crypto.createHash('md5').update(info).digest('hex');
    expect(versions).toContain(`\n---\nidx_one 1.0.0,1.1.0,2.0.0.beta1 ${md5}\nidx_two 0.5.0 `);
  });

  it('a tar without metadata.gz is a 400 and leaves nothing; a private organization is 401 to anonymous', async () => {
    const blobs = blobFileCount(s);
    const res = await s.request(`api/packages/${alice.username}/rubygems/api/v1/gems`, { method: 'POST', body: makeTar({ 'data.tar.gz': 'x' }, false), auth: as(alice) });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('metadata.gz is missing');
    expect(blobFileCount(s)).toBe(blobs);
    await createOrg(s, alice, 'gem-private', { visibility: 'private' });
    expect((await s.request('api/packages/gem-private/rubygems/specs.4.8.gz')).status).toBe(401);
    expect((await s.request('api/packages/gem-private/rubygems/versions')).status).toBe(401);
    expect((await s.request('api/packages/gem-private/rubygems/versions', { auth: as(alice) })).status).toBe(200);
  });
});
