import crypto from 'node:crypto';

// A small reader for OpenPGP (RFC 4880 / 9580) public keys and signatures: ASCII armor with its
// CRC-24, packet framing, v4 public key and signature packets. Enough to record GPG keys as
// Gitea does; secret keys, compression and encryption are out of scope.

export class PgpError extends Error {}

export const TAG = { signature: 2, secretKey: 5, publicKey: 6, secretSubkey: 7, userId: 13, publicSubkey: 14, userAttribute: 17 } as const;

function crc24(data: Buffer): number {
  let crc = 0xb704ce;
  for (const byte of data) {
    crc ^= byte << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

/** The first armored block: its kind (`PGP PUBLIC KEY BLOCK`, `PGP SIGNATURE`) and bytes, checksum checked. */
export function dearmor(text: string): { kind: string; data: Buffer } {
  const lines = text.replace(/\r/g, '').split('\n').map((l) => l.trim());
  const start = lines.findIndex((l) => /^-----BEGIN PGP [A-Z ,/0-9]+-----$/.test(l));
  if (start < 0) throw new PgpError('no armored data found');
  const kind = lines[start]!.slice(11, -5);
  const end = lines.indexOf(`-----END ${kind}-----`, start + 1);
  if (end < 0) throw new PgpError('armor end not found');
  let i = start + 1;
  // Armor headers (Version:, Comment:) end at the first blank line.
  if (lines.slice(i, end).some((l) => l === '')) while (i < end && lines[i] !== '') i++;
  const body: string[] = [];
  let checksum: string | undefined;
  for (const l of lines.slice(i, end)) {
    if (!l) continue;
    if (/^=[A-Za-z0-9+/]{4}$/.test(l)) checksum = l.slice(1);
    else body.push(l);
  }
  const b64 = body.join('');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw new PgpError('invalid armor data');
  const data = Buffer.from(b64, 'base64');
  if (!data.length) throw new PgpError('empty armored data');
  if (checksum !== undefined && Buffer.from(checksum, 'base64').readUIntBE(0, 3) !== crc24(data)) {
    throw new PgpError('armor checksum mismatch');
  }
  return { kind, data };
}

export type Packet = { tag: number; body: Buffer };

function need(data: Buffer, end: number): void {
  if (end > data.length) throw new PgpError('packet truncated');
}

/** New-format body length at `i`: [length, next offset, partial?]. */
function newLength(data: Buffer, i: number): [number, number, boolean] {
  need(data, i + 1);
  const o1 = data[i]!;
  if (o1 < 192) return [o1, i + 1, false];
  if (o1 < 224) { need(data, i + 2); return [((o1 - 192) << 8) + data[i + 1]! + 192, i + 2, false]; }
  if (o1 === 255) { need(data, i + 5); return [data.readUInt32BE(i + 1), i + 5, false]; }
  return [1 << (o1 & 0x1f), i + 1, true];
}

export function readPackets(data: Buffer): Packet[] {
  const out: Packet[] = [];
  let i = 0;
  while (i < data.length) {
    const hdr = data[i++]!;
    if (!(hdr & 0x80)) throw new PgpError('tag byte does not have MSB set');
    if (hdr & 0x40) {
      const chunks: Buffer[] = [];
      for (;;) {
        const [len, at, partial] = newLength(data, i);
        need(data, at + len);
        chunks.push(data.subarray(at, at + len));
        i = at + len;
        if (!partial) break;
      }
      out.push({ tag: hdr & 0x3f, body: Buffer.concat(chunks) });
      continue;
    }
    const lenType = hdr & 3;
    const size = [1, 2, 4, 0][lenType]!;
    need(data, i + size);
    const len = lenType === 3 ? data.length - i : data.readUIntBE(i, size);
    i += size;
    need(data, i + len);
    out.push({ tag: (hdr >> 2) & 0xf, body: data.subarray(i, i + len) });
    i += len;
  }
  return out;
}

/** Re-frames a packet body with a new-format header (how Gitea stores each key's content). */
export function framePacket(tag: number, body: Buffer): Buffer {
  const n = body.length;
  let len: Buffer;
  if (n < 192) len = Buffer.from([n]);
  else if (n < 8384) len = Buffer.from([((n - 192) >> 8) + 192, (n - 192) & 0xff]);
  else { len = Buffer.alloc(5); len[0] = 255; len.writeUInt32BE(n, 1); }
  return Buffer.concat([Buffer.from([0xc0 | tag]), len, body]);
}

/** Reads `count` MPIs from `buf` at `at`; returns them (without their bit counts) and the next offset. */
export function readMpis(buf: Buffer, at: number, count: number): [Buffer[], number] {
  const out: Buffer[] = [];
  for (let k = 0; k < count; k++) {
    need(buf, at + 2);
    const bytes = (buf.readUInt16BE(at) + 7) >> 3;
    need(buf, at + 2 + bytes);
    out.push(buf.subarray(at + 2, at + 2 + bytes));
    at += 2 + bytes;
  }
  return [out, at];
}

export type PgpPublicKey = {
  /** The packet body, as hashed into fingerprints and signatures. */
  body: Buffer;
  created: number;
  algo: number;
  /** Algorithm-specific material after the algorithm octet. */
  material: Buffer;
  /** 16 upper-case hex digits: the low 64 bits of the v4 fingerprint. */
  keyId: string;
};

export function parsePublicKey(body: Buffer): PgpPublicKey {
  if (body.length < 6) throw new PgpError('public key packet too short');
  if (body[0] !== 4) throw new PgpError(`unsupported public key version ${body[0]}`);
  const prefix = Buffer.alloc(3);
  prefix[0] = 0x99;
  prefix.writeUInt16BE(body.length, 1);
  const fingerprint = crypto.createHash('sha1').update(prefix).update(body).digest();
  return {
    body, created: body.readUInt32BE(1), algo: body[5]!, material: body.subarray(6),
    keyId: fingerprint.subarray(12).toString('hex').toUpperCase(),
  };
}

export type Subpacket = { type: number; data: Buffer };

export type PgpSignature = {
  version: number;
  type: number;
  algo: number;
  hashAlgo: number;
  /** Version through the hashed subpackets: the part the signature covers. */
  hashedPart: Buffer;
  subpackets: Subpacket[];
  left16: Buffer;
  /** The algorithm-specific signature after the two quick-check octets. */
  value: Buffer;
  issuer?: string;
  created?: number;
  keyLifetime?: number;
  primaryUserId: boolean;
};

function readSubpackets(area: Buffer): Subpacket[] {
  const out: Subpacket[] = [];
  let i = 0;
  while (i < area.length) {
    const [len, at] = newLength(area, i);
    need(area, at + len);
    if (len < 1) throw new PgpError('empty subpacket');
    out.push({ type: area[at]! & 0x7f, data: area.subarray(at + 1, at + len) });
    i = at + len;
  }
  return out;
}

export function parseSignature(body: Buffer): PgpSignature {
  if (body[0] !== 4) throw new PgpError(`unsupported signature version ${body[0]}`);
  need(body, 6);
  const hashedLen = body.readUInt16BE(4);
  need(body, 8 + hashedLen);
  const hashed = readSubpackets(body.subarray(6, 6 + hashedLen));
  const unhashedLen = body.readUInt16BE(6 + hashedLen);
  const at = 8 + hashedLen + unhashedLen;
  need(body, at + 2);
  const unhashed = readSubpackets(body.subarray(8 + hashedLen, at));
  const find = (list: Subpacket[], t: number) => list.find((s) => s.type === t)?.data;
  // Issuer: the key id subpacket, else the low 64 bits of the issuer fingerprint (v4: 20 octets).
  const issuerFpr = find(hashed, 33) ?? find(unhashed, 33);
  const issuerId = find(hashed, 16) ?? find(unhashed, 16) ?? issuerFpr?.subarray(-8);
  const u32 = (b: Buffer | undefined) => (b && b.length >= 4 ? b.readUInt32BE(0) : undefined);
  return {
    version: 4, type: body[1]!, algo: body[2]!, hashAlgo: body[3]!,
    hashedPart: body.subarray(0, 6 + hashedLen), subpackets: hashed,
    left16: body.subarray(at, at + 2), value: body.subarray(at + 2),
    issuer: issuerId?.length === 8 ? issuerId.toString('hex').toUpperCase() : undefined,
    created: u32(find(hashed, 2)), keyLifetime: u32(find(hashed, 9)),
    primaryUserId: (find(hashed, 25)?.[0] ?? 0) !== 0,
  };
}
