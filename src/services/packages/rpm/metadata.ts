import { BadRequestError } from '../../../lib/errors';
import { readRpmHeaders, type RpmTags } from './header';

// What Gitea's modules/packages/rpm reads from an rpm's headers: the version's metadata (shown
// by the REST API) and the file's (everything repodata/ lists), kept as the rpm.metadata property.

const T = {
  name: 1000, version: 1001, release: 1002, epoch: 1003, summary: 1004, description: 1005, buildTime: 1006, buildHost: 1007,
  size: 1009, vendor: 1011, license: 1014, packager: 1015, group: 1016, url: 1020, arch: 1022, fileSizes: 1028, fileModes: 1030,
  sourceRpm: 1044, archiveSize: 1046, provideName: 1047, requireFlags: 1048, requireName: 1049, requireVersion: 1050,
  conflictFlags: 1053, conflictName: 1054, conflictVersion: 1055, changelogTime: 1080, changelogName: 1081, changelogText: 1082,
  obsoleteName: 1090, provideFlags: 1112, provideVersion: 1113, obsoleteFlags: 1114, obsoleteVersion: 1115,
  dirIndexes: 1116, baseNames: 1117, dirNames: 1118, longSize: 5009,
} as const;

export type RpmEntry = { name: string; flags: string; version: string; epoch: string; release: string };
export type RpmFile = { path: string; type: string; is_exec: boolean };
export type RpmChangelog = { author: string; date: number; text: string };
export type RpmVersionMetadata = { license: string; project_url: string; summary: string; description: string };
export type RpmFileMetadata = {
  architecture: string; epoch: string; version: string; release: string; vendor: string; group: string; packager: string;
  source_rpm: string; build_host: string; build_time: number; file_time: number; installed_size: number; archive_size: number;
  header_start: number; header_end: number;
  provides: RpmEntry[]; requires: RpmEntry[]; conflicts: RpmEntry[]; obsoletes: RpmEntry[]; files: RpmFile[]; changelogs: RpmChangelog[];
};
export type RpmPackage = { name: string; version: string; versionMetadata: RpmVersionMetadata; fileMetadata: RpmFileMetadata };

const str = (t: RpmTags, tag: number) => { const v = t.get(tag); return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : ''; };
const strs = (t: RpmTags, tag: number): string[] => { const v = t.get(tag); return Array.isArray(v) && typeof v[0] !== 'number' ? (v as string[]) : typeof v === 'string' ? [v] : []; };
const nums = (t: RpmTags, tag: number): number[] => { const v = t.get(tag); return Array.isArray(v) && typeof v[0] === 'number' ? (v as number[]) : []; };
const num = (t: RpmTags, tag: number) => nums(t, tag)[0] ?? 0;

function flagName(flags: number): string {
  switch (flags & 0x0e) {
    case 2: return 'LT';
    case 4: return 'GT';
    case 8: return 'EQ';
    case 10: return 'LE';
    case 12: return 'GE';
    default: return '';
  }
}

function entries(t: RpmTags, names: number, flags: number, versions: number): RpmEntry[] {
  const n = strs(t, names);
  const f = nums(t, flags);
  const v = strs(t, versions);
  const out: RpmEntry[] = [];
  n.forEach((name, i) => {
    if (name.startsWith('rpmlib(')) return;
    const m = /^(?:(\d+):)?([^-]*)(?:-(.*))?$/.exec(v[i] ?? '') ?? [];
    out.push({ name, flags: flagName(f[i] ?? 0), epoch: m[1] ?? (v[i] ? '0' : ''), version: m[2] ?? '', release: m[3] ?? '' });
  });
  return out;
}

function files(t: RpmTags): RpmFile[] {
  const base = strs(t, T.baseNames);
  const dirs = strs(t, T.dirNames);
  const idx = nums(t, T.dirIndexes);
  const modes = nums(t, T.fileModes);
  return base.map((b, i) => {
    const mode = modes[i] ?? 0;
    const type = (mode & 0o170000) === 0o040000 ? 'dir' : '';
    return { path: `${dirs[idx[i] ?? 0] ?? ''}${b}`, type, is_exec: (mode & 0o111) !== 0 && type !== 'dir' };
  });
}

function changelogs(t: RpmTags): RpmChangelog[] {
  const times = nums(t, T.changelogTime);
  const names = strs(t, T.changelogName);
  const texts = strs(t, T.changelogText);
  return times.map((date, i) => ({ date, author: names[i] ?? '', text: texts[i] ?? '' }));
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/** Reads and checks an rpm stored at `file`. */
export function readRpm(file: string, fileTime: number): RpmPackage {
  const h = readRpmHeaders(file);
  const t = h.main;
  const name = str(t, T.name);
  const version = str(t, T.version);
  const release = str(t, T.release);
  if (!NAME.test(name)) throw new BadRequestError('invalid package name');
  if (!version || !release || /[\s/]/.test(version + release)) throw new BadRequestError('invalid package version');
  const architecture = t.has(T.sourceRpm) ? str(t, T.arch) : 'src';
  return {
    name, version: `${version}-${release}`,
    versionMetadata: { license: str(t, T.license), project_url: str(t, T.url), summary: str(t, T.summary), description: str(t, T.description) },
    fileMetadata: {
      architecture, epoch: String(num(t, T.epoch)), version, release, vendor: str(t, T.vendor), group: str(t, T.group),
      packager: str(t, T.packager), source_rpm: str(t, T.sourceRpm), build_host: str(t, T.buildHost), build_time: num(t, T.buildTime),
      file_time: fileTime, installed_size: num(t, T.size) || num(t, T.longSize), archive_size: num(h.signature, 1007) || num(t, T.archiveSize),
      header_start: h.headerStart, header_end: h.headerEnd,
      provides: entries(t, T.provideName, T.provideFlags, T.provideVersion), requires: entries(t, T.requireName, T.requireFlags, T.requireVersion),
      conflicts: entries(t, T.conflictName, T.conflictFlags, T.conflictVersion), obsoletes: entries(t, T.obsoleteName, T.obsoleteFlags, T.obsoleteVersion),
      files: files(t), changelogs: changelogs(t),
    },
  };
}
