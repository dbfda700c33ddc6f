import crypto from 'node:crypto';
import type { User } from '../../../db/schema';
import { indexedFiles, versionMetadataByIds } from '../../../models/package-index';
import type { IndexDeps } from '../repo-index/jobs';
import { gzip } from '../repo-index/compress';
import type { IndexFileInput } from '../repo-index/store';
import { ownerPgpSigner } from '../signing/owner-keys';
import type { RpmFileMetadata, RpmVersionMetadata } from './metadata';
import { filelistsXml, otherXml, primaryXml, type RpmIndexEntry } from './repodata';
import { RPM } from './upload';

// A group's repodata/ (Gitea's BuildSpecificRepositoryFiles): primary, filelists and other as
// .xml.gz, repomd.xml listing their checksums, and repomd.xml.asc signed with the owner's key.

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

function repomd(parts: { type: string; plain: Buffer; gz: Buffer }[], now: number): string {
  const data = parts.map((p) => `<data type="${p.type}"><checksum type="sha256">${sha256(p.gz)}</checksum><open-checksum type="sha256">${sha256(p.plain)}</open-checksum>`
    + `<location href="repodata/${p.type}.xml.gz"/><timestamp>${now}</timestamp><size>${p.gz.length}</size><open-size>${p.plain.length}</open-size></data>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<repomd xmlns="http://linux.duke.edu/metadata/repo" xmlns:rpm="http://linux.duke.edu/metadata/rpm">\n<revision>${now}</revision>\n${data.join('\n')}\n</repomd>\n`;
}

export async function buildRpmIndex(deps: IndexDeps, owner: User, group: string): Promise<IndexFileInput[]> {
  const files = await indexedFiles(deps.db, owner.id, RPM, { name: 'rpm.group', value: group });
  if (!files.length) return [];
  const versions = await versionMetadataByIds(deps.db, [...new Set(files.map((f) => f.versionId))]);
  const list: RpmIndexEntry[] = files.map((file) => ({
    file, meta: JSON.parse(file.props['rpm.metadata'] ?? '{}') as RpmFileMetadata,
    version: { license: '', project_url: '', summary: '', description: '', ...(versions.get(file.versionId) as RpmVersionMetadata | undefined) },
  }));
  const parts = [['primary', primaryXml(list)], ['filelists', filelistsXml(list)], ['other', otherXml(list)]].map(([type, xml]) => {
    const plain = Buffer.from(xml!, 'utf8');
    return { type: type!, plain, gz: gzip(plain) };
  });
  const md = Buffer.from(repomd(parts, Math.floor(Date.now() / 1000)));
  const signer = await ownerPgpSigner(deps, owner, 'RPM package registry');
  const asc = (await signer.signDetached(md, 'armored')) as string;
  const out: IndexFileInput[] = parts.map((p) => ({ path: `repodata/${p.type}.xml.gz`, data: p.gz }));
  out.push({ path: 'repodata/repomd.xml', data: md }, { path: 'repodata/repomd.xml.asc', data: Buffer.from(asc) });
  return out;
}
