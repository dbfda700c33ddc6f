import fs from 'node:fs';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Config } from '../../config/schema';
import type { ActionArtifact } from '../../db/schema';
import type { Hearth } from '../../hearth';
import { NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { yazl } from '../../lib/lazy-require';
import { isV4Artifact } from '../../models/actions-artifacts-v4';
import * as q from '../../models/actions-run-query';
import { artifactFile } from '../actions/artifact-files';
import type { RepoAccess } from '../repo/repos';

// A run's artifact as the run page downloads it (Gitea's ArtifactsDownloadView): by name, only
// when every file of it is uploaded and not expired. A v4 upload is one zip, answered as it is;
// a v1-v3 upload is a file per row (some gzip-encoded), zipped on the way out.

export type ArtifactDownload = { filename: string; size?: number; open: () => Readable };

type StoredFile = { row: ActionArtifact; file: string };

function stored(config: Config, row: ActionArtifact): StoredFile {
  const file = artifactFile(config, row.storage_path);
  if (!file || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new NotFoundError('artifact not found');
  return { row, file };
}

/** The files under their paths in the artifact, each decoded from gzip if it was sent so. */
function zipOf(files: StoredFile[]): Readable {
  const zip = new (yazl().ZipFile)();
  for (const { row, file } of files) {
    const raw = fs.createReadStream(file);
    zip.addReadStream(row.content_encoding === 'gzip' ? raw.pipe(zlib.createGunzip()) : raw, row.artifact_path);
  }
  zip.end();
  return zip.outputStream as Readable;
}

/**
 * Deletes the artifact `name` of the run numbered `runIndex`, as the API's DELETE
 * .../actions/artifacts/{id} does (marked; cleanup_actions removes the bytes), by name as
 * Gitea's run page does, which also reaches v1-v3 uploads; 404 unless it is uploaded (or expired).
 */
export async function deleteRunArtifact(h: Hearth, access: RepoAccess, runIndex: number, name: string): Promise<void> {
  const run = Number.isSafeInteger(runIndex) && runIndex > 0 ? await q.getRunByIndex(h.db, access.repo.id, runIndex) : undefined;
  if (!run) throw new NotFoundError('run not found');
  const rows = await q.artifactRows(h.db, run.id, name);
  if (!rows.some((r) => r.status === 'confirmed' || r.status === 'expired')) throw new NotFoundError('artifact not found');
  await q.markArtifactsDeleted(h.db, run.id, name, nowUnix());
}

/** The artifact `name` of the run numbered `runIndex` in the repository. */
export async function runArtifactDownload(h: Hearth, access: RepoAccess, runIndex: number, name: string): Promise<ArtifactDownload> {
  const { db, config } = h;
  const run = Number.isSafeInteger(runIndex) && runIndex > 0 ? await q.getRunByIndex(db, access.repo.id, runIndex) : undefined;
  if (!run) throw new NotFoundError('run not found');
  const rows = await q.artifactRows(db, run.id, name);
  if (!rows.length || rows.some((r) => r.status !== 'confirmed')) throw new NotFoundError('artifact not found');
  const files = rows.map((r) => stored(config, r));
  const filename = `${name}.zip`;
  if (files.length === 1 && isV4Artifact(rows[0]!)) {
    const { file } = files[0]!;
    return { filename, size: fs.statSync(file).size, open: () => fs.createReadStream(file) };
  }
  return { filename, open: () => zipOf(files) };
}
