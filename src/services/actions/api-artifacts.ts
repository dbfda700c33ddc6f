import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import type { ActionArtifact } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { isV4Artifact } from '../../models/actions-artifacts-v4';
import * as q from '../../models/actions-run-query';
import { getRepoByOwnerAndName } from '../../models/repo';
import { getUserByName } from '../../models/user';
import { artifactKey, statArtifact } from './artifact-files';
import { directUrl } from '../../lib/blob-storage/direct';
import type { Hearth } from '../../hearth';

// Artifacts through the REST API (Gitea's routers/api/v1/repo/action.go). Status values:
// pending (uploading), confirmed, expired, pending-deletion, deleted. The zip download answers
// 302 to a signed address valid for an hour, as Gitea's buildSigURL; that address needs no
// other credentials (a browser or curl follows it without the token).

const SIGNED_URL_SECONDS = 3600;

/** One entry per (run, name), should a name have more than one uploaded zip. */
function firstPerName(rows: ActionArtifact[]): ActionArtifact[] {
  const seen = new Set<string>();
  return rows.filter((a) => {
    const key = `${a.run_id}\0${a.artifact_name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function listArtifacts(db: DB, repoId: number, runId: number | undefined, name: string | undefined): Promise<ActionArtifact[]> {
  return firstPerName(await q.findArtifacts(db, { repoId, runId, name }));
}

/**
 * Gitea's getArtifactByPathParam: only uploaded (confirmed or expired) artifacts of the
 * repository; and, as its handlers, only v4 ones ("v3 not supported due to not having one unique id").
 */
export async function getArtifact(db: DB, repoId: number, id: number): Promise<ActionArtifact> {
  const a = Number.isSafeInteger(id) && id > 0 ? await q.getArtifactOfRepo(db, repoId, id) : undefined;
  if (!a || (a.status !== 'confirmed' && a.status !== 'expired')) throw new NotFoundError('artifact not found');
  if (!isV4Artifact(a)) throw new NotFoundError('Artifact not found');
  return a;
}

/** Marked for deletion; cleanup_actions removes the bytes (Gitea's SetArtifactNeedDelete). */
export async function deleteArtifact(db: DB, repoId: number, id: number): Promise<void> {
  const a = await getArtifact(db, repoId, id);
  await q.markArtifactsDeleted(db, a.run_id, a.artifact_name, nowUnix());
}

function signature(instanceSecret: string, endpoint: string, expires: number, id: number): string {
  const key = crypto.hkdfSync('sha256', Buffer.from(instanceSecret, 'utf8'), Buffer.alloc(0), 'hearth:actions-artifact-url', 32);
  return crypto.createHmac('sha256', Buffer.from(key)).update(`${endpoint}${expires}${id}`).digest('base64url');
}

const rawEndpoint = (owner: string, repo: string, id: number) =>
  `api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/actions/artifacts/${id}/zip/raw`;

/** The signed address of an artifact's zip (404 when expired). */
export async function artifactDownloadUrl(
  h: Hearth, instanceSecret: string, repo: { id: number; owner: string; name: string }, id: number,
): Promise<string> {
  const a = await getArtifact(h.db, repo.id, id);
  if (a.status === 'expired') throw new NotFoundError('Artifact has expired');
  // [storage] serve_direct: the bucket's presigned URL instead (Gitea's DownloadArtifactV4ServeDirectOnly).
  const key = artifactKey(a.storage_path);
  const direct = key ? await directUrl(h.config, h.blobs, key, { filename: `${a.artifact_name}.zip`, contentType: 'application/zip' }) : null;
  if (direct) return direct;
  const endpoint = rawEndpoint(repo.owner, repo.name, a.id);
  const expires = nowUnix() + SIGNED_URL_SECONDS;
  return `${h.config.server.root_url}${endpoint}?sig=${signature(instanceSecret, endpoint, expires, a.id)}&expires=${expires}`;
}

export type ArtifactFile = { key: string; size: number; modifiedMs: number; filename: string };

/** The bytes behind a signed address: a wrong or expired signature is a 404, as any unknown artifact. */
export async function signedArtifactFile(
  h: Hearth, instanceSecret: string, path: { owner: string; repo: string }, id: number, sig: string, expires: number,
): Promise<ArtifactFile> {
  const expected = signature(instanceSecret, rawEndpoint(path.owner, path.repo, id), expires, id);
  const ok = sig.length === expected.length && crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
  if (!ok || expires < nowUnix()) throw new NotFoundError('artifact not found');
  const owner = await getUserByName(h.db, path.owner);
  const repo = owner && (await getRepoByOwnerAndName(h.db, owner.id, path.repo));
  if (!repo) throw new NotFoundError('artifact not found');
  const a = await getArtifact(h.db, repo.id, id);
  const stored = await statArtifact(h.blobs, a.storage_path);
  if (!stored) throw new NotFoundError('artifact not found');
  return { key: stored.key, size: stored.size, modifiedMs: stored.modifiedMs, filename: `${a.artifact_name}.zip` };
}
