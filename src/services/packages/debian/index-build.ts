import crypto from 'node:crypto';
import type { User } from '../../../db/schema';
import { indexedFiles, type IndexedFile } from '../../../models/package-index';
import type { IndexDeps } from '../repo-index/jobs';
import { gzip, xz } from '../repo-index/compress';
import type { IndexFileInput } from '../repo-index/store';
import { ownerPgpSigner } from '../signing/owner-keys';
import { DEBIAN, debFileName } from './upload';

// A distribution's apt index (Gitea's services/packages/debian BuildSpecificRepositoryFiles, for
// the whole distribution at once): Packages(.gz/.xz) per component and architecture, then
// Release listing their hashes, signed twice (InRelease inline, Release.gpg detached) with the
// owner's key. Architecture `all` packages are listed in every architecture's index too, as
// Debian's archive does (No-Support-for-Architecture-all).

const hash = (alg: string, data: Buffer) => crypto.createHash(alg).update(data).digest('hex');

function packagesEntry(f: IndexedFile, distribution: string, component: string): string {
  const arch = f.props['debian.architecture'] ?? '';
  const filename = `pool/${distribution}/${component}/${debFileName(f.packageName, f.version, arch)}`;
  const b = f.blob;
  return `${f.props['debian.control'] ?? ''}\nFilename: ${filename}\nSize: ${b.size}\nMD5sum: ${b.hash_md5}\nSHA1: ${b.hash_sha1}\nSHA256: ${b.hash_sha256}\nSHA512: ${b.hash_sha512}\n\n`;
}

/** The Packages text of each `component/arch`. */
function packagesTexts(files: IndexedFile[], distribution: string): Map<string, string> {
  const archs = new Set(files.map((f) => f.props['debian.architecture'] ?? '').filter((a) => a && a !== 'all'));
  const out = new Map<string, string>();
  const add = (key: string, text: string) => out.set(key, (out.get(key) ?? '') + text);
  for (const f of files) {
    const component = f.props['debian.component'] ?? '';
    const arch = f.props['debian.architecture'] ?? '';
    const entry = packagesEntry(f, distribution, component);
    add(`${component}/${arch}`, entry);
    if (arch === 'all') for (const a of archs) add(`${component}/${a}`, entry);
  }
  return out;
}

function releaseText(distribution: string, owner: User, files: IndexFileInput[], keys: string[]): string {
  const components = [...new Set(keys.map((k) => k.split('/')[0]!))].sort();
  const archs = [...new Set(keys.map((k) => k.split('/')[1]!))].sort();
  const lines = [
    `Origin: ${owner.name}`, `Label: ${owner.name}`, `Suite: ${distribution}`, `Codename: ${distribution}`,
    `Date: ${new Date().toUTCString().replace('GMT', 'UTC')}`, `Architectures: ${archs.join(' ')}`, `Components: ${components.join(' ')}`,
    'Acquire-By-Hash: yes',
  ];
  if (archs.includes('all')) lines.push('No-Support-for-Architecture-all: Packages');
  for (const [title, alg] of [['MD5Sum', 'md5'], ['SHA1', 'sha1'], ['SHA256', 'sha256'], ['SHA512', 'sha512']] as const) {
    lines.push(`${title}:`);
    for (const f of files) lines.push(` ${hash(alg, f.data)} ${String(f.data.length).padStart(8)} ${f.path}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A distribution's index files; none when it has no packages (its index is dropped). */
export async function buildDebianIndex(deps: IndexDeps, owner: User, distribution: string): Promise<IndexFileInput[]> {
  const files = await indexedFiles(deps.db, owner.id, DEBIAN, { name: 'debian.distribution', value: distribution });
  if (!files.length) return [];
  const texts = packagesTexts(files, distribution);
  const keys = [...texts.keys()].sort();
  const indexFiles: IndexFileInput[] = [];
  for (const key of keys) {
    const [component, arch] = key.split('/');
    const dir = `${component}/binary-${arch}`;
    const plain = Buffer.from(texts.get(key)!, 'utf8');
    indexFiles.push({ path: `${dir}/Packages`, data: plain }, { path: `${dir}/Packages.gz`, data: gzip(plain) });
    const compressed = await xz(plain);
    if (compressed) indexFiles.push({ path: `${dir}/Packages.xz`, data: compressed });
  }
  const release = releaseText(distribution, owner, indexFiles, keys);
  const signer = await ownerPgpSigner(deps, owner, 'Debian package registry');
  const inRelease = await signer.signCleartext(release);
  const releaseGpg = (await signer.signDetached(Buffer.from(release), 'armored')) as string;
  return [
    ...indexFiles,
    { path: 'Release', data: Buffer.from(release) },
    { path: 'InRelease', data: Buffer.from(inRelease) },
    { path: 'Release.gpg', data: Buffer.from(releaseGpg) },
  ];
}
