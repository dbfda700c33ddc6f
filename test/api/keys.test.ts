import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

const run = promisify(execFile);

type Creds = { username: string; password: string; id: number };
type Key = { pub: string; fingerprint: string };

// Keys made by ssh-keygen when it is installed; these real keys otherwise.
const FIXTURES: Record<string, Key> = {
  ed25519: {
    pub: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2IjboUwRPw9NqSJfDA4O0T2cjb0ceAJAm0AKV3UqOm ed@host',
    fingerprint: 'SHA256:0IFuk1GBFeMhbVmmGuW9nvsygcs0qQRLtt+4Acf2Q9Q',
  },
  ecdsa384: {
    pub: 'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBCY+JO+I3WcEAziclQ4ttb0wp5xo3+S7TEidtb9gXEEor+2fzWOanu6B9w09XxqwOkKKRAr9clTq2YFINEwL6Izgk595p6j3aaEYYjkYHXfwzvjaKvccl09M2OtiCiervw== root@vm',
    fingerprint: 'SHA256:ViyfSotjnsC7jBPPsIZEsBfFlO0eKyEg3tMfhi32kH8',
  },
  rsa2048: {
    pub: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC/frOp3OnZWDETu98qSP0cVDKEjCcovx1qbdbKbQ4ULI/cQEVQovCxbFI/PlwP33SC9y2GN7gJfcfjbsplnmQN3AOHxZuOgvQcv4BJ8zozm+HIoFuRbYgOAemOUqnxR7uohLEdslKXspwQGoSyHgaEJfAWNZl9FoiAr2t0d1vDf/s4zPR95LbMSZ5Higgmkg/0KOeFlQOic6c/vlJ40ZI56vrjLC3Hs4VnEprxxBujZjROnIAgB4NcL6atFLG63oz0y+4SYEtYVB/hW9B9Gz1yU1fL0Dvq534QxIdpCykS5CgUprb7vl1oAkyWSokjPeAQ09NVoTUfBuDXsD9Cw5JN short',
    fingerprint: 'SHA256:d2iTytbpb4vTbnu/yQbkcFjlWG8AkkVa5zc9AnKAXXc',
  },
  rsa3072: {
    pub: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQC4lZcCt3fOtvP330saYgmtkVQjvEU70zzSoVgG6eqZYn3KVduCy1x5hyVLckueyuMnG8BUwfsYcm++ppZ2yqcteU8TTYYkElHQlSOTPN/r4zInAYwMAwsecOOPtFWq20EMC86yVW+WiuN3FwVs3pIBZzmMMBYWJNQGZtELpwjZNxYkIlTjjo9zejH0/SMhTBnPDhzsjRbSa0Gaz8/NDb5AOLy+euJMon9Qso5eUVRwcMTbR/Ygd7okC3V2PH2b9vDbDZMq0YnKVIz9Y1625mU3EBp1dQfwCmohE1mLl7xM5urQ8S/MqRGkLFxIKfiY0pji5+NpzPGSzQ3oOm1YKBYhnupEM6jI5GLN7R3BhCKUwp0iTu+nv2TkP5YrPbte88v7y6IoyPYtZG6Xu/xoJsQRH5+JdeIsS+26Lnvf7Z+KpK6I5JabFGw9MeE9bz4J4iuJIMXzfVgPtI+oXgWGqrm2FuC6OHhOztypj10DW/t7N+iRDvsJdu9XQlmUAB1MLzU= rsa@host',
    fingerprint: 'SHA256:QbiC66eJ5AQ4UbimORQxs7ukjeXA8MA3iNqf6NYmLzg',
  },
  dsa: {
    pub: 'ssh-dss AAAAB3NzaC1kc3MAAACBAPqJs5D/5WFPKwzB47kJFTBjMq/PdqDIgMaemP5VSrVWdP8KOKxKn76lMcqKvOYDC3pgy6A+17NY2JDrCLf5wF8UG39dOO+bQtGc4Ysq8Ks5v6s2rLb9DYpYrhR1pQ/YI1SSwOC64R+wn4j8v7uOPMkFJVdlQ1Eoef7zLka+gebdAAAAFQDBQc4qxvfxpgJ7MnKsKIYcjJFAFwAAAIA88vd3KFCsoerO8vOxQNEXnaoAOSdCWfKKBr14AkzdzxAUUbm1M1QzBJmBPt8BE1qGv2d1ocmCTncuurSYIkN4XPgsdW8OBYm66S/xfAzdFByrx2V1H+5YerzkX8i5Ff/EwiatCOzK7Pjjl0F/s63RVSrvWXBOPcyJKRUVx5+fkgAAAIEAnCHWpREn/ma5tPdpdXVcweBMgaxTuov3sC+I6353qi6N7qrjMrf1Tab/22ODXMcZ7ibTpl/MRp5aExixCq5DDkQzrA0BGQuRwTf20Ce5XEF7DmFFHf/iJETYvj9JlrDqDdRtpt8+GtLPfEQSN//IB1XMZU96GBXOqoswzkKkOcA= root@vm',
    fingerprint: 'SHA256:2j4KEnTYWvGIIvMqIm32isFAVlPKXEpqqX0d5xKMFE0',
  },
};

let keygen = false;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-keys-'));
let counter = 0;

/** A fresh key from ssh-keygen (the fixture when it is missing); `name` picks the fixture. */
async function makeKey(name: string, args: string[], comment: string): Promise<Key> {
  if (!keygen) return FIXTURES[name]!;
  const file = path.join(tmp, `k${counter++}`);
  await run('ssh-keygen', ['-q', ...args, '-N', '', '-C', comment, '-f', file]);
  const pub = fs.readFileSync(`${file}.pub`, 'utf8').trim();
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`]);
  return { pub, fingerprint: stdout.split(' ')[1]! };
}

let s: TestServer;
let kim: Creds;
let lee: Creds;
let ed: Key;

const call = (method: string, p: string, who?: { username: string; password: string }, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, ...(who ? { auth: as(who) } : {}), ...(body === undefined ? {} : { json: body }) });
const addKey = (who: Creds, title: string, key: string) => call('POST', 'user/keys', who, { title, key });
const message = async (res: Response) => (await json(res)).message as string;

beforeAll(async () => {
  keygen = await run('ssh-keygen', ['-?']).then(() => true, (err: { code?: unknown }) => err.code !== 'ENOENT');
  s = await startTestServer();
  kim = await createUser(s, 'kim');
  lee = await createUser(s, 'lee');
  ed = await makeKey('ed25519', ['-t', 'ed25519'], 'kim@laptop');
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('SSH public keys', () => {
  it('POST /user/keys adds an ed25519 key (201) with its SHA256 fingerprint', async () => {
    const res = await addKey(kim, 'laptop', `  ${ed.pub}\n`);
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'PublicKey');
    expect(body).toMatchObject({ title: 'laptop', key: ed.pub, fingerprint: ed.fingerprint, key_type: 'user' });
    expect(body.user.login).toBe('kim');
    expect(body.url).toBe(`${s.hearth.config.server.root_url}api/v1/user/keys/${body.id}`);
    expect(body).not.toHaveProperty('read_only');
  });

  it('lists keys: private details for the owner only; the fingerprint filter', async () => {
    const mine = await call('GET', 'user/keys', kim);
    expect(mine.headers.get('x-total-count')).toBe('1');
    const list = await json(mine);
    expectShape(list, '[PublicKey]');
    expect(list[0].user.login).toBe('kim');
    const theirs = await json(await call('GET', 'users/kim/keys'));
    expectShape(theirs, '[PublicKey]');
    expect(theirs[0].fingerprint).toBe(ed.fingerprint);
    expect(theirs[0]).not.toHaveProperty('user');
    expect(theirs[0]).not.toHaveProperty('key_type');
    expect(await json(await call('GET', `users/kim/keys?fingerprint=${encodeURIComponent(ed.fingerprint)}`))).toHaveLength(1);
    expect(await json(await call('GET', 'users/kim/keys?fingerprint=SHA256:nope'))).toEqual([]);
    expect(await json(await call('GET', `users/lee/keys?fingerprint=${encodeURIComponent(ed.fingerprint)}`))).toEqual([]);
    // As Gitea, the caller's own list searched by fingerprint looks at every user's keys.
    const found = await json(await call('GET', `user/keys?fingerprint=${encodeURIComponent(ed.fingerprint)}`, lee));
    expect(found.map((k: { title: string }) => k.title)).toEqual(['laptop']);
  });

  it('GET /user/keys/{id}: 200 for a key, 404 for none', async () => {
    const [key] = await json(await call('GET', 'user/keys', kim));
    const own = await json(await call('GET', `user/keys/${key.id}`, kim));
    expectShape(own, 'PublicKey');
    expect(own.user.login).toBe('kim');
    const seen = await json(await call('GET', `user/keys/${key.id}`, lee));
    expect(seen).not.toHaveProperty('user');
    expect((await call('GET', 'user/keys/999999', kim)).status).toBe(404);
    expect((await call('GET', 'user/keys/abc', kim)).status).toBe(404);
  });

  it('refuses a key already in use, by anyone, and a title used twice (422)', async () => {
    const again = await addKey(lee, 'mine-now', ed.pub);
    expect(again.status).toBe(422);
    expect(await message(again)).toBe('Key content has been used as non-deploy key');
    const ec = await makeKey('ecdsa384', ['-t', 'ecdsa', '-b', '384'], 'ec');
    const sameTitle = await addKey(kim, 'laptop', ec.pub);
    expect(sameTitle.status).toBe(422);
    expect(await message(sameTitle)).toBe('Key title has been used');
    const ok = await addKey(kim, 'desk', ec.pub);
    expect(ok.status).toBe(201);
    expect((await json(ok)).fingerprint).toBe(ec.fingerprint);
  });

  it('checks types and sizes as Gitea: RSA needs 3071 bits, DSA is refused', async () => {
    const short = await addKey(kim, 'short', (await makeKey('rsa2048', ['-t', 'rsa', '-b', '2048'], 'short')).pub);
    expect(short.status).toBe(422);
    expect(await message(short)).toBe('Invalid key content: key length is not enough: got 2048, needs 3071');
    const rsa = await makeKey('rsa3072', ['-t', 'rsa', '-b', '3072'], 'rsa');
    const long = await addKey(kim, 'rsa', rsa.pub);
    expect(long.status).toBe(201);
    expect((await json(long)).fingerprint).toBe(rsa.fingerprint);
    const dsa = await addKey(kim, 'dsa', FIXTURES.dsa!.pub);
    expect(dsa.status).toBe(422);
    expect(await message(dsa)).toBe('Invalid key content: key type is not allowed: dsa');
  });

  it('refuses malformed keys and a type that does not match the key (422)', async () => {
    const blob = ed.pub.split(' ')[1]!;
    const mismatch = await addKey(kim, 'x', `ssh-rsa ${blob}`);
    expect(mismatch.status).toBe(422);
    expect(await message(mismatch)).toBe('Invalid key content: key type and content does not match: ssh-rsa - ssh-ed25519');
    for (const bad of ['ssh-ed25519 not-base64!!', 'ssh-ed25519 AAAA', `ssh-ed25519 ${blob.slice(0, -8)}`, 'hello']) {
      expect((await addKey(kim, 'bad', bad)).status, bad).toBe(422);
    }
    expect((await call('POST', 'user/keys', kim, { key: ed.pub })).status).toBe(422);
    expect((await call('POST', 'user/keys', kim, { title: 'no key' })).status).toBe(422);
  });

  it('accepts the RFC 4716 (SSH2) form and stores it as one line', async () => {
    const key = await makeKey('ed25519', ['-t', 'ed25519'], 'ssh2');
    const blob = key.pub.split(' ')[1]!;
    const ssh2 = `---- BEGIN SSH2 PUBLIC KEY ----\nComment: "converted key"\n${blob.slice(0, 40)}\n${blob.slice(40)}\n---- END SSH2 PUBLIC KEY ----\n`;
    const res = await addKey(lee, 'ssh2', ssh2);
    if (!keygen) {
      expect(res.status).toBe(422); // the fixture is kim's already
      return;
    }
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ key: `ssh-ed25519 ${blob} converted key`, fingerprint: key.fingerprint });
  });

  it('DELETE /user/keys/{id}: 403 for another user\'s key, 204 for one\'s own, then 404', async () => {
    const [key] = await json(await call('GET', 'user/keys', kim));
    const denied = await call('DELETE', `user/keys/${key.id}`, lee);
    expect(denied.status).toBe(403);
    expect(await message(denied)).toBe('You do not have access to this key');
    expect((await call('DELETE', `user/keys/${key.id}`, kim)).status).toBe(204);
    expect((await call('DELETE', `user/keys/${key.id}`, kim)).status).toBe(404);
    expect((await call('GET', `user/keys/${key.id}`, kim)).status).toBe(404);
  });

  it('admins add and delete keys on behalf of a user', async () => {
    const key = await makeKey('ed25519', ['-t', 'ed25519'], 'by-admin');
    const res = await call('POST', 'admin/users/lee/keys', s.admin, { title: 'from admin', key: key.pub });
    if (!keygen) return; // the fixture is taken: nothing new to add
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'PublicKey');
    expect(body.user.login).toBe('lee');
    expect((await call('POST', 'admin/users/lee/keys', kim, { title: 't', key: key.pub })).status).toBe(403);
    // The check is made as the named user: kim may not delete lee's key.
    expect((await call('DELETE', `admin/users/kim/keys/${body.id}`, s.admin)).status).toBe(403);
    expect((await call('DELETE', `admin/users/lee/keys/${body.id}`, kim)).status).toBe(403);
    expect((await call('DELETE', `admin/users/lee/keys/${body.id}`, s.admin)).status).toBe(204);
    expect((await call('DELETE', `admin/users/lee/keys/${body.id}`, s.admin)).status).toBe(404);
    expect((await call('POST', 'admin/users/nobody/keys', s.admin, { title: 't', key: key.pub })).status).toBe(404);
  });

  it('needs a signed-in caller and the user scope', async () => {
    expect((await call('GET', 'user/keys')).status).toBe(401);
    expect((await call('POST', 'user/keys', undefined, { title: 't', key: ed.pub })).status).toBe(401);
    const read = await createToken(s, lee, ['read:user']);
    expect((await s.request('api/v1/user/keys', { auth: { token: read } })).status).toBe(200);
    const denied = await s.request('api/v1/user/keys', { method: 'POST', auth: { token: read }, json: { title: 't', key: ed.pub } });
    expect(denied.status).toBe(403);
    const repoOnly = await createToken(s, lee, ['read:repository']);
    expect((await s.request('api/v1/user/keys', { auth: { token: repoOnly } })).status).toBe(403);
  });
});
