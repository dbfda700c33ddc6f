import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_activitypub_person_test.go. Gitea signs the inbox
// delivery with user1's own key on a second listener of the same instance; here the signer is
// a stand-in remote instance on loopback that publishes its actor's key (allowed by
// [federation] allowed_host_list), which is what an inbox meets in practice.

let g: GiteaFixtures;
let remote: http.Server;
let remoteUrl = '';
const key = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });

beforeAll(async () => {
  g = await startGitea({ HEARTH__FEDERATION__ENABLED: 'true', HEARTH__FEDERATION__ALLOWED_HOST_LIST: 'loopback' });
  remote = http.createServer((_req, res) => {
    const id = `${remoteUrl}/api/v1/activitypub/user-id/1`;
    res.setHeader('Content-Type', 'application/activity+json');
    res.end(JSON.stringify({ id, type: 'Person', inbox: `${id}/inbox`, publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: key.publicKey.export({ type: 'spki', format: 'pem' }) } }));
  });
  await new Promise<void>((r) => remote.listen(0, '127.0.0.1', r));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});
afterAll(async () => { await g.stop(); remote.close(); });

/** A POST of an empty body signed with the remote user1's key (Gitea's activitypub client covers these headers). */
function signedPost(path: string): { method: string; headers: Record<string, string>; body: string } {
  const url = new URL(path, g.s.hearth.config.server.root_url);
  const headers: Record<string, string> = { host: url.host, date: new Date().toUTCString(), 'content-type': 'application/activity+json' };
  const covered = '(request-target) host date';
  const lines = covered.split(' ').map((h) => (h === '(request-target)' ? `${h}: post ${url.pathname}` : `${h}: ${headers[h]}`));
  const signature = crypto.sign('sha256', Buffer.from(lines.join('\n')), key.privateKey).toString('base64');
  headers.signature = `keyId="${remoteUrl}/api/v1/activitypub/user-id/1#main-key",algorithm="rsa-sha256",headers="${covered}",signature="${signature}"`;
  return { method: 'POST', headers, body: '' };
}

describe('api_activitypub_person_test', () => {
  it('TestActivityPubPerson', async () => {
    const user2 = await g.user('user2');
    const res = await g.api(`activitypub/user-id/${user2.id}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('@context');
    const person = JSON.parse(text);
    expect(person.type).toBe('Person');
    expect(person.preferredUsername).toBe('user2');
    expect(person.id).toMatch(new RegExp(`activitypub/user-id/${user2.id}$`));
    expect(person.outbox).toMatch(new RegExp(`activitypub/user-id/${user2.id}/outbox$`));
    expect(person.inbox).toMatch(new RegExp(`activitypub/user-id/${user2.id}/inbox$`));
    expect(person.publicKey.id).toBe(`${person.id}#main-key`);
    expect(person.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it('TestActivityPubMissingPerson', async () => {
    const res = await g.api('activitypub/user-id/999999999');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('user does not exist');
  });

  it('TestActivityPubPersonInbox', async () => {
    const user2 = await g.user('user2');
    const path = `api/v1/activitypub/user-id/${user2.id}/inbox`;
    expect((await g.s.request(path, signedPost(path))).status).toBe(204);
    // deliberate: Gitea answers an unsigned delivery 500; hearth refuses it as forbidden (403).
    expect((await g.s.request(path, { method: 'POST' })).status).toBe(403);
  });
});
