import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, makeZip, versionsOf } from '../helpers/package-clients';
import { as, createToken, createUser, json, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Gitea's Swift registry over HTTP (no Swift toolchain in Debian), with the calls SE-0292 names
// and `swift package-registry publish` / `swift package resolve` make.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let readToken: string;
const V1 = 'application/vnd.swift.registry.v1';
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const sourceArchive = (name: string) => makeZip({
  [`${name}/Package.swift`]: `// swift-tools-version:5.7\nimport PackageDescription\nlet package = Package(name: "${name}")\n`,
  [`${name}/Package@swift-5.5.swift`]: '// swift-tools-version:5.5\nimport PackageDescription\n',
  [`${name}/Sources/${name}/${name}.swift`]: 'public let answer = 42\n',
});
const metadata = { name: 'Mona', description: 'A Swift package', keywords: ['swift', 'hearth'], license: 'MIT', codeRepository: 'https://example.com/mona.git',
  author: { givenName: 'Alice', familyName: 'Smith' }, repositoryURLs: ['https://example.com/mona.git', 'git@example.com:mona.git'] };

function publish(owner: string, scope: string, name: string, version: string, zip: Buffer, auth: Auth, meta: unknown = metadata): Promise<Response> {
  const form = new FormData();
  form.append('source-archive', new Blob([zip]), 'source-archive.zip');
  if (meta) form.append('metadata', JSON.stringify(meta));
  return s.request(`api/packages/${owner}/swift/${scope}/${name}/${version}`, { method: 'PUT', body: form, auth, headers: { Accept: `${V1}+json` } });
}
const get = (p: string, accept: string, auth?: Auth) => s.request(`api/packages/${alice.username}/swift/${p}`, { headers: { Accept: accept }, auth, redirect: 'manual' });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'swift-alice');
  readToken = await createToken(s, alice, ['read:package']);
});
afterAll(async () => { await s.stop(); });

describe('swift registry', () => {
  it('publishes releases and serves the list, a release, Package.swift per Swift version and the archive', async () => {
    const zip = sourceArchive('Mona');
    const res = await publish(alice.username, 'gitea', 'mona', '1.0.0', zip, as(alice));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-version')).toBe('1');
    expect((await publish(alice.username, 'gitea', 'mona', '1.1.0', sourceArchive('Mona'), as(alice), null)).status).toBe(201);
    const base = `${s.hearth.config.server.root_url}api/packages/${alice.username}/swift/gitea/mona`;

    const list = await get('gitea/mona', `${V1}+json`);
    expect(list.headers.get('content-version')).toBe('1');
    expect(list.headers.get('link')).toBe(`<${base}/1.1.0>; rel="latest-version"`);
    expect(await json(list)).toEqual({ releases: { '1.0.0': { url: `${base}/1.0.0` }, '1.1.0': { url: `${base}/1.1.0` } } });
    expect((await get('gitea/mona.json', `${V1}+json`)).status).toBe(200);

    const release = await json(await get('gitea/mona/1.0.0', `${V1}+json`));
    expect(release).toMatchObject({
      id: 'gitea.mona', version: '1.0.0', resources: [{ name: 'source-archive', type: 'application/zip', checksum: sha256(zip) }],
      metadata: { '@type': 'SoftwareSourceCode', name: 'mona', description: 'A Swift package', keywords: ['swift', 'hearth'], license: 'MIT',
        codeRepository: 'https://example.com/mona.git', author: { '@type': 'Person', givenName: 'Alice', familyName: 'Smith', name: 'Alice Smith' } },
    });

    const manifest = await get('gitea/mona/1.0.0/Package.swift', `${V1}+swift`);
    expect(manifest.headers.get('content-type')).toContain('text/x-swift');
    expect(await manifest.text()).toContain('let package = Package(name: "Mona")');
    expect(await (await get('gitea/mona/1.0.0/Package.swift?swift-version=5.5', `${V1}+swift`)).text()).toContain('swift-tools-version:5.5');
    const other = await get('gitea/mona/1.0.0/Package.swift?swift-version=5.9', `${V1}+swift`);
    expect(other.status).toBe(303);
    expect(other.headers.get('location')).toBe(`${base}/1.0.0/Package.swift`);

    const dl = await get('gitea/mona/1.0.0.zip', `${V1}+zip`);
    expect(dl.headers.get('digest')).toBe(`sha256=${sha256(zip)}`);
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(zip);

    const ids = await json(await get(`identifiers?url=${encodeURIComponent('git@example.com:mona.git')}`, `${V1}+json`));
    expect(ids).toEqual({ identifiers: ['gitea.mona'] });
    expect((await get('identifiers?url=https://nowhere.example', `${V1}+json`)).status).toBe(404);
  });

  it('a wrong Accept is a 400 problem document; login says whether the credentials work', async () => {
    const bad = await get('gitea/none', 'application/json');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(await json(bad)).toEqual({ status: 400, detail: `Unexpected accept header. Should be '${V1}+json'.` });
    expect((await s.request(`api/packages/${alice.username}/swift/login`, { method: 'POST' })).status).toBe(401);
    expect((await s.request(`api/packages/${alice.username}/swift/login`, { method: 'POST', auth: { token: readToken, as: 'bearer' } })).status).toBe(200);
  });

  it('refusals: a release again 409, no Package.swift or a bad scope 400, a read:package token 401 — nothing left behind', async () => {
    expect((await publish(alice.username, 'gitea', 'twice', '1.0.0', sourceArchive('Twice'), as(alice))).status).toBe(201);
    const blobs = blobFileCount(s);
    expect((await publish(alice.username, 'gitea', 'twice', '1.0.0', sourceArchive('Twice2'), as(alice))).status).toBe(409);
    expect((await publish(alice.username, 'gitea', 'nomanifest', '1.0.0', makeZip({ 'x/README.md': 'x' }), as(alice))).status).toBe(400);
    expect((await publish(alice.username, '-bad', 'pkg', '1.0.0', sourceArchive('Bad'), as(alice))).status).toBe(400);
    expect((await publish(alice.username, 'gitea', 'readonly', '1.0.0', sourceArchive('Ro'), { token: readToken })).status).toBe(401);
    expect(blobFileCount(s)).toBe(blobs);
    expect(await versionsOf(s, alice.id, 'swift')).not.toContain('gitea.readonly@1.0.0');
  });

  it('a private organization\'s packages are 401 to anonymous callers', async () => {
    await createOrg(s, alice, 'swift-private', { visibility: 'private' });
    expect((await publish('swift-private', 'acme', 'secret', '1.0.0', sourceArchive('Secret'), as(alice))).status).toBe(201);
    expect((await s.request('api/packages/swift-private/swift/acme/secret', { headers: { Accept: `${V1}+json` } })).status).toBe(401);
    expect((await s.request('api/packages/swift-private/swift/acme/secret', { headers: { Accept: `${V1}+json` }, auth: as(alice) })).status).toBe(200);
  });
});
