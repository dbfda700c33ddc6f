import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';
import { GINA, GINA_KEY, RITA, RITA_KEY } from '../fixtures/gpg-keys';

const run = promisify(execFile);

type Creds = { username: string; password: string; id: number };

const iso = (unix: number) => new Date(unix * 1000).toISOString().replace('.000Z', 'Z');

let s: TestServer;
let gina: Creds;
let rita: Creds;
let vic: Creds;

const call = (method: string, p: string, who?: { username: string; password: string }, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, ...(who ? { auth: as(who) } : {}), ...(body === undefined ? {} : { json: body }) });
const addKey = (who: Creds, key: string, signature?: string) =>
  call('POST', 'user/gpg_keys', who, { armored_public_key: key, ...(signature ? { armored_signature: signature } : {}) });
const message = async (res: Response) => (await json(res)).message as string;

beforeAll(async () => {
  s = await startTestServer();
  gina = await createUser(s, 'gina');
  rita = await createUser(s, 'rita');
  vic = await createUser(s, 'vic');
});
afterAll(async () => { await s.stop(); });

describe('GPG keys', () => {
  it('POST /user/gpg_keys records a key whose user id is an activated address of the caller (201)', async () => {
    const res = await addKey(gina, GINA_KEY);
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'GPGKey');
    expect(body).toMatchObject({
      primary_key_id: '', key_id: GINA.keyId, emails: [{ email: 'gina@example.com', verified: true }],
      can_sign: true, can_certify: true, can_encrypt_comms: false, can_encrypt_storage: false, verified: false,
      created_at: iso(GINA.created), expires_at: '0001-01-01T00:00:00Z',
    });
    expect(body.subkeys).toHaveLength(1);
    expect(body.subkeys[0]).toMatchObject({
      primary_key_id: GINA.keyId, key_id: GINA.subkeyId, can_sign: false, can_encrypt_comms: true, can_encrypt_storage: true,
    });
    // Each key's content is its public key packet, base64: a v4 key (tag 6 / 14).
    expect(Buffer.from(body.public_key, 'base64')[0]).toBe(0xc6);
    expect(Buffer.from(body.subkeys[0].public_key, 'base64')[0]).toBe(0xce);
  });

  it('refuses a key id already recorded (422)', async () => {
    const res = await addKey(gina, GINA_KEY);
    expect(res.status).toBe(422);
    expect(await message(res)).toBe('A key with the same id already exists');
  });

  it('answers 404 when none of the key\'s addresses is the caller\'s, naming the token to sign', async () => {
    const res = await addKey(vic, RITA_KEY);
    expect(res.status).toBe(404);
    const token = await (await call('GET', 'user/gpg_key_token', vic)).text();
    expect(await message(res)).toBe(`None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${token}`);
  });

  it('records the expiry of an expiring RSA key', async () => {
    const res = await addKey(rita, RITA_KEY);
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'GPGKey');
    expect(body).toMatchObject({
      key_id: RITA.keyId, created_at: iso(RITA.created), expires_at: iso(RITA.expires), subkeys: [],
      can_sign: true, can_encrypt_comms: true,
    });
  });

  it('refuses what does not parse (422)', async () => {
    const corrupt = GINA_KEY.replace(/=[A-Za-z0-9+/]{4}\n/, '=AAAA\n');
    const tampered = GINA_KEY.replace('mDMEawNiCBYJ', 'mDMEawNiCBYK');
    const secret = GINA_KEY.replaceAll('PUBLIC KEY', 'PRIVATE KEY');
    for (const bad of ['hello', corrupt, tampered, secret, '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----']) {
      const res = await addKey(vic, bad);
      expect(res.status, bad.slice(0, 80)).toBe(422);
      expect(await message(res)).toMatch(/^failed to parse gpg key /);
    }
    expect((await call('POST', 'user/gpg_keys', vic, {})).status).toBe(422);
  });

  it('lists keys (GPGKeyList) for the caller and for anyone by user name', async () => {
    const mine = await call('GET', 'user/gpg_keys', gina);
    expect(mine.headers.get('x-total-count')).toBe('1');
    const list = await json(mine);
    expectShape(list, '[GPGKey]');
    expect(list.map((k: { key_id: string }) => k.key_id)).toEqual([GINA.keyId]);
    const theirs = await json(await call('GET', 'users/gina/gpg_keys'));
    expectShape(theirs, '[GPGKey]');
    expect(theirs[0].subkeys[0].key_id).toBe(GINA.subkeyId);
    expect(await json(await call('GET', 'users/vic/gpg_keys'))).toEqual([]);
    expect((await call('GET', 'users/nobody/gpg_keys')).status).toBe(404);
  });

  it('GET /user/gpg_keys/{id} answers the caller\'s own keys only', async () => {
    const [key] = await json(await call('GET', 'user/gpg_keys', gina));
    const got = await json(await call('GET', `user/gpg_keys/${key.id}`, gina));
    expectShape(got, 'GPGKey');
    expect(got.key_id).toBe(GINA.keyId);
    expect((await call('GET', `user/gpg_keys/${key.id}`, rita)).status).toBe(404);
    expect((await call('GET', `user/gpg_keys/${key.subkeys[0].id}`, gina)).status).toBe(404);
    expect((await call('GET', 'user/gpg_keys/999999', gina)).status).toBe(404);
  });

  it('DELETE /user/gpg_keys/{id} removes the key and its subkeys', async () => {
    const [key] = await json(await call('GET', 'user/gpg_keys', rita));
    expect((await call('DELETE', `user/gpg_keys/${key.id}`, gina)).status).toBe(404);
    expect((await call('DELETE', `user/gpg_keys/${key.id}`, rita)).status).toBe(204);
    expect((await call('DELETE', `user/gpg_keys/${key.id}`, rita)).status).toBe(404);
    const [g] = await json(await call('GET', 'user/gpg_keys', gina));
    expect((await call('DELETE', `user/gpg_keys/${g.id}`, gina)).status).toBe(204);
    const left = await s.hearth.db.selectFrom('gpg_key').select('key_id').where('owner_id', '=', gina.id).execute();
    expect(left).toEqual([]);
  });

  it('GET /user/gpg_key_token answers a token as text; signed-in callers only', async () => {
    const res = await call('GET', 'user/gpg_key_token', vic);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^[0-9a-f]{64}$/);
    expect((await call('GET', 'user/gpg_key_token')).status).toBe(401);
    expect((await call('GET', 'user/gpg_keys')).status).toBe(401);
  });
});

describe('verification with gpg', () => {
  let home = '';
  let hasGpg = false;
  const gpg = (...args: string[]) => run('gpg', ['--homedir', home, '--batch', '--pinentry-mode', 'loopback', '--passphrase', '', ...args]);
  const longId = async (uid: string) => {
    const { stdout } = await gpg('--list-keys', '--with-colons', uid);
    return stdout.split('\n').find((l) => l.startsWith('pub:'))!.split(':')[4]!;
  };
  const sign = async (id: string, text: string) => {
    const file = path.join(home, `msg-${Math.random().toString(36).slice(2)}`);
    fs.writeFileSync(file, text);
    await gpg('-u', id, '--armor', '--output', `${file}.asc`, '--detach-sign', file);
    return fs.readFileSync(`${file}.asc`, 'utf8');
  };
  const tokenOf = async (who: Creds) => (await call('GET', 'user/gpg_key_token', who)).text();

  beforeAll(async () => {
    hasGpg = await run('gpg', ['--version']).then(() => true, () => false);
    if (!hasGpg) return;
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-gpg-'));
    fs.chmodSync(home, 0o700);
    await gpg('--quick-gen-key', 'Vic <vic@elsewhere.example>', 'ed25519', 'sign', 'never');
    await gpg('--quick-gen-key', 'Vic <vic@example.com>', 'nistp256', 'sign', 'never');
  });
  afterAll(async () => {
    if (!home) return;
    await run('gpgconf', ['--homedir', home, '--kill', 'gpg-agent']).catch(() => {});
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('a key without a matching address is added, verified, with the token signed by it', async (ctx) => {
    if (!hasGpg) return ctx.skip();
    const id = await longId('vic@elsewhere.example');
    const { stdout: armored } = await gpg('--armor', '--export', id);
    expect((await addKey(vic, armored)).status).toBe(404);
    const wrong = await addKey(vic, armored, await sign(id, 'not the token\n'));
    expect(wrong.status).toBe(422);
    expect(await message(wrong)).toMatch(/^The provided GPG key, signature and token do not match or token is out of date/);
    const res = await addKey(vic, armored, await sign(id, `${await tokenOf(vic)}\n`));
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'GPGKey');
    expect(body).toMatchObject({ key_id: id, verified: true, emails: [] });
  });

  it('POST /user/gpg_key_verify marks a recorded key verified (201)', async (ctx) => {
    if (!hasGpg) return ctx.skip();
    const id = await longId('vic@example.com');
    const { stdout: armored } = await gpg('--armor', '--export', id);
    const added = await addKey(vic, armored);
    expect(added.status).toBe(201);
    expect((await json(added)).verified).toBe(false);
    const bad = await call('POST', 'user/gpg_key_verify', vic, { key_id: id, armored_signature: await sign(id, 'nope') });
    expect(bad.status).toBe(422);
    const token = await tokenOf(vic);
    expect((await call('POST', 'user/gpg_key_verify', vic, { key_id: 'ABCDEF0123456789', armored_signature: await sign(id, token) })).status).toBe(404);
    expect((await call('POST', 'user/gpg_key_verify', rita, { key_id: id, armored_signature: await sign(id, token) })).status).toBe(404);
    expect((await call('POST', 'user/gpg_key_verify', vic, { key_id: id })).status).toBe(422);
    const res = await call('POST', 'user/gpg_key_verify', vic, { key_id: id, armored_signature: await sign(id, token) });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'GPGKey');
    expect(body).toMatchObject({ key_id: id, verified: true, emails: [{ email: 'vic@example.com', verified: true }] });
  });
});
