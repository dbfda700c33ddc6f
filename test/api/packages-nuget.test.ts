/* eslint-disable @typescript-eslint/no-explicit-any */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { run } from '../helpers/package-repos';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Gitea's NuGet registry: the v3 API over HTTP as the NuGet client calls it (the dotnet SDK is not
// reachable here): publish with X-NuGet-ApiKey and a multipart body, the service index,
// registration, flat container, search, symbols; and Debian's nuget (2.8, on mono), which speaks
// the v2 feed, pushing and installing.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
let work: string;
const base = (owner: string) => `api/packages/${owner}/nuget`;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A minimal portable PDB: the metadata root with one `#Pdb` stream holding the 20-byte id. */
function portablePdb(guid: Buffer): Buffer {
  const version = Buffer.from('PDB v1.0\0\0\0\0');
  const header = Buffer.alloc(16 + version.length + 4);
  header.writeUInt32LE(0x424a5342, 0); header.writeUInt16LE(1, 4); header.writeUInt16LE(1, 6); header.writeUInt32LE(version.length, 12);
  version.copy(header, 16);
  header.writeUInt16LE(1, 16 + version.length + 2);
  const streamHeader = Buffer.alloc(16);
  const offset = header.length + streamHeader.length;
  streamHeader.writeUInt32LE(offset, 0); streamHeader.writeUInt32LE(20, 4); streamHeader.write('#Pdb\0', 8, 'latin1');
  return Buffer.concat([header, streamHeader, guid, Buffer.alloc(4)]);
}

const BUILD = `
import sys, zipfile
out, nuspec = sys.argv[1], sys.argv[2]
# The OPC parts nuget pack writes: NuGet 2.x finds the manifest through them.
types = '<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="nuspec" ContentType="application/octet"/><Default Extension="dll" ContentType="application/octet"/><Default Extension="pdb" ContentType="application/octet"/></Types>'
rels = '<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Type="http://schemas.microsoft.com/packaging/2010/07/manifest" Target="/' + sys.argv[3] + '.nuspec" Id="R1"/></Relationships>'
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("_rels/.rels", rels)
    z.writestr(sys.argv[3] + ".nuspec", nuspec)
    z.writestr("[Content_Types].xml", types)
    for extra in sys.argv[4:]:
        name, src = extra.split("=", 1)
        z.write(src, name)
`;

async function nupkg(id: string, version: string, opts: { symbols?: boolean; files?: Record<string, Buffer>; noDeps?: boolean } = {}): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(work, 'nupkg-'));
  const types = opts.symbols ? '<packageTypes><packageType name="SymbolsPackage"/></packageTypes>' : '';
  const nuspec = `<?xml version="1.0" encoding="utf-8"?><package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd"><metadata>
<id>${id}</id><version>${version}</version><authors>Alice</authors><description>A tiny package.</description><projectUrl>https://example.com/</projectUrl>
<tags>tiny test</tags>${types}${opts.noDeps ? '' : '<dependencies><group targetFramework="net6.0"><dependency id="Newtonsoft.Json" version="13.0.1" /></group></dependencies>'}</metadata></package>`;
  const extras = Object.entries(opts.files ?? { 'lib/net6.0/tiny.dll': Buffer.from('MZ not really') }).map(([name, data]) => {
    const f = path.join(dir, name.replace(/\//g, '_'));
    fs.writeFileSync(f, data);
    return `${name}=${f}`;
  });
  const out = path.join(dir, 'out.nupkg');
  await run('python3', ['-c', BUILD, out, nuspec, id, ...extras]);
  return fs.readFileSync(out);
}

/** PUT as `nuget push` sends it: multipart with one file part, the token as X-NuGet-ApiKey. */
function push(owner: string, data: Buffer, key: string, symbols = false) {
  const form = new FormData();
  form.append('package', new Blob([data]), 'package.nupkg');
  return s.request(`${base(owner)}/${symbols ? 'symbolpackage' : ''}`, { method: 'PUT', body: form, headers: { 'X-NuGet-ApiKey': key } });
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'nuget-alice');
  token = await createToken(s, alice, ['write:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-nuget-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('nuget registry (HTTP: no v3 client on Debian)', () => {
  it('publishes, then the service index leads to the registration and the flat container, which serves the bytes', async () => {
    const pkg = await nupkg('Tiny.Package', '1.0');
    expect((await push(alice.username, pkg, token)).status).toBe(201);
    const index = await (await s.request(`${base(alice.username)}/index.json`)).json() as any;
    expect(index.version).toBe('3.0.0');
    const flat = index.resources.find((r: any) => r['@type'] === 'PackageBaseAddress/3.0.0')['@id'];
    const reg = index.resources.find((r: any) => r['@type'] === 'RegistrationsBaseUrl')['@id'];
    expect(await (await fetch(`${flat}/tiny.package/index.json`)).json()).toEqual({ versions: ['1.0.0'] });
    const registration = await (await fetch(`${reg}/tiny.package/index.json`)).json() as any;
    const entry = registration.items[0].items[0];
    expect(entry.catalogEntry).toMatchObject({ id: 'Tiny.Package', version: '1.0.0', authors: 'Alice', description: 'A tiny package.' });
    expect(entry.catalogEntry.dependencyGroups).toEqual([{ targetFramework: 'net6.0', dependencies: [{ id: 'Newtonsoft.Json', range: '13.0.1' }] }]);
    const content = await fetch(entry.packageContent);
    expect(content.status).toBe(200);
    expect(sha256(Buffer.from(await content.arrayBuffer()))).toBe(sha256(pkg));
    const leaf = await (await fetch(entry['@id'])).json() as any;
    expect(leaf).toMatchObject({ listed: true, packageContent: entry.packageContent });
    const nuspec = await fetch(`${flat}/tiny.package/1.0.0/tiny.package.nuspec`);
    expect(await nuspec.text()).toContain('<id>Tiny.Package</id>');
  });

  it('search finds packages by name with their versions', async () => {
    expect((await push(alice.username, await nupkg('Search.Me', '1.0.0'), token)).status).toBe(201);
    expect((await push(alice.username, await nupkg('Search.Me', '2.0.0-beta'), token)).status).toBe(201);
    const r = await (await s.request(`${base(alice.username)}/query?q=search&take=10`)).json() as any;
    expect(r.totalHits).toBe(1);
    expect(r.data[0]).toMatchObject({ id: 'Search.Me', version: '2.0.0-beta' });
    expect(r.data[0].versions.map((v: any) => v.version)).toEqual(['1.0.0', '2.0.0-beta']);
  });

  it('the same version again is 409; a read:package key is 401; delete removes the version', async () => {
    const pkg = await nupkg('Twice', '1.0.0');
    expect((await push(alice.username, pkg, token)).status).toBe(201);
    const again = await push(alice.username, pkg, token);
    expect(again.status).toBe(409);
    expect(await again.json()).toHaveProperty('Message');
    const reader = await createToken(s, alice, ['read:package']);
    expect((await push(alice.username, await nupkg('Reader', '1.0.0'), reader)).status).toBe(401);
    const del = await s.request(`${base(alice.username)}/Twice/1.0.0`, { method: 'DELETE', headers: { 'X-NuGet-ApiKey': token } });
    expect(del.status).toBe(204);
    expect((await s.request(`${base(alice.username)}/package/twice/index.json`)).status).toBe(404);
  });

  it('a symbol package adds its PDBs, served by the symbol server path; it needs the package first', async () => {
    const guid = crypto.randomBytes(16);
    const pdb = portablePdb(Buffer.concat([guid, Buffer.alloc(4)]));
    const snupkg = await nupkg('With.Symbols', '1.0.0', { symbols: true, files: { 'lib/net6.0/with.pdb': pdb } });
    expect((await push(alice.username, snupkg, token, true)).status).toBe(404);
    expect((await push(alice.username, await nupkg('With.Symbols', '1.0.0'), token)).status).toBe(201);
    expect((await push(alice.username, snupkg, token, true)).status).toBe(201);
    const id = Buffer.concat([Buffer.from(guid.subarray(0, 4)).reverse(), Buffer.from(guid.subarray(4, 6)).reverse(), Buffer.from(guid.subarray(6, 8)).reverse(), guid.subarray(8)]).toString('hex');
    const res = await s.request(`${base(alice.username)}/symbols/with.pdb/${id}FFFFFFFF/with.pdb`);
    expect(res.status).toBe(200);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(pdb));
  });

  it('bad input is 400 and stores nothing; a private organization is hidden from anonymous clients', async () => {
    const junk = Buffer.from('not a zip archive at all');
    expect((await push(alice.username, junk, token)).status).toBe(400);
    const broken = await s.request(`${base(alice.username)}/`, { method: 'PUT', body: 'no parts at all', headers: { 'X-NuGet-ApiKey': token, 'Content-Type': 'multipart/form-data; boundary=xyz' } });
    expect(broken.status).toBe(400);
    expect(fs.existsSync(path.join(s.dataDir, 'packages', 'blobs', sha256(junk).slice(0, 2), sha256(junk).slice(2, 4), sha256(junk)))).toBe(false);
    await createOrg(s, alice, 'nuget-secret', { visibility: 'private' });
    expect((await push('nuget-secret', await nupkg('Hidden', '1.0.0'), token)).status).toBe(201);
    expect((await s.request(`${base('nuget-secret')}/package/hidden/index.json`)).status).toBe(401);
    expect((await s.request(`${base('nuget-secret')}/package/hidden/index.json`, { auth: as(alice) })).status).toBe(200);
  });
});

const hasNuget = (() => { try { require('node:child_process').execFileSync('sh', ['-c', 'command -v nuget'], { stdio: 'ignore' }); return true; } catch { return false; } })();
if (!hasNuget) console.warn('packages-nuget: Debian\'s nuget (2.8, mono) is missing, its push/install test is skipped');

describe('nuget registry with Debian\'s NuGet 2.8 (the v2 feed)', () => {
  it.skipIf(!hasNuget)('nuget push publishes and nuget install fetches the same bytes', async () => {
    const { client } = await import('../helpers/package-repos');
    const home = fs.mkdtempSync(path.join(work, 'home-'));
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    const pkg = await nupkg('Mono.Tiny', '1.2.3', { noDeps: true });
    const file = path.join(home, 'Mono.Tiny.1.2.3.nupkg');
    fs.writeFileSync(file, pkg);
    const source = `${s.hearth.config.server.root_url}${base(alice.username)}/`;
    const push = await client('nuget', ['push', path.basename(file), '-Source', source, '-ApiKey', token, '-NonInteractive'], { env, cwd: home });
    expect(push.code, push.out).toBe(0);
    const out = path.join(home, 'out');
    const install = await client('nuget', ['install', 'Mono.Tiny', '-Version', '1.2.3', '-Source', source, '-OutputDirectory', out, '-NonInteractive'], { env, cwd: home });
    expect(install.code, install.out).toBe(0);
    const got = fs.readFileSync(path.join(out, 'Mono.Tiny.1.2.3', 'Mono.Tiny.1.2.3.nupkg'));
    expect(sha256(got)).toBe(sha256(pkg));
  });
});
