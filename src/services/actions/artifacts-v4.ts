import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { DB } from '../../db/connect';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import type { Hearth } from '../../hearth';
import type { ActionArtifact, ActionTask } from '../../db/schema';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { getRunJob } from '../../models/actions-engine';
import * as m from '../../models/actions-artifacts-v4';
import { getTask } from '../../models/actions-tasks';
import { ARTIFACTS, artifactKey, concatStored, removeUnder } from './artifact-files';
import { verifyRuntimeToken } from './runtime-token';
import { directUrl } from '../../lib/blob-storage/direct';

// The artifact v4 protocol of upload-artifact@v4 / download-artifact@v4 (Gitea's
// routers/api/actions/artifactsv4.go): twirp JSON calls authenticated by the runtime token, and
// blob-style uploads and downloads on signed addresses. Blocks wait in the blob storage under
// actions_artifacts/tmpv4/<run>/<id>/ until FinalizeArtifact joins them (in block-list order)
// into <run>/<id>-<random>.zip: each block is an object of its own, so any node may take it.

export const V4_BASE = 'twirp/github.actions.results.api.v1.ArtifactService';
const URL_SECONDS = 3600;

/** The instance handle (the name stays for the callers that spell it). */
export type V4Deps = Hearth;
export type V4Caller = { task: ActionTask; runId: number; jobId: number };

/** The running task a runtime token (Bearer) names. */
export async function v4Caller(h: Hearth, authorization: string | undefined): Promise<V4Caller> {
  const m1 = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  const claims = m1 ? verifyRuntimeToken(h.secret, m1[1]!.trim()) : null;
  const task = claims ? await getTask(h.db, claims.taskId) : undefined;
  if (!claims || !task || task.status !== 'running') throw new UnauthorizedError('Error runner api getting task');
  const job = await getRunJob(h.db, task.job_id);
  if (!job) throw new UnauthorizedError('Error runner api getting task');
  return { task, runId: job.run_id, jobId: job.id };
}

/** Gitea's validateRunIDV4: the run named in the body must be the task's. */
export function checkRun(c: V4Caller, rawRunId: unknown): void {
  if (Number(rawRunId) !== c.runId) throw new BadRequestError('Error runID not match');
}

const signKey = (secret: string) => crypto.createHmac('sha256', secret).update('actions-artifacts-v4').digest();

function signature(secret: string, endp: string, expires: string, name: string, taskId: number, artifactId: number): Buffer {
  return crypto.createHmac('sha256', signKey(secret)).update(`${endp}\0${expires}\0${name}\0${taskId}\0${artifactId}`).digest();
}

export function signedUrl(deps: V4Deps, endp: string, name: string, taskId: number, artifactId: number): string {
  const expires = String(nowUnix() + URL_SECONDS);
  const sig = signature(deps.secret, endp, expires, name, taskId, artifactId).toString('base64url');
  const q = new URLSearchParams({ sig, expires, artifactName: name, taskID: String(taskId), artifactID: String(artifactId) });
  return `${deps.config.server.root_url.replace(/\/?$/, '/')}${V4_BASE}/${endp}?${q}`;
}

export type SignedQuery = { sig?: string; expires?: string; artifactName?: string; taskID?: string; artifactID?: string };

/** The artifact a signed address names; a wrong or expired signature is 401, as Gitea. */
export async function verifySigned(h: Hearth, endp: string, q: SignedQuery): Promise<{ task: ActionTask; artifact: ActionArtifact; runId: number }> {
  const want = signature(h.secret, endp, q.expires ?? '', q.artifactName ?? '', Number(q.taskID), Number(q.artifactID));
  const got = Buffer.from(q.sig ?? '', 'base64url');
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) throw new UnauthorizedError('Error unauthorized');
  if (!(Number(q.expires) >= nowUnix())) throw new UnauthorizedError('Error link expired');
  const task = await getTask(h.db, Number(q.taskID));
  const job = task ? await getRunJob(h.db, task.job_id) : undefined;
  if (!task || !job) throw new NotFoundError('Error artifact not found');
  // As Gitea: the addresses serve only while the task that asked for them runs.
  if (task.status !== 'running') throw new UnauthorizedError('Error runner api getting task: task is not running');
  const artifact = await m.artifactByName(h.db, job.run_id, q.artifactName ?? '');
  if (!artifact) throw new NotFoundError('Error artifact not found');
  return { task, artifact, runId: job.run_id };
}

const tmpPrefix = (runId: number, artifactId: number) => `${ARTIFACTS}/tmpv4/${runId}/${artifactId}/`;

/** Drops the blocks of an upload that was never finalized. */
export async function removeUploadBlocks(store: BlobStorage, runId: number, artifactId: number): Promise<void> {
  await removeUnder(store, tmpPrefix(runId, artifactId));
}

export async function createArtifact(h: Hearth, c: V4Caller, name: string, expiresAt?: string): Promise<string> {
  if (!name || /[\\/":<>|*?\r\n]/.test(name)) throw new BadRequestError('invalid artifact name');
  const now = nowUnix();
  const days = h.config.actions.artifact_retention_days;
  const expired = expiresAt ? Math.floor(Date.parse(expiresAt) / 1000) : days ? now + days * 86400 : 0;
  let a = await m.artifactByName(h.db, c.runId, name);
  if (a) {
    await m.updateArtifact(h.db, a.id, { status: 'pending', file_size: 0, file_compressed_size: 0, updated_unix: now, expired_unix: expired || 0 });
  } else {
    a = await m.insertArtifact(h.db, {
      run_id: c.runId, runner_id: c.task.runner_id, repo_id: c.task.repo_id, owner_id: c.task.owner_id, commit_sha: c.task.commit_sha,
      artifact_name: name, artifact_path: `${name}.zip`, content_encoding: m.V4_ENCODING, status: 'pending',
      created_unix: now, updated_unix: now, expired_unix: expired || 0,
    });
  }
  await removeUploadBlocks(h.blobs, c.runId, a.id);
  return signedUrl(h, 'UploadArtifact', name, c.task.id, a.id);
}

const blockKey = (prefix: string, id: string) => `${prefix}block-${Buffer.from(id).toString('base64url')}`;
/** Appended bytes (appendBlock, or one whole PUT) are numbered objects, joined in that order. */
const appendKey = (prefix: string, n: number) => `${prefix}append-${String(n).padStart(8, '0')}`;

async function appendsOf(store: BlobStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const e of store.list(`${prefix}append-`)) keys.push(e.key);
  return keys.sort();
}

/** One PUT of the upload: a block (kept by id), the block list, or bytes appended in order. */
export async function uploadPart(
  deps: V4Deps, s: { artifact: ActionArtifact; runId: number }, comp: string, blockId: string, body: Readable,
): Promise<void> {
  const prefix = tmpPrefix(s.runId, s.artifact.id);
  const store = deps.blobs;
  if (comp === '') {
    // A single-shot blob PUT: the whole file at once, replacing what was appended before.
    for (const k of await appendsOf(store, prefix)) await store.remove(k);
    await store.put(appendKey(prefix, 0), body);
    return;
  }
  if (comp === 'block' || comp === 'appendBlock') {
    await store.put(blockId ? blockKey(prefix, blockId) : appendKey(prefix, (await appendsOf(store, prefix)).length), body);
    return;
  }
  if (comp.toLowerCase() === 'blocklist') {
    await store.put(`${prefix}blocklist.xml`, body, { maxSize: 16 * 1024 * 1024 });
    return;
  }
  throw new BadRequestError(`unknown comp ${comp}`);
}

/** The block ids of an Azure block list, in order (Latest, Committed or Uncommitted entries). */
function blockIds(xml: string): string[] {
  return [...xml.matchAll(/<(?:Latest|Committed|Uncommitted)>([^<]*)<\/(?:Latest|Committed|Uncommitted)>/g)].map((x) => x[1]!.trim());
}

async function readText(store: BlobStorage, key: string): Promise<string | null> {
  if (!(await store.stat(key))) return null;
  const out: Buffer[] = [];
  for await (const c of await store.open(key)) out.push(c as Buffer);
  return Buffer.concat(out).toString('utf8');
}

/** The uploaded parts in their order: the block list's, else the appended bytes. */
async function partKeys(store: BlobStorage, prefix: string): Promise<string[]> {
  const list = await readText(store, `${prefix}blocklist.xml`);
  const keys = list !== null ? blockIds(list).map((id) => blockKey(prefix, id)) : await appendsOf(store, prefix);
  for (const k of keys) if (!(await store.stat(k))) throw new BadRequestError('Error merge chunks');
  return keys;
}

/** Joins the uploaded parts into the artifact's file, checks the hash, marks it confirmed. */
export async function finalizeArtifact(h: Hearth, c: V4Caller, name: string, hash?: string): Promise<number> {
  const a = await m.artifactByName(h.db, c.runId, name);
  if (!a) throw new NotFoundError('Error artifact not found');
  const prefix = tmpPrefix(c.runId, a.id);
  const parts = await partKeys(h.blobs, prefix);
  const storagePath = `${c.runId}/${a.id}-${crypto.randomBytes(4).toString('hex')}.zip`;
  const target = artifactKey(storagePath)!;
  const r = await h.blobs.put(target, concatStored(h.blobs, parts));
  if (hash && hash.replace(/^sha256:/, '') !== r.hashes.sha256) {
    await h.blobs.remove(target);
    throw new BadRequestError('Error merge chunks: checksum mismatch');
  }
  await removeUploadBlocks(h.blobs, c.runId, a.id);
  await m.updateArtifact(h.db, a.id, { status: 'confirmed', file_size: r.size, file_compressed_size: r.size, storage_path: storagePath, updated_unix: nowUnix() });
  return a.id;
}

export async function listArtifacts(db: DB, c: V4Caller, filter: { name?: string; id?: number }): Promise<ActionArtifact[]> {
  const rows = await m.confirmedArtifactsOfRun(db, c.runId);
  const seen = new Set<string>();
  return rows.filter((a) => {
    if (a.content_encoding !== m.V4_ENCODING || a.artifact_path !== `${a.artifact_name}.zip`) return false;
    if (filter.name !== undefined && a.artifact_name !== filter.name) return false;
    if (filter.id !== undefined && a.id !== filter.id) return false;
    return !seen.has(a.artifact_name) && !!seen.add(a.artifact_name);
  });
}

export async function downloadUrl(h: Hearth, c: V4Caller, name: string): Promise<string> {
  const a = await m.artifactByName(h.db, c.runId, name);
  if (!a || a.status !== 'confirmed') throw new NotFoundError('Error artifact not found');
  // [storage] serve_direct: the runner fetches from the bucket, as Gitea's getSignedArtifactURL.
  const key = artifactKey(a.storage_path);
  const direct = key ? await directUrl(h.config, h.blobs, key, { contentType: 'application/zip' }) : null;
  return direct ?? signedUrl(h, 'DownloadArtifact', name, c.task.id, a.id);
}

export async function deleteArtifact(db: DB, c: V4Caller, name: string): Promise<number> {
  const a = await m.artifactByName(db, c.runId, name);
  if (!a) throw new NotFoundError('Error artifact not found');
  await m.updateArtifact(db, a.id, { status: 'pending-deletion', updated_unix: nowUnix() });
  return a.id;
}
