import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Writable } from 'node:stream';
import type { Config } from '../../config/schema';
import { HEARTH_VERSION } from '../../lib/version';
import { backupDatabase, readCopyFacts } from './database-copy';
import { type DumpManifest, type ManifestEntry, MANIFEST, DB_ENTRY, SECRET_ENTRY, CONFIG_ENTRY, DATA_SECTIONS } from './manifest';
import { Progress, formatBytes } from './progress';
import { closeRepoFiles, listPacks, listRepoFiles, recordRefs, REPO_DIRS, type RepoSnapshot } from './repo-snapshot';
import { TarWriter } from './tar';
import { mapLimited } from '../../lib/concurrency';

export type DumpSkip = { repos?: boolean; attachments?: boolean; packages?: boolean; avatars?: boolean };
export type DumpResult = { file: string; entries: number; bytes: number; repos: number; seconds: number };

type PlannedFile = { name: string; abs: string; size: number; mode: number; mtime: number; fd?: number };

/** Files under `dir` (recursively) as archive entries under `prefix`; `skip` names directories left out. */
function walk(dir: string, prefix: string, skip: Set<string> = new Set()): PlannedFile[] {
  const out: PlannedFile[] = [];
  const visit = (d: string, p: string) => {
    let list: fs.Dirent[];
    try { list = fs.readdirSync(d, { withFileTypes: true }); } catch { return; }
    for (const e of list) {
      const abs = path.join(d, e.name);
      if (e.isDirectory() && !skip.has(abs)) visit(abs, `${p}/${e.name}`);
      else if (e.isFile() && !e.name.endsWith('.tmp')) {
        const st = fs.statSync(abs, { throwIfNoEntry: false });
        if (st) out.push({ name: `${p}/${e.name}`, abs, size: st.size, mode: st.mode & 0o777, mtime: st.mtimeMs / 1000 });
      }
    }
  };
  visit(dir, prefix);
  return out;
}

type Output = { stream: Writable; file: string | null; closed: Promise<void>; fail: () => void };

/** The archive's stream: stdout for "-", else `<file>.partial` renamed once complete. */
function openOutput(output: string): Output {
  if (output === '-') return { stream: process.stdout, file: null, closed: Promise.resolve(), fail: () => {} };
  const partial = `${output}.partial`;
  fs.mkdirSync(path.dirname(path.resolve(output)), { recursive: true });
  const fileStream = fs.createWriteStream(partial, { mode: 0o600 });
  // Level 1: packs and most blobs are compressed already; the database still shrinks a lot.
  const gz = /\.(tar\.gz|tgz)$/.test(output) ? zlib.createGzip({ level: 1 }) : null;
  if (gz) gz.pipe(fileStream);
  const closed = new Promise<void>((resolve, reject) => {
    fileStream.once('close', () => resolve());
    fileStream.once('error', reject);
    gz?.once('error', reject);
  });
  closed.catch(() => {});
  return { stream: gz ?? fileStream, file: output, closed, fail: () => { fileStream.destroy(); fs.rmSync(partial, { force: true }); } };
}

/**
 * Writes one archive of the instance while it serves: the database (online backup), the
 * repositories as recorded right after it, the secret key, the config file, attachments,
 * avatars and package blobs, and last a manifest with each entry's size and sha256.
 */
export async function dumpInstance(
  config: Config, output: string, skip: DumpSkip, err: NodeJS.WriteStream = process.stderr, signal?: AbortSignal,
): Promise<DumpResult> {
  const started = Date.now();
  if (!fs.existsSync(config.database.path)) throw new Error(`no database at ${config.database.path}: nothing to dump`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-dump-'));
  const out = openOutput(output);
  try {
    const dbCopy = path.join(tmp, 'hearth.db');
    await backupDatabase(config, dbCopy);
    signal?.throwIfAborted();
    const facts = readCopyFacts(config, dbCopy);
    // The repositories of the database copy, their refs recorded at once after it.
    // Each repository's wiki (<name>.wiki.git beside it) is a repository of the archive too.
    const refs = skip.repos ? [] : facts.repos.flatMap((r) => [r, { ...r, name: `${r.name}.wiki` }]);
    const snaps = (await mapLimited(refs, 4, (r) => recordRefs(config.repository.root, r))).filter((s): s is RepoSnapshot => s !== null);
    const plan = planFiles(config, dbCopy, snaps, skip);
    const all = [...plan.head, ...plan.repoFiles.flat(), ...plan.data];
    const progress = new Progress(all.length + snaps.length + 1, all.reduce((n, f) => n + f.size, 0), err);
    const tar = new TarWriter(out.stream);
    const entries: ManifestEntry[] = [];
    // An interrupted dump stops between two chunks: the partial archive and the copy go (below).
    const put = async (f: PlannedFile) => {
      signal?.throwIfAborted();
      const e = await writeFile(tar, f, progress, signal);
      if (e) entries.push(e);
    };
    for (const f of plan.head) await put(f);
    for (const snap of snaps) await writeRepo(tar, snap, put, entries, progress);
    for (const f of plan.data) await put(f);
    const manifest: DumpManifest = {
      format: 'hearth-dump', format_version: 1, hearth_version: HEARTH_VERSION, created: new Date().toISOString(),
      migrations: facts.migrations,
      secret: config.security.secret_key ? (config.file ? 'config' : 'environment') : plan.head.some((f) => f.name === SECRET_ENTRY) ? 'file' : 'none',
      config: config.file ? CONFIG_ENTRY : null,
      repositories: snaps.map((s) => s.prefix),
      skipped: Object.entries(skip).filter(([, v]) => v).map(([k]) => k),
      entries,
    };
    await tar.buffer(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`));
    progress.item();
    await tar.finish();
    await out.closed;
    if (out.file) fs.renameSync(`${out.file}.partial`, out.file);
    const seconds = (Date.now() - started) / 1000;
    const size = out.file ? fs.statSync(out.file).size : tar.bytes;
    progress.done(`hearth dump: ${out.file ?? 'stdout'}: ${entries.length + 1} entries, ${snaps.length} repositories, ${formatBytes(size)} in ${seconds.toFixed(2)}s`);
    return { file: out.file ?? '-', entries: entries.length + 1, bytes: size, repos: snaps.length, seconds };
  } catch (e) {
    out.fail();
    throw e;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function planFiles(config: Config, dbCopy: string, snaps: RepoSnapshot[], skip: DumpSkip) {
  const head: PlannedFile[] = [];
  const st = fs.statSync(dbCopy);
  head.push({ name: DB_ENTRY, abs: dbCopy, size: st.size, mode: 0o600, mtime: st.mtimeMs / 1000 });
  const secret = path.join(config.server.data_dir, 'secret_key');
  const sst = fs.statSync(secret, { throwIfNoEntry: false });
  if (sst) head.push({ name: SECRET_ENTRY, abs: secret, size: sst.size, mode: 0o600, mtime: sst.mtimeMs / 1000 });
  const cst = config.file ? fs.statSync(config.file, { throwIfNoEntry: false }) : undefined;
  if (cst) head.push({ name: CONFIG_ENTRY, abs: config.file!, size: cst.size, mode: 0o600, mtime: cst.mtimeMs / 1000 });
  // For the totals only: each repository is listed again, its packs opened, when it is written.
  const repoFiles = snaps.map((s) => listRepoFiles(s, false).map((f): PlannedFile => ({ ...f, name: `${s.prefix}/${f.rel}` })));
  const data: PlannedFile[] = [];
  for (const [key, rel] of Object.entries(DATA_SECTIONS)) {
    if (skip[key as keyof DumpSkip]) continue;
    // Package upload sessions and temp files are in flight, not data: only the blobs go.
    data.push(...walk(path.join(config.server.data_dir, rel), rel));
  }
  return { head, repoFiles, data };
}

async function writeFile(tar: TarWriter, f: PlannedFile, progress: Progress, signal?: AbortSignal): Promise<ManifestEntry | null> {
  let fd = f.fd;
  let own = false;
  if (fd === undefined) {
    try { fd = fs.openSync(f.abs, 'r'); own = true; } catch { progress.item(); return null; /* removed meanwhile */ }
  }
  try {
    // Entries are immutable once in place (objects, blobs, attachments): the size now is final.
    const size = fs.fstatSync(fd).size;
    const sha256 = await tar.file(f.name, fd, size, f.mode, f.mtime, (n) => { signal?.throwIfAborted(); progress.add(n); });
    progress.item();
    return { path: f.name, size, sha256 };
  } finally {
    if (own) fs.closeSync(fd);
  }
}

async function writeRepo(tar: TarWriter, snap: RepoSnapshot, put: (f: PlannedFile) => Promise<void>, entries: ManifestEntry[], progress: Progress) {
  for (const d of REPO_DIRS) await tar.dir(`${snap.prefix}/${d}`);
  const head = await tar.buffer(`${snap.prefix}/HEAD`, Buffer.from(snap.head));
  entries.push({ path: `${snap.prefix}/HEAD`, size: Buffer.byteLength(snap.head), sha256: head });
  const refs = Buffer.from(snap.packedRefs);
  entries.push({ path: `${snap.prefix}/packed-refs`, size: refs.length, sha256: await tar.buffer(`${snap.prefix}/packed-refs`, refs) });
  const files = listRepoFiles(snap, true).map((f): PlannedFile => ({ ...f, name: `${snap.prefix}/${f.rel}` }));
  const before = entries.length;
  try {
    for (const f of files) await put(f);
  } finally {
    closeRepoFiles(files);
  }
  // A loose object that vanished was packed by a gc meanwhile: its new packs hold it.
  const copied = entries.length - before;
  if (copied < files.length) {
    const known = new Set(files.filter((f) => f.name.includes('/objects/pack/')).map((f) => path.basename(f.abs)));
    for (const p of listPacks(snap.dir, known)) {
      const abs = path.join(snap.dir, 'objects', 'pack', p);
      const st = fs.statSync(abs, { throwIfNoEntry: false });
      if (st) await put({ name: `${snap.prefix}/objects/pack/${p}`, abs, size: st.size, mode: 0o444, mtime: st.mtimeMs / 1000 });
    }
  }
  progress.item();
}
