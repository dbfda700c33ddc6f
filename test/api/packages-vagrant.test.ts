import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, makeTar, versionsOf } from '../helpers/package-clients';
import { as, createToken, createUser, ok, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Gitea's Vagrant registry over HTTP (Debian's vagrant needs VirtualBox): box upload as Gitea's
// documentation does with curl, and the calls `vagrant box add` makes (the metadata document,
// the box download).

let s: TestServer;
let alice: { username: string; password: string; id: number };
let readToken: string;
const sha512 = (b: Buffer) => crypto.createHash('sha512').update(b).digest('hex');
const box = (desc: string) => makeTar({ 'info.json': JSON.stringify({ author: 'Alice', description: desc, website: 'https://example.com' }), 'metadata.json': '{"provider":"virtualbox"}', 'box.ovf': 'disk' });
const put = (owner: string, p: string, body: Buffer, auth: Auth) => s.request(`api/packages/${owner}/vagrant/${p}`, { method: 'PUT', body, auth });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'vagrant-alice');
  readToken = await createToken(s, alice, ['read:package']);
});
afterAll(async () => { await s.stop(); });

describe('vagrant registry', () => {
  it('serves the box metadata vagrant reads, with one provider per box file and sha512 checksums', async () => {
    const vb = box('First box');
    const lv = box('First box, libvirt');
    const v2 = box('Second box');
    expect((await put(alice.username, 'hearth-box/1.0.0/virtualbox.box', vb, as(alice))).status).toBe(201);
    expect((await put(alice.username, 'hearth-box/1.0.0/libvirt.box', lv, as(alice))).status).toBe(201);
    expect((await put(alice.username, 'hearth-box/1.1.0/virtualbox.box', v2, as(alice))).status).toBe(201);
    const head = await s.request(`api/packages/${alice.username}/vagrant/hearth-box`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toContain('application/json');
    const base = `${s.hearth.config.server.root_url}api/packages/${alice.username}/vagrant/hearth-box`;
    expect(await ok(await s.request(`api/packages/${alice.username}/vagrant/hearth-box`))).toEqual({
      name: 'hearth-box', description: 'Second box',
      versions: [
        { version: '1.0.0', status: 'active', providers: [
          { name: 'virtualbox', url: `${base}/1.0.0/virtualbox.box`, checksum: sha512(vb), checksum_type: 'sha512' },
          { name: 'libvirt', url: `${base}/1.0.0/libvirt.box`, checksum: sha512(lv), checksum_type: 'sha512' },
        ] },
        { version: '1.1.0', status: 'active', providers: [{ name: 'virtualbox', url: `${base}/1.1.0/virtualbox.box`, checksum: sha512(v2), checksum_type: 'sha512' }] },
      ],
    });
    const dl = await s.request(`api/packages/${alice.username}/vagrant/hearth-box/1.0.0/libvirt.box`, { auth: { token: readToken } });
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(lv);
  });

  it('authenticate: 401 without credentials, 200 with a token', async () => {
    const anon = await s.request(`api/packages/${alice.username}/vagrant/authenticate`);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toEqual({ errors: ['Invalid access token'] });
    expect((await s.request(`api/packages/${alice.username}/vagrant/authenticate`, { auth: { token: readToken, as: 'bearer' } })).status).toBe(200);
  });

  it('refusals: the same provider again 409, a bad version or provider 400, a read:package token 401 — nothing left behind', async () => {
    expect((await put(alice.username, 'twice/1.0.0/virtualbox.box', box('a'), as(alice))).status).toBe(201);
    const blobs = blobFileCount(s);
    expect((await put(alice.username, 'twice/1.0.0/virtualbox.box', box('b'), as(alice))).status).toBe(409);
    expect((await put(alice.username, 'twice/one/virtualbox.box', box('c'), as(alice))).status).toBe(400);
    expect((await put(alice.username, 'twice/1.0.0/virtualbox', box('d'), as(alice))).status).toBe(400);
    expect((await put(alice.username, 'ro/1.0.0/virtualbox.box', box('e'), { token: readToken })).status).toBe(401);
    expect(blobFileCount(s)).toBe(blobs);
    expect(await versionsOf(s, alice.id, 'vagrant')).not.toContain('ro@1.0.0');
  });

  it('a private organization\'s boxes are 401 to anonymous callers', async () => {
    await createOrg(s, alice, 'vagrant-private', { visibility: 'private' });
    expect((await put('vagrant-private', 'secret/1.0.0/virtualbox.box', box('s'), as(alice))).status).toBe(201);
    expect((await s.request('api/packages/vagrant-private/vagrant/secret')).status).toBe(401);
    expect((await s.request('api/packages/vagrant-private/vagrant/secret', { auth: as(alice) })).status).toBe(200);
  });
});
