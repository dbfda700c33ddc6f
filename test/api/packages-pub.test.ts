import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, makeTar, versionsOf } from '../helpers/package-clients';
import { as, createToken, createUser, json, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Gitea's Pub registry over HTTP (no dart client in Debian), with the calls `dart pub publish`
// and `dart pub get` make (repository-spec-v2): the upload flow, the versions document, archives.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let writeToken: string;
let readToken: string;
const PUB_JSON = 'application/vnd.pub.v2+json';

const archive = (name: string, version: string) => makeTar({
  'pubspec.yaml': `name: ${name}\nversion: ${version}\ndescription: A Dart package\nhomepage: https://example.com/${name}\nenvironment:\n  sdk: '>=2.12.0 <4.0.0'\n`,
  'README.md': `# ${name}`,
  [`lib/${name}.dart`]: 'int answer() => 42;\n',
});
const api = (owner: string) => `api/packages/${owner}/pub/api/packages`;
const bearer = (token: string): Auth => ({ token, as: 'bearer' });

/** dart pub publish: ask where to upload, post the archive there, follow Location to finalize. */
async function publish(owner: string, tgz: Buffer, auth: Auth): Promise<Response> {
  const first = await s.request(`${api(owner)}/versions/new`, { auth, headers: { Accept: PUB_JSON } });
  if (first.status !== 200) return first;
  const { url, fields } = await first.json() as { url: string; fields: Record<string, string> };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([tgz]), 'package.tar.gz');
  const up = await s.request(url.replace(s.hearth.config.server.root_url, ''), { method: 'POST', body: form, auth, redirect: 'manual' });
  if (up.status !== 204) return up;
  return s.request(up.headers.get('location')!.replace(s.hearth.config.server.root_url, ''), { auth, headers: { Accept: PUB_JSON } });
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'pub-alice');
  writeToken = await createToken(s, alice, ['write:package']);
  readToken = await createToken(s, alice, ['read:package']);
});
afterAll(async () => { await s.stop(); });

describe('pub registry', () => {
  it('publishes through the upload flow; the versions document and archive serve what dart pub get reads', async () => {
    const v1 = archive('hearth_pkg', '1.0.0');
    const v2 = archive('hearth_pkg', '1.1.0');
    const done = await publish(alice.username, v1, bearer(writeToken));
    expect(done.status).toBe(200);
    expect(done.headers.get('content-type')).toContain(PUB_JSON);
    expect(await done.json()).toEqual({ success: { message: '' } });
    expect((await publish(alice.username, v2, bearer(writeToken))).status).toBe(200);
    const res = await s.request(`${api(alice.username)}/hearth_pkg`, { auth: bearer(readToken), headers: { Accept: PUB_JSON } });
    expect(res.headers.get('content-type')).toContain(PUB_JSON);
    const doc = await json(res);
    const base = `${s.hearth.config.server.root_url}${api(alice.username)}/hearth_pkg`;
    expect(doc.name).toBe('hearth_pkg');
    expect(doc.versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0', '1.1.0']);
    expect(doc.latest).toMatchObject({ version: '1.1.0', archive_url: `${base}/files/1.1.0.tar.gz`, pubspec: { name: 'hearth_pkg', version: '1.1.0', environment: { sdk: '>=2.12.0 <4.0.0' } } });
    const one = await json(await s.request(`${api(alice.username)}/hearth_pkg/1.0.0`));
    expect(one).toMatchObject({ version: '1.0.0', archive_url: `${base}/files/1.0.0.tar.gz` });
    const dl = await s.request(one.archive_url.replace(s.hearth.config.server.root_url, ''));
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(v1);
  });

  it('re-publishing a version is 409 in pub\'s error shape; a read:package token cannot publish; bad archives leave nothing', async () => {
    expect((await publish(alice.username, archive('twice', '1.0.0'), as(alice))).status).toBe(200);
    const again = await publish(alice.username, archive('twice', '1.0.0'), as(alice));
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: { code: 'Conflict', message: 'package version already exists' } });
    expect((await publish(alice.username, archive('readonly', '1.0.0'), bearer(readToken))).status).toBe(401);
    const blobs = blobFileCount(s);
    expect((await publish(alice.username, makeTar({ 'README.md': 'x' }), as(alice))).status).toBe(400);
    expect((await publish(alice.username, archive('Bad-Name', '1.0.0'), as(alice))).status).toBe(400);
    expect(blobFileCount(s)).toBe(blobs);
    expect(await versionsOf(s, alice.id, 'pub')).not.toContain('readonly@1.0.0');
  });

  it('a private organization\'s packages are 401 to anonymous callers', async () => {
    await createOrg(s, alice, 'pub-private', { visibility: 'private' });
    expect((await publish('pub-private', archive('secret', '1.0.0'), as(alice))).status).toBe(200);
    expect((await s.request(`${api('pub-private')}/secret`)).status).toBe(401);
    expect((await s.request(`${api('pub-private')}/secret`, { auth: as(alice) })).status).toBe(200);
  });
});
