import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// /repos/{owner}/{repo}/keys: deploy keys, with Gitea's rules on keys shared with user keys.

type Creds = { username: string; password: string; id: number };
type Key = { pub: string; fingerprint: string };

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;

/** A fresh ed25519 public key in authorized_keys form, with ssh-keygen's fingerprint. */
function newKey(comment: string): Key {
  const { publicKey } = crypto.generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const str = (b: Buffer) => { const len = Buffer.alloc(4); len.writeUInt32BE(b.length); return Buffer.concat([len, b]); };
  const blob = Buffer.concat([str(Buffer.from('ssh-ed25519')), str(raw)]);
  return {
    pub: `ssh-ed25519 ${blob.toString('base64')} ${comment}`,
    fingerprint: `SHA256:${crypto.createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
  };
}

const call = (method: string, p: string, who: { username: string; password: string } | null, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), ...(body === undefined ? {} : { json: body }) });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'proj', { auto_init: true });
  await createRepo(s, alice, 'other', { auto_init: true });
  await ok(await call('PUT', 'repos/alice/proj/collaborators/bob', alice, { permission: 'write' }), 204);
});
afterAll(async () => { await s.stop(); });

describe('deploy keys', () => {
  const deployKey = newKey('deploy@ci');
  let id: number;
  let keyId: number;

  it('POST adds a read-only key (201, Gitea\'s DeployKey)', async () => {
    const body = await ok(await call('POST', 'repos/alice/proj/keys', alice, { title: 'ci', key: deployKey.pub, read_only: true }), 201);
    expectShape(body, 'DeployKey');
    expect(body).toMatchObject({
      title: 'ci', read_only: true, fingerprint: deployKey.fingerprint, key: deployKey.pub,
      repository: { full_name: 'alice/proj' },
    });
    expect(body.url).toBe(`${s.hearth.config.server.root_url}api/v1/repos/alice/proj/keys/${body.id}`);
    id = body.id;
    keyId = body.key_id;
    const rw = await ok(await call('POST', 'repos/alice/proj/keys', alice, { title: 'rw', key: newKey('rw').pub }), 201);
    expect(rw.read_only).toBe(false);
  });

  it('lists the keys with X-Total-Count, filtered by fingerprint and key_id', async () => {
    const res = await call('GET', 'repos/alice/proj/keys', alice);
    const all = await ok(res);
    expectShape(all, '[DeployKey]');
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(all.map((k: { title: string }) => k.title)).toEqual(['ci', 'rw']);
    const byFp = await ok(await call('GET', `repos/alice/proj/keys?fingerprint=${encodeURIComponent(deployKey.fingerprint)}`, alice));
    expect(byFp.map((k: { id: number }) => k.id)).toEqual([id]);
    const byKey = await ok(await call('GET', `repos/alice/proj/keys?key_id=${keyId}`, alice));
    expect(byKey.map((k: { id: number }) => k.id)).toEqual([id]);
  });

  it('GET /keys/{id} answers the key, 404 from another repository', async () => {
    const body = await ok(await call('GET', `repos/alice/proj/keys/${id}`, alice));
    expectShape(body, 'DeployKey');
    expect(body.id).toBe(id);
    expect((await call('GET', `repos/alice/other/keys/${id}`, alice)).status).toBe(404);
    expect((await call('GET', 'repos/alice/proj/keys/999999', alice)).status).toBe(404);
  });

  it('is for repository admins: writers and readers of a public repository get 403, anonymous 401', async () => {
    expect((await call('GET', 'repos/alice/proj/keys', bob)).status).toBe(403);
    expect((await call('POST', 'repos/alice/proj/keys', bob, { title: 'x', key: newKey('x').pub })).status).toBe(403);
    expect((await call('GET', 'repos/alice/proj/keys', carol)).status).toBe(403);
    expect((await call('GET', 'repos/alice/proj/keys', null)).status).toBe(401);
  });

  it('refuses the same key twice in a repository, a title used twice, and invalid content (422)', async () => {
    const twice = await call('POST', 'repos/alice/proj/keys', alice, { title: 'again', key: deployKey.pub });
    expect(twice.status).toBe(422);
    expect((await json(twice)).message).toBe('This key has already been added to this repository');
    const title = await call('POST', 'repos/alice/proj/keys', alice, { title: 'ci', key: newKey('t').pub });
    expect(title.status).toBe(422);
    expect((await json(title)).message).toBe('A key with the same name already exists');
    const bad = await call('POST', 'repos/alice/proj/keys', alice, { title: 'bad', key: 'ssh-ed25519 AAAA' });
    expect(bad.status).toBe(422);
    expect((await json(bad)).message).toMatch(/^Invalid key content/);
  });

  it('the same key may be a deploy key of another repository (one public key)', async () => {
    const body = await ok(await call('POST', 'repos/alice/other/keys', alice, { title: 'ci', key: deployKey.pub }), 201);
    expect(body.key_id).toBe(keyId);
  });

  it('a user key cannot become a deploy key, nor a deploy key a user key (422, as Gitea)', async () => {
    const userKey = newKey('laptop');
    await ok(await call('POST', 'user/keys', carol, { title: 'laptop', key: userKey.pub }), 201);
    const asDeploy = await call('POST', 'repos/alice/proj/keys', alice, { title: 'laptop', key: userKey.pub });
    expect(asDeploy.status).toBe(422);
    expect((await json(asDeploy)).message).toBe('Key content has been used as non-deploy key');
    const asUser = await call('POST', 'user/keys', carol, { title: 'ci', key: deployKey.pub });
    expect(asUser.status).toBe(422);
    // Deploy keys are not the owner's user keys.
    expect(await ok(await call('GET', 'user/keys', alice))).toEqual([]);
    expect((await call('GET', `user/keys/${keyId}`, alice)).status).toBe(404);
  });

  it('DELETE removes the key from one repository; the last removal frees the content', async () => {
    await ok(await call('DELETE', `repos/alice/proj/keys/${id}`, alice), 204);
    expect((await call('GET', `repos/alice/proj/keys/${id}`, alice)).status).toBe(404);
    expect((await call('DELETE', `repos/alice/proj/keys/${id}`, alice)).status).toBe(404);
    const left = await ok(await call('GET', 'repos/alice/other/keys', alice));
    expect(left.map((k: { key_id: number }) => k.key_id)).toEqual([keyId]);
    expect((await call('POST', 'user/keys', carol, { title: 'ci', key: deployKey.pub })).status).toBe(422);
    await ok(await call('DELETE', `repos/alice/other/keys/${left[0].id}`, alice), 204);
    await ok(await call('POST', 'user/keys', carol, { title: 'ci', key: deployKey.pub }), 201);
  });

  it('additions and removals are in the audit log', async () => {
    const rows = await s.hearth.db.selectFrom('audit_log').select(['operation_type', 'target_name', 'repo_name'])
      .where('operation_type', 'like', 'repo.deploy_key.%').orderBy('id').execute();
    expect(rows.filter((r) => r.target_name === 'ci')).toEqual([
      { operation_type: 'repo.deploy_key.add', target_name: 'ci', repo_name: 'alice/proj' },
      { operation_type: 'repo.deploy_key.add', target_name: 'ci', repo_name: 'alice/other' },
      { operation_type: 'repo.deploy_key.remove', target_name: 'ci', repo_name: 'alice/proj' },
      { operation_type: 'repo.deploy_key.remove', target_name: 'ci', repo_name: 'alice/other' },
    ]);
  });
});
