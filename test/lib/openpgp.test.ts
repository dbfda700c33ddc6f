import { describe, expect, it } from 'vitest';
import { readArmoredKeyRing } from '../../src/lib/openpgp-keyring';
import { dearmor, PgpError, readPackets } from '../../src/lib/openpgp-packets';
import { GINA, GINA_KEY, RITA_KEY } from '../fixtures/gpg-keys';

const armor = (data: Buffer) =>
  `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${data.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PGP PUBLIC KEY BLOCK-----\n`;

describe('OpenPGP public keys', () => {
  it('reads ids, user ids, subkeys and expiry; several keys in one block', () => {
    const [gina] = readArmoredKeyRing(GINA_KEY);
    expect(gina!.primary.keyId).toBe(GINA.keyId);
    expect(gina!.identities.map((i) => [i.uid, i.email])).toEqual([['Gina Test <gina@example.com>', 'gina@example.com']]);
    expect(gina!.subkeys.map((k) => k.key.keyId)).toEqual([GINA.subkeyId]);
    expect(gina!.expires).toBe(0);
    const both = readArmoredKeyRing(armor(Buffer.concat([dearmor(GINA_KEY).data, dearmor(RITA_KEY).data])));
    expect(both.map((e) => e.identities[0]!.email)).toEqual(['gina@example.com', 'rita@example.com']);
  });

  it('checks the armor checksum, and accepts armor without one', () => {
    const { data } = dearmor(GINA_KEY);
    expect(() => dearmor(GINA_KEY.replace(/\n=.{4}\n/, '\n=AAAA\n'))).toThrow('armor checksum mismatch');
    expect(readArmoredKeyRing(armor(data))[0]!.primary.keyId).toBe(GINA.keyId);
  });

  it('refuses a user id its key did not certify', () => {
    const data = Buffer.from(dearmor(GINA_KEY).data);
    const at = data.indexOf('gina@example.com');
    data[at + 1] = 'e'.charCodeAt(0);
    expect(() => readArmoredKeyRing(armor(data))).toThrow('user ID self-signature invalid');
  });

  it('keeps user ids without a self-signature out, and needs at least one', () => {
    const packets = readPackets(dearmor(GINA_KEY).data);
    expect(packets.map((p) => p.tag)).toEqual([6, 13, 2, 14, 2]);
    // Drop the user id's certification: the key is left without identities.
    const { data } = dearmor(GINA_KEY);
    const frame = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([0xc0 | tag, body.length]), body]);
    const stripped = Buffer.concat([0, 1, 3, 4].map((i) => frame(packets[i]!.tag, packets[i]!.body)));
    expect(data.length).toBeGreaterThan(stripped.length);
    expect(() => readArmoredKeyRing(armor(stripped))).toThrow(PgpError);
  });
});
