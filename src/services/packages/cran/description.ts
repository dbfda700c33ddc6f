import fs from 'node:fs';
import zlib from 'node:zlib';
import { BadRequestError } from '../../../lib/errors';
import { readTarMembers } from '../archive/tar';
import { readZipMembers } from '../archive/zip';

// An R package's DESCRIPTION (Gitea's modules/packages/cran): the DCF file at `{name}/DESCRIPTION`
// of a source .tar.gz or a binary (.zip for Windows, .tgz for macOS).

export type CranMetadata = {
  title?: string; description?: string; project_url?: string[]; license?: string; authors?: string[];
  depends?: string[]; imports?: string[]; suggests?: string[]; linking_to?: string[]; needs_compilation: boolean;
};
export type CranPackage = { name: string; version: string; metadata: CranMetadata; fields: Map<string, string> };

const NAME = /^[a-zA-Z][a-zA-Z0-9.]*[a-zA-Z0-9]$/;
const VERSION = /^[0-9]+(?:[.-][0-9]+){1,3}$/;
const DESCRIPTION = /^[^/]+\/DESCRIPTION$/;

/** DCF fields; continuation lines joined with a space (R's read.dcf). */
export function parseDcf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let last: string | null = null;
  for (const line of text.replace(/\r/g, '').split('\n')) {
    if (!line.trim()) continue;
    if (/^\s/.test(line) && last) { out.set(last, `${out.get(last)} ${line.trim()}`); continue; }
    const i = line.indexOf(':');
    if (i <= 0) continue;
    last = line.slice(0, i).trim();
    out.set(last, line.slice(i + 1).trim());
  }
  return out;
}

const list = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : undefined);

export function parseDescription(text: string): CranPackage {
  const f = parseDcf(text);
  const name = f.get('Package') ?? '';
  const version = f.get('Version') ?? '';
  if (!NAME.test(name)) throw new BadRequestError('invalid package name');
  if (!VERSION.test(version)) throw new BadRequestError('invalid package version');
  return {
    name, version, fields: f,
    metadata: {
      title: f.get('Title'), description: f.get('Description'), project_url: list(f.get('URL')), license: f.get('License'),
      authors: f.get('Author') ? [f.get('Author')!] : undefined, depends: list(f.get('Depends')), imports: list(f.get('Imports')),
      suggests: list(f.get('Suggests')), linking_to: list(f.get('LinkingTo')), needs_compilation: f.get('NeedsCompilation') === 'yes',
    },
  };
}

/** The DESCRIPTION of a package stored at `file` (a .tar.gz, or a zip). */
export async function readCranPackage(file: string, zip: boolean): Promise<CranPackage> {
  const members = zip
    ? await readZipMembers(file, (n) => DESCRIPTION.test(n))
    : await readTarMembers(fs.createReadStream(file).pipe(zlib.createGunzip()), (n) => DESCRIPTION.test(n), 1);
  const found = [...members.values()][0];
  if (!found) throw new BadRequestError('DESCRIPTION file not found');
  return parseDescription(found.toString('utf8'));
}
