import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// Federation, served by default: nodeinfo, each user's ActivityPub actor, and inboxes that take
// only requests signed (HTTP signatures) by a key their actor document publishes.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let remote: http.Server;
let remoteUrl: string;
const remoteKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });

beforeAll(async () => {
  s = await startTestServer({ HEARTH__FEDERATION__ALLOWED_HOST_LIST: 'loopback' });
  alice = await createUser(s, 'alice', { full_name: 'Alice A.' });
  // A remote actor that publishes its key, as Mastodon or another Gitea would.
  remote = http.createServer((req, res) => {
    const id = `${remoteUrl}/actor`;
    res.setHeader('Content-Type', 'application/activity+json');
    res.end(JSON.stringify({
      id, type: 'Person', inbox: `${id}/inbox`,
      publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: remoteKey.publicKey.export({ type: 'spki', format: 'pem' }) },
    }));
  });
  await new Promise<void>((r) => remote.listen(0, '127.0.0.1', r));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await s?.stop();
  remote?.close();
});

/** Signs a POST as draft-cavage describes: (request-target), host, date and the body's digest. */
function signed(path: string, body: string, key = remoteKey.privateKey, keyId = `${remoteUrl}/actor#main-key`, covered = '(request-target) host date digest') {
  const url = new URL(path, s.hearth.config.server.root_url);
  const headers: Record<string, string> = {
    host: url.host, date: new Date().toUTCString(),
    digest: `SHA-256=${crypto.createHash('sha256').update(body).digest('base64')}`,
    'content-type': 'application/activity+json',
  };
  const lines = covered.split(' ').map((h) => (h === '(request-target)' ? `${h}: post ${url.pathname}` : `${h}: ${headers[h]}`));
  const signature = crypto.sign('sha256', Buffer.from(lines.join('\n')), key).toString('base64');
  headers.signature = `keyId="${keyId}",algorithm="rsa-sha256",headers="${covered}",signature="${signature}"`;
  return { method: 'POST', headers, body };
}

const follow = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Follow', actor: 'x', object: 'y' });

describe('nodeinfo', () => {
  it('describes the instance as Gitea does, and /.well-known/nodeinfo points at it', async () => {
    const res = await s.request('api/v1/nodeinfo');
    expect(res.status).toBe(200);
    const info = await json(res);
    expectShape(info, 'NodeInfo');
    expect(info).toMatchObject({ version: '2.1', protocols: ['activitypub'], software: { name: 'gitea' } });
    expect(info.usage.users.total).toBeGreaterThanOrEqual(2);
    const wk = await json(await s.request('.well-known/nodeinfo'));
    expect(wk.links[0]).toEqual({ href: `${s.hearth.config.server.root_url}api/v1/nodeinfo`, rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1' });
  });
});

describe('actors', () => {
  it('a user is a Person with a stable public key; organizations and unknown ids are 404', async () => {
    const res = await s.request(`api/v1/activitypub/user-id/${alice.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/activity+json');
    const person = await json(res);
    const link = `${s.hearth.config.server.root_url}api/v1/activitypub/user-id/${alice.id}`;
    expect(person).toMatchObject({ id: link, type: 'Person', preferredUsername: 'alice', name: 'Alice A.', inbox: `${link}/inbox` });
    expect(person.publicKey.id).toBe(`${link}#main-key`);
    expect(crypto.createPublicKey(person.publicKey.publicKeyPem).asymmetricKeyType).toBe('rsa');
    const again = await json(await s.request(`api/v1/activitypub/user-id/${alice.id}`));
    expect(again.publicKey.publicKeyPem).toBe(person.publicKey.publicKeyPem);
    const org = await createOrg(s, alice, 'guild');
    expect((await s.request(`api/v1/activitypub/user-id/${org.id}`)).status).toBe(404);
    expect((await s.request('api/v1/activitypub/user-id/99999')).status).toBe(404);
  });
});

describe('inbox', () => {
  const inbox = () => `api/v1/activitypub/user-id/${alice.id}/inbox`;

  it('accepts an activity signed by the key its actor publishes (204)', async () => {
    const res = await s.request(inbox(), signed(`/api/v1/activitypub/user-id/${alice.id}/inbox`, follow));
    expect(res.status, await res.clone().text()).toBe(204);
  });

  it('refuses unsigned, tampered, wrongly keyed or partly covered requests (403)', async () => {
    const p = `/api/v1/activitypub/user-id/${alice.id}/inbox`;
    const unsigned = await s.request(inbox(), { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: follow });
    expect(unsigned.status).toBe(403);
    expect((await json(unsigned)).message).toContain('no Signature header');
    const tampered = signed(p, follow);
    const t = await s.request(inbox(), { ...tampered, body: follow.replace('Follow', 'Delete') });
    expect(t.status).toBe(403);
    expect((await json(t)).message).toContain('Digest');
    const wrongKey = await s.request(inbox(), signed(p, follow, otherKey.privateKey));
    expect(wrongKey.status).toBe(403);
    expect((await json(wrongKey)).message).toContain('does not match');
    const noTarget = await s.request(inbox(), signed(p, follow, remoteKey.privateKey, undefined, 'host date digest'));
    expect(noTarget.status).toBe(403);
    const otherPath = await s.request(`api/v1/activitypub/user-id/1/inbox`, signed(p, follow));
    expect(otherPath.status).toBe(403);
  });

  it('fetches signer keys only from allowed hosts', async () => {
    const strict = await startTestServer();
    try {
      const bob = await createUser(strict, 'bob');
      const p = `/api/v1/activitypub/user-id/${bob.id}/inbox`;
      const url = new URL(p, strict.hearth.config.server.root_url);
      const headers: Record<string, string> = { host: url.host, date: new Date().toUTCString(), digest: `SHA-256=${crypto.createHash('sha256').update(follow).digest('base64')}` };
      const lines = ['(request-target)', 'host', 'date', 'digest'].map((h) => (h === '(request-target)' ? `${h}: post ${p}` : `${h}: ${headers[h]}`));
      headers.signature = `keyId="${remoteUrl}/actor#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${crypto.sign('sha256', Buffer.from(lines.join('\n')), remoteKey.privateKey).toString('base64')}"`;
      const res = await strict.request(p.slice(1), { method: 'POST', headers, body: follow });
      expect(res.status).toBe(403);
      expect((await json(res)).message).toContain('allowed_host_list');
    } finally {
      await strict.stop();
    }
  }, 60_000);
});

describe('[federation] enabled = false', () => {
  it('serves none of it', async () => {
    const off = await startTestServer({ HEARTH__FEDERATION__ENABLED: 'false' });
    try {
      expect((await off.request('api/v1/nodeinfo')).status).toBe(404);
      expect((await off.request('.well-known/nodeinfo')).status).toBe(404);
      expect((await off.request('api/v1/activitypub/user-id/1')).status).toBe(404);
    } finally {
      await off.stop();
    }
  }, 60_000);
});
