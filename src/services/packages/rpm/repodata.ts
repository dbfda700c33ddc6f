import type { IndexedFile } from '../../../models/package-index';
import type { RpmEntry, RpmFileMetadata, RpmVersionMetadata } from './metadata';

// The three createrepo documents of a group (primary, filelists, other), as Gitea's
// services/packages/rpm writes them; repomd.xml is made from their hashes by the builder.

export type RpmIndexEntry = { file: IndexedFile; meta: RpmFileMetadata; version: RpmVersionMetadata };

export const xmlEscape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
  // Control characters are not allowed in XML 1.0.
  .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '');
const e = xmlEscape;

export const locationOf = (x: RpmIndexEntry) =>
  `package/${encodeURIComponent(x.file.packageName)}/${encodeURIComponent(x.file.version)}/${encodeURIComponent(x.meta.architecture)}/${encodeURIComponent(x.file.file.name)}`;

function entryList(tag: string, list: RpmEntry[]): string {
  if (!list.length) return '';
  const items = list.map((r) => {
    const attrs = [`name="${e(r.name)}"`];
    if (r.flags) attrs.push(`flags="${r.flags}"`, `epoch="${e(r.epoch || '0')}"`, `ver="${e(r.version)}"`);
    if (r.flags && r.release) attrs.push(`rel="${e(r.release)}"`);
    return `<rpm:entry ${attrs.join(' ')}/>`;
  });
  return `<rpm:${tag}>${items.join('')}</rpm:${tag}>`;
}

const isPrimaryFile = (p: string) => p.startsWith('/etc/') || /\/(s?bin)\//.test(p) || p === '/usr/lib/sendmail';
const versionTag = (m: RpmFileMetadata) => `<version epoch="${e(m.epoch)}" ver="${e(m.version)}" rel="${e(m.release)}"/>`;
const pkgid = (x: RpmIndexEntry) => x.file.blob.hash_sha256;

export function primaryXml(list: RpmIndexEntry[]): string {
  const out = [`<?xml version="1.0" encoding="UTF-8"?>\n<metadata xmlns="http://linux.duke.edu/metadata/common" xmlns:rpm="http://linux.duke.edu/metadata/rpm" packages="${list.length}">`];
  for (const x of list) {
    const m = x.meta;
    const files = m.files.filter((f) => isPrimaryFile(f.path)).map((f) => `<file${f.type ? ` type="${f.type}"` : ''}>${e(f.path)}</file>`).join('');
    out.push(`<package type="rpm"><name>${e(x.file.packageName)}</name><arch>${e(m.architecture)}</arch>${versionTag(m)}`
      + `<checksum type="sha256" pkgid="YES">${pkgid(x)}</checksum><summary>${e(x.version.summary)}</summary><description>${e(x.version.description)}</description>`
      + `<packager>${e(m.packager)}</packager><url>${e(x.version.project_url)}</url><time file="${m.file_time}" build="${m.build_time}"/>`
      + `<size package="${x.file.blob.size}" installed="${m.installed_size}" archive="${m.archive_size}"/><location href="${e(locationOf(x))}"/>`
      + `<format><rpm:license>${e(x.version.license)}</rpm:license><rpm:vendor>${e(m.vendor)}</rpm:vendor><rpm:group>${e(m.group)}</rpm:group>`
      + `<rpm:buildhost>${e(m.build_host)}</rpm:buildhost><rpm:sourcerpm>${e(m.source_rpm)}</rpm:sourcerpm>`
      + `<rpm:header-range start="${m.header_start}" end="${m.header_end}"/>${entryList('provides', m.provides)}${entryList('requires', m.requires)}`
      + `${entryList('conflicts', m.conflicts)}${entryList('obsoletes', m.obsoletes)}${files}</format></package>`);
  }
  out.push('</metadata>\n');
  return out.join('\n');
}

export function filelistsXml(list: RpmIndexEntry[]): string {
  const out = [`<?xml version="1.0" encoding="UTF-8"?>\n<filelists xmlns="http://linux.duke.edu/metadata/filelists" packages="${list.length}">`];
  for (const x of list) {
    const files = x.meta.files.map((f) => `<file${f.type ? ` type="${f.type}"` : ''}>${e(f.path)}</file>`).join('');
    out.push(`<package pkgid="${pkgid(x)}" name="${e(x.file.packageName)}" arch="${e(x.meta.architecture)}">${versionTag(x.meta)}${files}</package>`);
  }
  out.push('</filelists>\n');
  return out.join('\n');
}

export function otherXml(list: RpmIndexEntry[]): string {
  const out = [`<?xml version="1.0" encoding="UTF-8"?>\n<otherdata xmlns="http://linux.duke.edu/metadata/other" packages="${list.length}">`];
  for (const x of list) {
    const logs = x.meta.changelogs.map((c) => `<changelog author="${e(c.author)}" date="${c.date}">${e(c.text)}</changelog>`).join('');
    out.push(`<package pkgid="${pkgid(x)}" name="${e(x.file.packageName)}" arch="${e(x.meta.architecture)}">${versionTag(x.meta)}${logs}</package>`);
  }
  out.push('</otherdata>\n');
  return out.join('\n');
}
