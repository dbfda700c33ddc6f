import fs from 'node:fs';
import { BadRequestError } from '../../../lib/errors';

// The `ar` archive a .deb is: an 8-byte magic, then members with 60-byte headers, each member's
// data padded to an even offset. Read from the stored file, member by member, never whole.

const MAGIC = '!<arch>\n';

export type ArMember = { name: string; offset: number; size: number };

/** The members of an ar file on disk (names without the GNU trailing slash). */
export function listArMembers(file: string): ArMember[] {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(60);
    if (fs.readSync(fd, head, 0, 8, 0) !== 8 || head.subarray(0, 8).toString('latin1') !== MAGIC) throw new BadRequestError('not an ar archive');
    const members: ArMember[] = [];
    let pos = 8;
    while (pos + 60 <= size && members.length < 64) {
      fs.readSync(fd, head, 0, 60, pos);
      if (head.subarray(58, 60).toString('latin1') !== '`\n') throw new BadRequestError('broken ar archive');
      const name = head.subarray(0, 16).toString('latin1').trim().replace(/\/$/, '');
      const len = Number(head.subarray(48, 58).toString('latin1').trim());
      if (!Number.isSafeInteger(len) || len < 0 || pos + 60 + len > size) throw new BadRequestError('broken ar archive');
      members.push({ name, offset: pos + 60, size: len });
      pos += 60 + len + (len % 2);
    }
    return members;
  } finally {
    fs.closeSync(fd);
  }
}

/** A member's bytes (members read this way are small: metadata, capped by the caller). */
export function readArMember(file: string, m: ArMember, max: number): Buffer {
  if (m.size > max) throw new BadRequestError('archive member too large');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(m.size);
    fs.readSync(fd, buf, 0, m.size, m.offset);
    return buf;
  } finally {
    fs.closeSync(fd);
  }
}
