import type { User } from '../../../db/schema';
import { indexedFiles, versionMetadataByIds, type IndexedFile } from '../../../models/package-index';
import { writeTar } from '../archive/tar';
import type { IndexDeps } from '../repo-index/jobs';
import { gzip } from '../repo-index/compress';
import type { IndexFileInput } from '../repo-index/store';
import { ownerRsaSigner } from '../signing/owner-keys';
import { ALPINE, alpineKey } from './alpine';
import type { AlpineMetadata } from './apk';

// A branch/repository's APKINDEX.tar.gz per architecture (Gitea's BuildSpecificRepositoryFiles):
// a gzipped tar of DESCRIPTION and APKINDEX, preceded by a gzipped tar holding
// `.SIGN.RSA.{key name}`, the RSA-SHA1 signature of the index member's bytes, without the end of
// archive (apk reads the two members as one tar). `noarch` packages are in every architecture.

function entry(f: IndexedFile, md: AlpineMetadata): string {
  const lines: [string, string | number | undefined][] = [
    ['C', f.props['alpine.checksum']], ['P', f.packageName], ['V', f.version], ['A', f.props['alpine.architecture']], ['S', f.blob.size],
    ['I', md.installed_size], ['T', md.description], ['U', md.project_url], ['L', md.license], ['o', md.origin], ['m', md.maintainer],
    ['t', md.build_date], ['c', md.commit], ['k', md.provider_priority], ['D', md.dependencies?.join(' ')], ['p', md.provides?.join(' ')], ['i', md.install_if],
  ];
  return `${lines.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}:${v}`).join('\n')}\n\n`;
}

export async function buildAlpineIndex(deps: IndexDeps, owner: User, scope: string): Promise<IndexFileInput[]> {
  const [branch, repository] = scope.split('/') as [string, string];
  const files = (await indexedFiles(deps.db, owner.id, ALPINE, { name: 'alpine.branch', value: branch })).filter((f) => f.props['alpine.repository'] === repository);
  if (!files.length) return [];
  const meta = await versionMetadataByIds(deps.db, [...new Set(files.map((f) => f.versionId))]);
  const signer = await ownerRsaSigner(deps, owner);
  const { name: keyName } = await alpineKey(deps, owner);
  const archs = new Set(files.map((f) => f.props['alpine.architecture'] ?? 'noarch'));
  const out: IndexFileInput[] = [];
  for (const arch of [...archs].sort()) {
    const members = files.filter((f) => f.props['alpine.architecture'] === arch || f.props['alpine.architecture'] === 'noarch');
    const text = members.map((f) => entry(f, (meta.get(f.versionId) ?? {}) as AlpineMetadata)).join('');
    const index = gzip(await writeTar([{ name: 'DESCRIPTION', data: Buffer.from(`${owner.name} ${branch}/${repository}`) }, { name: 'APKINDEX', data: Buffer.from(text) }]));
    const sigTar = await writeTar([{ name: `.SIGN.RSA.${keyName}`, data: signer.sign(index, 'sha1') }]);
    const signature = gzip(sigTar.subarray(0, sigTar.length - 1024));
    out.push({ path: `${arch}/APKINDEX.tar.gz`, data: Buffer.concat([signature, index]) });
  }
  return out;
}
