import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, makeTar, versionsOf } from '../helpers/package-clients';
import { as, createToken, createUser, ok, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Gitea's Helm registry over HTTP (no helm client in Debian): chart upload as Gitea's
// documentation does with curl (and as helm cm-push does, a form's `chart`), index.yaml as helm
// reads it (Gitea's test), downloads.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let readToken: string;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const chart = (name: string, version: string, extra = '') => makeTar({
  [`${name}/Chart.yaml`]: `apiVersion: v2\ndescription: Gitea Test Package\nname: ${name}\ntype: application\nversion: ${version}\nappVersion: "2.1"\nmaintainers:\n- name: KN4CK3R\ndependencies:\n- name: dep1\n  repository: https://example.com/\n  version: 1.0.0\n${extra}`,
  [`${name}/values.yaml`]: 'replicas: 1\n',
});
const post = (owner: string, body: Buffer | FormData, auth: Auth) => s.request(`api/packages/${owner}/helm/api/charts`, { method: 'POST', body, auth });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'helm-alice');
  readToken = await createToken(s, alice, ['read:package']);
});
afterAll(async () => { await s.stop(); });

describe('helm registry', () => {
  it('uploads a chart, lists it in index.yaml with its URL and digest, and serves its bytes', async () => {
    const tgz = chart('test-chart', '1.0.3');
    expect((await post(alice.username, tgz, as(alice))).status).toBe(201);
    const index = parse(await ok(await s.request(`api/packages/${alice.username}/helm/index.yaml`, { auth: as(alice) })));
    expect(index.apiVersion).toBe('v1');
    expect(index.serverInfo).toEqual({ contextPath: `/api/packages/${alice.username}/helm` });
    const [entry] = index.entries['test-chart'];
    const url = `${s.hearth.config.server.root_url}api/packages/${alice.username}/helm/test-chart-1.0.3.tgz`;
    expect(entry).toMatchObject({
      name: 'test-chart', version: '1.0.3', appVersion: '2.1', apiVersion: 'v2', type: 'application', description: 'Gitea Test Package',
      maintainers: [{ name: 'KN4CK3R' }], dependencies: [{ name: 'dep1', repository: 'https://example.com/', version: '1.0.0' }],
      urls: [url], digest: sha256(tgz),
    });
    expect(Number.isNaN(Date.parse(entry.created))).toBe(false);
    const dl = await s.request(url.replace(s.hearth.config.server.root_url, ''), { auth: { token: readToken } });
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(tgz);
  });

  it('pushing the same version again replaces its archive (201, as Gitea); a form\'s chart field is read too', async () => {
    expect((await post(alice.username, chart('again', '0.1.0'), as(alice))).status).toBe(201);
    const second = chart('again', '0.1.0', 'icon: https://example.com/i.png\n');
    const form = new FormData();
    form.append('chart', new Blob([second]), 'again-0.1.0.tgz');
    expect((await post(alice.username, form, as(alice))).status).toBe(201);
    const dl = await s.request(`api/packages/${alice.username}/helm/again-0.1.0.tgz`);
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(second);
    expect((await versionsOf(s, alice.id, 'helm')).filter((v) => v.startsWith('again'))).toEqual(['again@0.1.0']);
  });

  it('refusals leave nothing: no Chart.yaml, a bad version, a read:package token', async () => {
    const blobs = blobFileCount(s);
    const missing = await post(alice.username, makeTar({ 'x/values.yaml': 'a: 1\n' }), as(alice));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'Chart.yaml file is missing' });
    expect((await post(alice.username, chart('badver', 'one'), as(alice))).status).toBe(400);
    expect((await post(alice.username, Buffer.from('not gzip'), as(alice))).status).toBe(400);
    expect((await post(alice.username, chart('readonly', '1.0.0'), { token: readToken })).status).toBe(401);
    expect(blobFileCount(s)).toBe(blobs);
    expect(await versionsOf(s, alice.id, 'helm')).not.toContain('readonly@1.0.0');
  });

  it('a private organization\'s index is 401 to anonymous callers', async () => {
    await createOrg(s, alice, 'helm-private', { visibility: 'private' });
    expect((await post('helm-private', chart('secret', '1.0.0'), as(alice))).status).toBe(201);
    expect((await s.request('api/packages/helm-private/helm/index.yaml')).status).toBe(401);
    expect((await s.request('api/packages/helm-private/helm/secret-1.0.0.tgz')).status).toBe(401);
    expect(parse(await ok(await s.request('api/packages/helm-private/helm/index.yaml', { auth: as(alice) }))).entries.secret).toHaveLength(1);
  });
});
