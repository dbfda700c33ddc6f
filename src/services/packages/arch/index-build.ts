import type { User } from '../../../db/schema';
import { indexedFiles, versionMetadataByIds, type IndexedFile } from '../../../models/package-index';
import { writeTar } from '../archive/tar';
import type { IndexDeps } from '../repo-index/jobs';
import { gzip } from '../repo-index/compress';
import type { IndexFileInput } from '../repo-index/store';
import { ownerPgpSigner } from '../signing/owner-keys';
import { ARCH } from './arch';
import type { ArchMetadata } from './pkginfo';

// A repository's pacman databases (Gitea's BuildPacmanDB), per architecture: `db.tar.gz` with a
// `{name}-{version}/desc` per package and `files.tar.gz` adding each package's file list, each
// with a detached binary signature by the owner's key. `any` packages are in every
// architecture's databases, and in an `any` database served for architectures without one.

function section(key: string, values: (string | number | undefined)[] | string | number | undefined): string {
  const list = (Array.isArray(values) ? values : [values]).filter((v) => v !== undefined && v !== '');
  return list.length ? `%${key}%\n${list.join('\n')}\n\n` : '';
}

function desc(f: IndexedFile, md: ArchMetadata): string {
  return [
    section('FILENAME', f.file.name), section('NAME', f.packageName), section('BASE', md.base), section('VERSION', f.version),
    section('DESC', md.description), section('GROUPS', md.groups), section('CSIZE', f.blob.size), section('ISIZE', md.installed_size),
    section('MD5SUM', f.blob.hash_md5), section('SHA256SUM', f.blob.hash_sha256), section('URL', md.project_url),
    section('LICENSE', md.licenses), section('ARCH', f.props['arch.architecture']), section('BUILDDATE', md.build_date),
    section('PACKAGER', md.packager), section('REPLACES', md.replaces), section('CONFLICTS', md.conflicts), section('PROVIDES', md.provides),
    section('DEPENDS', md.depends), section('OPTDEPENDS', md.optdepends), section('MAKEDEPENDS', md.makedepends), section('CHECKDEPENDS', md.checkdepends),
  ].join('');
}

export async function buildArchIndex(deps: IndexDeps, owner: User, repository: string): Promise<IndexFileInput[]> {
  const files = await indexedFiles(deps.db, owner.id, ARCH, { name: 'arch.repository', value: repository });
  if (!files.length) return [];
  const meta = await versionMetadataByIds(deps.db, [...new Set(files.map((f) => f.versionId))]);
  const archs = new Set(files.map((f) => f.props['arch.architecture'] ?? 'any'));
  archs.add('any');
  const signer = await ownerPgpSigner(deps, owner, 'Arch package registry');
  const out: IndexFileInput[] = [];
  for (const arch of [...archs].sort()) {
    const members = files.filter((f) => f.props['arch.architecture'] === arch || f.props['arch.architecture'] === 'any');
    if (!members.length) continue;
    const db: { name: string; data: Buffer }[] = [];
    const withFiles: { name: string; data: Buffer }[] = [];
    for (const f of members) {
      const dir = `${f.packageName}-${f.version}`;
      const d = Buffer.from(desc(f, (meta.get(f.versionId) ?? {}) as ArchMetadata));
      db.push({ name: `${dir}/desc`, data: d });
      withFiles.push({ name: `${dir}/desc`, data: d }, { name: `${dir}/files`, data: Buffer.from(`%FILES%\n${f.props['arch.files'] ?? ''}\n\n`) });
    }
    for (const [name, entries] of [['db', db], ['files', withFiles]] as const) {
      const data = gzip(await writeTar(entries));
      out.push({ path: `${arch}/${name}.tar.gz`, data }, { path: `${arch}/${name}.tar.gz.sig`, data: (await signer.signDetached(data, 'binary')) as Buffer });
    }
  }
  return out;
}
