import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUserById } from '../../src/models/user';
import { regenerateChefKey } from '../../src/services/packages/chef/keys';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, makeTar, versionsOf } from '../helpers/package-clients';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';

// Gitea's Chef registry over HTTP (no knife in Debian), with requests signed as knife signs
// them (mixlib-authentication, protocols 1.1 and 1.3) with the user's registered key.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let bob: { username: string; password: string; id: number };
let aliceKey: string;
let readToken: string;

type Signed = { method?: string; body?: Buffer; contentType?: string; version?: '1.1' | '1.3'; user?: string; key?: string; time?: Date };

/** A request signed as knife signs it: the canonical request, X-Ops-Authorization-N lines of 60. */
function knife(path: string, o: Signed = {}): Promise<Response> {
  const method = o.method ?? 'GET';
  const version = o.version ?? '1.3';
  const user = o.user ?? alice.username;
  const body = o.body ?? Buffer.alloc(0);
  const url = new URL(path, s.hearth.config.server.root_url);
  const timestamp = (o.time ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  const algo = version === '1.3' ? 'sha256' : 'sha1';
  const hash = (x: Buffer | string, a = algo) => crypto.createHash(a).update(x).digest('base64');
  const contentHash = hash(body);
  const key = o.key ?? aliceKey;
  let sig: Buffer;
  if (version === '1.3') {
    const canonical = `Method:${method}\nPath:${url.pathname}\nX-Ops-Content-Hash:${contentHash}\nX-Ops-Sign:version=1.3\nX-Ops-Timestamp:${timestamp}\nX-Ops-UserId:${user}\nX-Ops-Server-API-Version:1`;
    sig = crypto.sign('sha256', Buffer.from(canonical), key);
  } else {
    const canonical = `Method:${method}\nHashed Path:${hash(url.pathname, 'sha1')}\nX-Ops-Content-Hash:${contentHash}\nX-Ops-Timestamp:${timestamp}\nX-Ops-UserId:${hash(user, 'sha1')}`;
    sig = crypto.privateEncrypt({ key, padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(canonical));
  }
  const headers: Record<string, string> = {
    'X-Ops-Sign': `algorithm=${algo};version=${version}`, 'X-Ops-Userid': user, 'X-Ops-Timestamp': timestamp,
    'X-Ops-Content-Hash': contentHash, 'X-Ops-Server-Api-Version': '1', Accept: 'application/json',
  };
  sig.toString('base64').match(/.{1,60}/g)!.forEach((line, i) => { headers[`X-Ops-Authorization-${i + 1}`] = line; });
  if (o.contentType) headers['Content-Type'] = o.contentType;
  return fetch(url, { method, headers, body: o.body && o.body.length ? o.body : undefined });
}

const cookbook = (name: string, version: string, deps: Record<string, string> = {}) => makeTar({
  [`${name}/metadata.json`]: JSON.stringify({ name, version, description: `The ${name} cookbook`, maintainer: 'Alice', license: 'MIT', source_url: 'https://example.com/cb', dependencies: deps }),
  [`${name}/recipes/default.rb`]: 'log "hello"\n',
});

/** knife supermarket share: a form with the tarball and the cookbook's category. */
async function share(owner: string, tgz: Buffer, o: Signed = {}): Promise<Response> {
  const form = new FormData();
  form.append('cookbook', JSON.stringify({ category: 'Other' }));
  form.append('tarball', new Blob([tgz]), 'cookbook.tgz');
  const r = new Response(form);
  const body = Buffer.from(await r.arrayBuffer());
  return knife(`api/packages/${owner}/chef/api/v1/cookbooks`, { ...o, method: 'POST', body, contentType: r.headers.get('content-type')! });
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'chef-alice');
  bob = await createUser(s, 'chef-bob');
  readToken = await createToken(s, alice, ['read:package']);
  aliceKey = await regenerateChefKey(s.hearth.db, (await getUserById(s.hearth.db, alice.id))!);
});
afterAll(async () => { await s.stop(); });

describe('chef registry with knife-signed requests', () => {
  it('shares cookbooks, lists them in the universe, shows, searches and downloads them', async () => {
    const v1 = cookbook('hearth_cb', '1.0.0');
    const res = await share(alice.username, v1);
    expect(res.status).toBe(201);
    expect(await json(res)).toEqual({});
    expect((await share(alice.username, cookbook('hearth_cb', '1.1.0', { apt: '>= 2.0' }), { version: '1.1' })).status).toBe(201);
    const api = `${s.hearth.config.server.root_url}api/packages/${alice.username}/chef/api/v1`;
    const universe = await json(await knife(`api/packages/${alice.username}/chef/api/v1/universe`));
    expect(universe.hearth_cb['1.1.0']).toEqual({
      location_type: 'opscode', location_path: api, download_url: `${api}/cookbooks/hearth_cb/versions/1.1.0/download`, dependencies: { apt: '>= 2.0' },
    });
    expect(Object.keys(universe.hearth_cb).sort()).toEqual(['1.0.0', '1.1.0']);
    expect(await json(await knife(`api/packages/${alice.username}/chef/api/v1/cookbooks/hearth_cb`))).toMatchObject({
      name: 'hearth_cb', maintainer: 'Alice', description: 'The hearth_cb cookbook', source_url: 'https://example.com/cb',
      latest_version: `${api}/cookbooks/hearth_cb/versions/1.1.0`, versions: [`${api}/cookbooks/hearth_cb/versions/1.0.0`, `${api}/cookbooks/hearth_cb/versions/1.1.0`],
    });
    expect(await json(await knife(`api/packages/${alice.username}/chef/api/v1/cookbooks/hearth_cb/versions/1_0_0`))).toMatchObject({
      version: '1.0.0', tarball_file_size: v1.length, license: 'MIT', file: `${api}/cookbooks/hearth_cb/versions/1.0.0/download`,
    });
    expect(await json(await knife(`api/packages/${alice.username}/chef/api/v1/search?q=hearth`))).toEqual({
      start: 0, total: 1, items: [{ cookbook_name: 'hearth_cb', cookbook_maintainer: 'Alice', cookbook_description: 'The hearth_cb cookbook', cookbook: `${api}/cookbooks/hearth_cb` }],
    });
    const dl = await knife(`api/packages/${alice.username}/chef/api/v1/cookbooks/hearth_cb/versions/1.0.0/download`);
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(v1);
  });

  it('a bad signature, another user\'s key, an old timestamp or a user without a key are 401', async () => {
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const path = `api/packages/${alice.username}/chef/api/v1/universe`;
    expect((await knife(path, { key: other })).status).toBe(401);
    expect((await knife(path, { time: new Date(Date.now() - 3600_000) })).status).toBe(401);
    expect((await knife(path, { user: bob.username })).status).toBe(401);
    const denied = await share(alice.username, cookbook('forged', '1.0.0'), { key: other });
    expect(denied.status).toBe(401);
    expect((await json(denied)).error_messages).toHaveLength(1);
  });

  it('refusals: a version again 409, no metadata.json 400, a read-only caller 401, bob on alice\'s packages 401 — nothing left', async () => {
    expect((await share(alice.username, cookbook('twice', '1.0.0'))).status).toBe(201);
    const blobs = blobFileCount(s);
    expect((await share(alice.username, cookbook('twice', '1.0.0'))).status).toBe(409);
    expect((await share(alice.username, makeTar({ 'x/README.md': 'x' }))).status).toBe(400);
    const form = new FormData();
    form.append('tarball', new Blob([cookbook('readonly', '1.0.0')]), 'c.tgz');
    expect((await s.request(`api/packages/${alice.username}/chef/api/v1/cookbooks`, { method: 'POST', body: form, auth: { token: readToken } })).status).toBe(401);
    const bobKey = await regenerateChefKey(s.hearth.db, (await getUserById(s.hearth.db, bob.id))!);
    expect((await share(alice.username, cookbook('bobs', '1.0.0'), { user: bob.username, key: bobKey })).status).toBe(401);
    expect(blobFileCount(s)).toBe(blobs);
    expect((await versionsOf(s, alice.id, 'chef')).filter((v) => /readonly|bobs/.test(v))).toEqual([]);
  });

  it('unshare removes a version, then the cookbook', async () => {
    expect((await share(alice.username, cookbook('gone', '1.0.0'))).status).toBe(201);
    expect((await share(alice.username, cookbook('gone', '2.0.0'))).status).toBe(201);
    expect((await knife(`api/packages/${alice.username}/chef/api/v1/cookbooks/gone/versions/1.0.0`, { method: 'DELETE' })).status).toBe(200);
    expect((await versionsOf(s, alice.id, 'chef')).filter((v) => v.startsWith('gone'))).toEqual(['gone@2.0.0']);
    expect((await knife(`api/packages/${alice.username}/chef/api/v1/cookbooks/gone`, { method: 'DELETE' })).status).toBe(200);
    expect((await knife(`api/packages/${alice.username}/chef/api/v1/cookbooks/gone`)).status).toBe(404);
  });

  it('a deleted user\'s Chef key goes with it', async () => {
    const dave = await createUser(s, 'chef-dave');
    await regenerateChefKey(s.hearth.db, (await getUserById(s.hearth.db, dave.id))!);
    const keys = () => s.hearth.db.selectFrom('user_setting').select('setting_key').where('user_id', '=', dave.id).execute();
    expect(await keys()).toEqual([{ setting_key: 'chef.public_pem' }]);
    expect((await s.request(`api/v1/admin/users/${dave.username}`, { method: 'DELETE', auth: as(s.admin) })).status).toBe(204);
    expect(await keys()).toEqual([]);
  });

  it('a private organization\'s cookbooks are 401 to anonymous callers', async () => {
    await createOrg(s, alice, 'chef-private', { visibility: 'private' });
    expect((await share('chef-private', cookbook('secret', '1.0.0'))).status).toBe(201);
    expect((await s.request('api/packages/chef-private/chef/api/v1/universe')).status).toBe(401);
    expect((await knife('api/packages/chef-private/chef/api/v1/universe')).status).toBe(200);
    expect((await s.request('api/packages/chef-private/chef/api/v1/universe', { auth: as(alice) })).status).toBe(200);
  });
});
