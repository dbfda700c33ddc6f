import fs from 'node:fs';
import path from 'node:path';
import type yauzl from 'yauzl';
import { yauzl as loadYauzl } from '../../lib/lazy-require';
import type { DB } from '../../db/connect';
import { InvalidError } from '../../lib/errors';
import { upsertAdvisory } from '../../models/advisory';
import { getRepoById } from '../../models/repo';
import { listRepoLocations } from '../../models/repo-counters';
import { recordAudit } from '../audit/record';
import { parseOsv, type ParsedAdvisory } from './osv';
import { scanRepository } from './scan';
import type { Hearth } from '../../hearth';

// `hearth admin advisories import <dir-or-zip>`: OSV JSON files (a directory tree of them, or a
// zip such as osv.dev's per-ecosystem all.zip), stored one row per affected package; every
// repository is matched again afterwards, as new advisories may concern what is already there.

const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

export type ImportResult = { files: number; advisories: number; changed: number; skipped: number; repositories: number; opened: number };

function* jsonFilesIn(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* jsonFilesIn(p);
    else if (e.isFile() && e.name.endsWith('.json')) yield p;
  }
}

/** Each .json entry of a zip, read one at a time (osv.dev's archives hold hundreds of thousands). */
async function eachZipEntry(file: string, fn: (text: string) => Promise<void>): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    loadYauzl().open(file, { lazyEntries: true }, (err, z) => (err || !z ? reject(err ?? new Error('unreadable zip')) : resolve(z))));
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('.json') || entry.uncompressedSize > MAX_ENTRY_BYTES) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err ?? new Error(`unreadable entry ${entry.fileName}`));
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', reject);
        stream.on('end', () => { fn(Buffer.concat(chunks).toString('utf8')).then(() => zip.readEntry(), reject); });
      });
    });
    zip.readEntry();
  });
  zip.close();
}

async function store(db: DB, list: ParsedAdvisory[], r: ImportResult): Promise<void> {
  for (const a of list) {
    r.advisories++;
    const changed = await upsertAdvisory(db, {
      osv_id: a.osvId, summary: a.summary, severity: a.severity, ecosystem: a.ecosystem, package: a.package,
      affected: JSON.stringify(a.affected), published_unix: a.publishedUnix, modified_unix: a.modifiedUnix,
    });
    if (changed) r.changed++;
  }
}

/** Imports the advisories at `source`, then matches every repository again. */
export async function importAdvisories(h: Hearth, source: string): Promise<ImportResult> {
  if (!fs.existsSync(source)) throw new InvalidError(`no such file or directory: ${source}`);
  const r: ImportResult = { files: 0, advisories: 0, changed: 0, skipped: 0, repositories: 0, opened: 0 };
  const one = async (text: string) => {
    r.files++;
    try {
      await store(h.db, parseOsv(text), r);
    } catch {
      r.skipped++;
    }
  };
  if (fs.statSync(source).isDirectory()) {
    for (const f of jsonFilesIn(source)) await one(fs.readFileSync(f, 'utf8'));
  } else if (source.endsWith('.zip')) {
    await eachZipEntry(source, one);
  } else {
    await one(fs.readFileSync(source, 'utf8'));
  }
  await recordAudit(h.db, { op: 'admin.advisories.import', target: { type: 'system', id: 0, name: source }, extra: { ...r } });
  for (const loc of await listRepoLocations(h.db)) {
    const repo = await getRepoById(h.db, loc.id);
    if (!repo) continue;
    r.repositories++;
    r.opened += (await scanRepository(h, repo)).length;
  }
  return r;
}
