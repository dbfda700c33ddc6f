import type { Request, Response } from 'express';
import { deleteUploadSession } from '../../services/packages/upload-session';
import {
  appendChunk, deleteBlob, finishUpload, getBlob, mountBlob, sessionOrUnknown, uploadMonolithic, type ImageRef,
} from '../../services/packages/container/blobs';
import { OCI } from '../../services/packages/container/errors';
import { deleteManifest, getManifest, MAX_MANIFEST_SIZE, putManifest } from '../../services/packages/container/manifests';
import { listTags } from '../../services/packages/container/tags';
import { incrementDownloadCount } from '../../services/packages/queries';
import { createUploadSession } from '../../services/packages/upload-session';
import { sendPackageBlob } from './send-blob';

// The handlers of /v2/{owner}/{image}/... (Gitea's routers/api/packages/container/container.go).
// Access is checked already (read for GET/HEAD, write otherwise).

type Handler = (req: Request, res: Response, ref: ImageRef, param: string) => Promise<void>;
export type ImageRoute = { kind: 'uploads' | 'upload' | 'blob' | 'manifest' | 'tags' };
type Methods = Partial<Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;

const base = (ref: ImageRef) => `/v2/${ref.owner.lower_name}/${ref.image}`;
const q = (req: Request, key: string) => (typeof req.query[key] === 'string' ? String(req.query[key]).trim() : '');

function blobCreated(res: Response, ref: ImageRef, digest: string): void {
  res.setHeader('Location', `${base(ref)}/blobs/${digest}`);
  res.setHeader('Docker-Content-Digest', digest);
  res.status(201).setHeader('Content-Length', '0').end();
}

function uploadStatus(res: Response, ref: ImageRef, id: string, bytes: number, status: number): void {
  res.setHeader('Location', `${base(ref)}/blobs/uploads/${id}`);
  res.setHeader('Range', `0-${Math.max(0, bytes - 1)}`);
  res.setHeader('Docker-Upload-UUID', id);
  res.status(status).setHeader('Content-Length', '0').end();
}

const hasBody = (req: Request) => Number(req.headers['content-length'] ?? 0) > 0 || !!req.headers['transfer-encoding'];

/** POST uploads/: a cross-repository mount, a monolithic upload (?digest=) or a new session. */
const startUpload: Handler = async (req, res, ref) => {
  const { db, doer } = req.ctx;
  const mount = q(req, 'mount');
  if (mount) {
    const digest = await mountBlob(req.ctx.h, ref, doer!, mount);
    if (digest) return blobCreated(res, ref, digest);
  }
  const digest = q(req, 'digest');
  if (digest) return blobCreated(res, ref, await uploadMonolithic(req.ctx.h, ref, doer!, req, digest));
  const session = await createUploadSession(db, req.ctx.h.blobs);
  uploadStatus(res, ref, session.id, 0, 202);
};

const uploadState: Handler = async (req, res, ref, id) => {
  const session = await sessionOrUnknown(req.ctx.db, id);
  uploadStatus(res, ref, id, session.bytesReceived, 204);
};

/** PATCH: a chunk; a Content-Range start other than the bytes so far is 416. */
const patchUpload: Handler = async (req, res, ref, id) => {
  const range = req.headers['content-range'];
  let start: number | undefined;
  if (range) {
    const m = /^(?:bytes[ =])?(\d+)-(\d+)/.exec(range);
    if (!m) throw OCI.blobUploadInvalid('invalid Content-Range');
    start = Number(m[1]);
  }
  const session = await appendChunk(req.ctx.h, req.ctx.doer!, id, req, start);
  uploadStatus(res, ref, id, session.bytesReceived, 202);
};

const putUpload: Handler = async (req, res, ref, id) => {
  const digest = q(req, 'digest');
  if (!digest) throw OCI.digestInvalid();
  blobCreated(res, ref, await finishUpload(req.ctx.h, ref, req.ctx.doer!, id, digest, hasBody(req) ? req : null));
};

const cancelUpload: Handler = async (req, res, _ref, id) => {
  await sessionOrUnknown(req.ctx.db, id);
  await deleteUploadSession(req.ctx.db, req.ctx.h.blobs, id);
  res.status(204).end();
};

const serveBlob: Handler = async (req, res, ref, digest) => {
  const { blob } = await getBlob(req.ctx.db, ref, digest);
  res.setHeader('Docker-Content-Digest', digest);
  await sendPackageBlob(req, res, { blob, contentType: 'application/octet-stream', directStatus: 307 });
};

const removeBlob: Handler = async (req, res, ref, digest) => {
  await deleteBlob(req.ctx.db, ref, digest);
  res.status(202).setHeader('Content-Length', '0').end();
};

/** The body of a manifest PUT, in memory up to Gitea's 10 MiB. */
async function readManifest(req: Request): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_MANIFEST_SIZE) throw OCI.manifestInvalid('manifest is too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const uploadManifest: Handler = async (req, res, ref, reference) => {
  const body = await readManifest(req);
  const digest = await putManifest(req.ctx.h, ref, req.ctx.doer!, reference, body, String(req.headers['content-type'] ?? ''));
  res.setHeader('Location', `${base(ref)}/manifests/${reference}`);
  res.setHeader('Docker-Content-Digest', digest);
  res.status(201).setHeader('Content-Length', '0').end();
};

const serveManifest: Handler = async (req, res, ref, reference) => {
  const m = await getManifest(req.ctx.db, ref, reference);
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, m.version);
  res.setHeader('Docker-Content-Digest', m.digest);
  await sendPackageBlob(req, res, { blob: m.blob, contentType: m.mediaType });
};

const removeManifest: Handler = async (req, res, ref, reference) => {
  await deleteManifest(req.ctx.h, ref, req.ctx.doer!, reference);
  res.status(202).setHeader('Content-Length', '0').end();
};

/** GET tags/list with n/last paging and a Link to the next page. */
const tagsList: Handler = async (req, res, ref) => {
  const n = Math.max(0, Number.parseInt(q(req, 'n'), 10) || 0);
  const tags = await listTags(req.ctx.db, ref, n, q(req, 'last'));
  const name = `${ref.owner.lower_name}/${ref.image}`;
  if (n && tags.length === n) res.setHeader('Link', `<${base(ref)}/tags/list?n=${n}&last=${encodeURIComponent(tags.at(-1)!)}>; rel="next"`);
  res.json({ name, tags });
};

export const IMAGE_ROUTES: Record<ImageRoute['kind'], Methods> = {
  uploads: { POST: startUpload },
  upload: { GET: uploadState, PATCH: patchUpload, PUT: putUpload, DELETE: cancelUpload },
  blob: { GET: serveBlob, HEAD: serveBlob, DELETE: removeBlob },
  manifest: { GET: serveManifest, HEAD: serveManifest, PUT: uploadManifest, DELETE: removeManifest },
  tags: { GET: tagsList },
};
