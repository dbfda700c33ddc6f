import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { DB } from '../../db/connect';
import type { ActionArtifact } from '../../db/schema';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { hashToken, looksLikeToken } from '../../lib/token';
import * as m from '../../models/actions-artifacts-v3';
import { confirmedArtifactsOfRun, insertArtifact } from '../../models/actions-artifacts-v4';
import { getRunJob } from '../../models/actions-engine';
import { runningTaskByTokenHash } from '../../models/actions-tasks';
import { statArtifact } from './artifact-files';
import { mergeChunks, parseContentRange, saveChunk } from './artifacts-v3-chunks';
import { v4Caller, type V4Caller, type V4Deps } from './artifacts-v4';
import { verifyRuntimeToken } from './runtime-token';
import type { Hearth } from '../../hearth';

// The artifact v3 protocol of upload-artifact@v3 / download-artifact@v3 (@actions/artifact 1.x)
// at <root>/api/actions_pipeline/ (Gitea's routers/api/actions/artifacts.go): an artifact is a
// container of files, one row each, named in URLs by md5(artifact name) while uploading and
// listing, and by row id for a file's bytes. Every call names the run, which must be the task's.

export const V3_BASE = 'api/actions_pipeline/_apis/pipelines/workflows';

/** The running task behind `Authorization: Bearer <runtime token>`, as Gitea's ArtifactContexter. */
export async function v3Caller(h: Hearth, authorization: string | undefined): Promise<V4Caller> {
  if (!authorization?.startsWith('Bearer ')) throw new UnauthorizedError('Bad authorization header');
  const token = authorization.slice('Bearer '.length).trim();
  if (verifyRuntimeToken(h.secret, token)) return v4Caller(h, authorization);
  // Older runners hand the job token (GITEA_TOKEN) as ACTIONS_RUNTIME_TOKEN: Gitea takes it too.
  const task = looksLikeToken(token) ? await runningTaskByTokenHash(h.db, hashToken(token)) : undefined;
  const job = task ? await getRunJob(h.db, task.job_id) : undefined;
  if (!task || !job) throw new UnauthorizedError('Error runner api getting task');
  return { task, runId: job.run_id, jobId: job.id };
}

/** Gitea's validateRunID: the run in the path must be the task's. */
export function checkRun(c: V4Caller, runIdParam: string): void {
  if (!/^\d+$/.test(runIdParam) || Number(runIdParam) !== c.runId) throw new BadRequestError('run-id does not match');
}

const nameHash = (name: string) => crypto.createHash('md5').update(name).digest('hex');

function artifactUrl(deps: V4Deps, runId: number, segment: string, suffix: string): string {
  return `${deps.config.server.root_url.replace(/\/?$/, '/')}${V3_BASE}/${runId}/artifacts/${segment}/${suffix}`;
}

/** Gitea's util.PathJoinRel: a relative, cleaned path that cannot climb out ('' for none). */
export function cleanRelPath(...parts: string[]): string {
  const joined = path.posix.join('/', ...parts.filter((p) => p !== '').map((p) => path.posix.normalize(`/${p}`)));
  return joined.replace(/^\/+/, '').replace(/\/+$/, '');
}

const INVALID_NAME = /[\\/":<>|*?\r\n]/;

/** The upload address of an artifact: its files go there with ?itemPath=<name>/<path>. */
export function uploadUrl(deps: V4Deps, c: V4Caller, name: string, retentionDays: unknown): string {
  const days = Number(retentionDays);
  const query = Number.isInteger(days) && days > 0 ? `?retentionDays=${days}` : '';
  return artifactUrl(deps, c.runId, nameHash(name), `upload${query}`);
}

export type ChunkUpload = {
  hash: string; itemPath: string; retentionDays?: string; contentRange?: string; contentLength?: number;
  fileLength?: number; contentEncoding?: string; md5?: string;
};

/** Name and path in the artifact of an itemPath, checked against the hash of the address. */
function parseItemPath(hash: string, itemPath: string): { name: string; filePath: string } {
  const clean = cleanRelPath(itemPath);
  const name = clean.split('/')[0]!;
  const filePath = clean.startsWith(`${name}/`) ? clean.slice(name.length + 1) : clean;
  if (!name || nameHash(name) !== hash) throw new BadRequestError('Invalid artifact hash');
  if (INVALID_NAME.test(name)) throw new BadRequestError('Error checking artifact name contains invalid character');
  return { name, filePath };
}

function expiryOf(deps: V4Deps, retentionDays: string | undefined): number {
  let days = deps.config.actions.artifact_retention_days;
  if (retentionDays !== undefined && retentionDays !== '') {
    if (!/^-?\d+$/.test(retentionDays)) throw new BadRequestError('Error parse retention days');
    days = Number(retentionDays);
  }
  return days > 0 ? nowUnix() + days * 86400 : 0;
}

/** Gitea's CreateArtifact: the row of (run, name, path), made pending on first sight; expiry renewed. */
async function fileRow(db: DB, c: V4Caller, name: string, filePath: string, expired: number): Promise<ActionArtifact> {
  const now = nowUnix();
  const row = await m.artifactByNameAndPath(db, c.runId, name, filePath);
  if (row) {
    await m.updateV3Artifact(db, row.id, { expired_unix: expired, updated_unix: now });
    return { ...row, expired_unix: expired };
  }
  return insertArtifact(db, {
    run_id: c.runId, runner_id: c.task.runner_id, repo_id: c.task.repo_id, owner_id: c.task.owner_id, commit_sha: c.task.commit_sha,
    artifact_name: name, artifact_path: filePath, status: 'pending', created_unix: now, updated_unix: now, expired_unix: expired,
  });
}

/** One PUT: a chunk of one file. The sizes are those of the file (x-tfs-filelength when gzip-encoded). */
export async function uploadChunk(h: Hearth, c: V4Caller, u: ChunkUpload, body: Readable): Promise<void> {
  const { name, filePath } = parseItemPath(u.hash, u.itemPath);
  const expired = expiryOf(h, u.retentionDays);
  const range = parseContentRange(u.contentRange);
  const row = await fileRow(h.db, c, name, filePath, expired);
  await saveChunk(h.blobs, c.runId, row.id, range, body, { contentLength: u.contentLength, md5: u.md5 });
  // Without x-tfs-filelength Gitea records the chunk's Content-Length; the file's is the range's total.
  const size = u.fileLength && u.fileLength > 0 ? u.fileLength : range.total;
  const encoding = u.contentEncoding ?? '';
  if (row.file_size !== size || row.file_compressed_size !== range.total || row.content_encoding !== encoding) {
    await m.updateV3Artifact(h.db, row.id, { file_size: size, file_compressed_size: range.total, content_encoding: encoding, updated_unix: nowUnix() });
  }
}

/** The PATCH: every file of the artifact whose chunks are all there becomes confirmed. */
export async function confirmArtifact(h: Hearth, c: V4Caller, name: string | undefined): Promise<void> {
  if (!name) throw new BadRequestError('Error artifact name is empty');
  for (const row of await m.rowsOfArtifact(h.db, c.runId, name)) {
    const storagePath = await mergeChunks(h.blobs, row);
    if (storagePath) await m.updateV3Artifact(h.db, row.id, { storage_path: storagePath, status: 'confirmed', updated_unix: nowUnix() });
  }
}

export type ListedArtifact = { name: string; fileContainerResourceUrl: string };

/** The uploaded artifacts of the run, one entry per name; none is a 404, as Gitea. */
export async function listArtifacts(h: Hearth, c: V4Caller): Promise<ListedArtifact[]> {
  const rows = await confirmedArtifactsOfRun(h.db, c.runId);
  const names = [...new Set(rows.map((r) => r.artifact_name))];
  if (!names.length) throw new NotFoundError('Not Found');
  return names.map((name) => ({ name, fileContainerResourceUrl: artifactUrl(h, c.runId, nameHash(name), 'download_url') }));
}

export type ContainerItem = { path: string; itemType: 'file'; contentLocation: string };

/** The files of one artifact (?itemPath=<name>) with the address of each one's bytes. */
export async function containerItems(h: Hearth, c: V4Caller, hash: string, itemPath: string): Promise<ContainerItem[]> {
  const name = cleanRelPath(itemPath);
  if (nameHash(name) !== hash) throw new BadRequestError('Invalid artifact hash');
  const rows = await m.rowsOfArtifact(h.db, c.runId, name, 'confirmed');
  if (!rows.length) throw new NotFoundError('Not Found');
  return rows.map((a) => ({
    path: cleanRelPath(name, a.artifact_path), itemType: 'file', contentLocation: artifactUrl(h, c.runId, String(a.id), 'download'),
  }));
}

export type V3File = { key: string; size: number; name: string; gzip: boolean; modified: number };

/** The stored bytes of one file of the run's artifacts, as uploaded (gzip stays gzip). */
export async function downloadFile(h: Hearth, c: V4Caller, idParam: string): Promise<V3File> {
  const a = /^\d+$/.test(idParam) ? await m.artifactById(h.db, Number(idParam)) : undefined;
  if (!a) throw new NotFoundError(`artifact with ID ${idParam} does not exist`);
  if (a.run_id !== c.runId) throw new BadRequestError('Bad Request');
  const stored = a.status === 'confirmed' ? await statArtifact(h.blobs, a.storage_path) : null;
  if (!stored) throw new NotFoundError(`artifact with ID ${idParam} does not exist`);
  return { key: stored.key, size: stored.size, name: a.artifact_name, gzip: a.content_encoding === 'gzip', modified: a.created_unix };
}
