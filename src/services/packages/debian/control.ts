import { BadRequestError } from '../../../lib/errors';
import { decompress, MAX_METADATA_BYTES, sniffCompression, type Compression } from '../archive/decompress';
import { listArMembers, readArMember } from '../archive/ar';
import { readTarMembers } from '../archive/tar';

// A .deb's control file (Gitea's modules/packages/debian): the `control` member of the
// control.tar(.gz|.xz|.zst) inside the ar archive, its fields checked as Gitea checks them.

export type DebianMetadata = { maintainer?: string; project_url?: string; description?: string; dependencies?: string[] };
export type DebianControl = { name: string; version: string; architecture: string; control: string; metadata: DebianMetadata };

const NAME = /^[a-z0-9][a-z0-9+\-.]+$/;
const VERSION = /^(?:[0-9]+:)?[a-zA-Z0-9.+~]+(?:-[a-zA-Z0-9.+\-~]+)?$/;
const ARCH = /^[a-z0-9-]+$/;

/** The fields of a deb822 paragraph (continuation lines joined with newlines). */
export function parseFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let last: string | null = null;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if ((line[0] === ' ' || line[0] === '\t') && last) {
      fields.set(last, `${fields.get(last)}\n${line}`);
      continue;
    }
    const i = line.indexOf(':');
    if (i <= 0) throw new BadRequestError('invalid control file');
    last = line.slice(0, i).trim();
    fields.set(last, line.slice(i + 1).trim());
  }
  return fields;
}

/** Checks and reads a control file's text. */
export function parseControl(text: string): DebianControl {
  const f = parseFields(text);
  const name = f.get('Package') ?? '';
  const version = f.get('Version') ?? '';
  const architecture = f.get('Architecture') ?? '';
  if (!NAME.test(name)) throw new BadRequestError('invalid package name');
  if (!VERSION.test(version)) throw new BadRequestError('invalid package version');
  if (!ARCH.test(architecture)) throw new BadRequestError('invalid package architecture');
  const depends = f.get('Depends');
  const metadata: DebianMetadata = {
    maintainer: f.get('Maintainer'), project_url: f.get('Homepage'), description: f.get('Description'),
    dependencies: depends ? depends.split(',').map((d) => d.trim()).filter(Boolean) : undefined,
  };
  return { name, version, architecture, control: text.replace(/\n+$/, '').replace(/^\n+/, ''), metadata };
}

/** The control file of a .deb stored at `file` (BadRequestError for anything else). */
export async function readDebControl(file: string): Promise<DebianControl> {
  const members = listArMembers(file);
  if (members[0]?.name !== 'debian-binary') throw new BadRequestError('not a debian package');
  const member = members.find((m) => /^control\.tar(\.(gz|xz|zst))?$/.test(m.name));
  if (!member) throw new BadRequestError('control archive not found');
  const raw = readArMember(file, member, MAX_METADATA_BYTES);
  const kind: Compression = member.name === 'control.tar' ? 'none' : sniffCompression(raw);
  const tar = await decompress(raw, kind);
  const found = await readTarMembers(tar, (n) => n === 'control', 1);
  const control = found.get('control');
  if (!control) throw new BadRequestError('control file not found');
  return parseControl(control.toString('utf8'));
}
