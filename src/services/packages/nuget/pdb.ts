import { BadRequestError } from '../../../lib/errors';

// A portable PDB's id (Gitea's modules/packages/nuget/symbol_extractor): the first 20 bytes of
// the metadata's `#Pdb` stream, a GUID and a stamp. Symbol servers name a file by the GUID (its
// first three fields little-endian) followed by the age, always FFFFFFFF for portable PDBs.

export function portablePdbId(pdb: Buffer): string {
  if (pdb.length < 32 || pdb.readUInt32LE(0) !== 0x424a5342) throw new BadRequestError('not a portable pdb file');
  const versionLength = pdb.readUInt32LE(12);
  let pos = 16 + versionLength + 2;
  const streams = pdb.readUInt16LE(pos);
  pos += 2;
  for (let i = 0; i < streams && pos + 8 < pdb.length; i++) {
    const offset = pdb.readUInt32LE(pos);
    const end = pdb.indexOf(0, pos + 8);
    const name = pdb.toString('latin1', pos + 8, end);
    pos = (end + 4) & ~3;
    if (name === '#Pdb') {
      const id = pdb.subarray(offset, offset + 16);
      if (id.length < 16) break;
      const guid = Buffer.concat([Buffer.from(id.subarray(0, 4)).reverse(), Buffer.from(id.subarray(4, 6)).reverse(), Buffer.from(id.subarray(6, 8)).reverse(), id.subarray(8, 16)]);
      return `${guid.toString('hex')}ffffffff`;
    }
  }
  throw new BadRequestError('pdb id not found');
}
