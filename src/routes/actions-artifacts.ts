import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { Hearth } from '../hearth';
import { isoTime } from '../lib/time';
import { AppError, NotFoundError } from '../lib/errors';
import { statArtifact } from '../services/actions/artifact-files';
import * as v4 from '../services/actions/artifacts-v4';
import { sendStored } from './stored-send';

// The artifact v4 protocol at /twirp/github.actions.results.api.v1.ArtifactService/... (Gitea's
// ArtifactsV4Routes): twirp JSON (protojson: camelCase out, either case in, int64 as strings)
// with the runtime token, and the signed UploadArtifact / DownloadArtifact addresses.

type Body = Record<string, unknown>;
const field = (b: Body, snake: string, camel: string) => b[snake] ?? b[camel];
/** A protobuf wrapper (StringValue, Int64Value) in JSON is the bare value. */
const wrapped = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);

export function actionsArtifactsRouter(h: Hearth): Router {
  const router = express.Router();

  const db = h.db;
  const json = express.json({ type: () => true, limit: '1mb' });

  const caller = async (req: Request) => {
    const c = await v4.v4Caller(h, req.get('Authorization'));
    const body = (req.body ?? {}) as Body;
    v4.checkRun(c, field(body, 'workflow_run_backend_id', 'workflowRunBackendId'));
    return { c, body };
  };
  const reply = (res: Response, data: unknown) => { res.type('application/json;charset=utf-8').send(JSON.stringify(data)); };

  router.post('/CreateArtifact', json, async (req, res) => {
    const { c, body } = await caller(req);
    const expires = field(body, 'expires_at', 'expiresAt');
    const url = await v4.createArtifact(h, c, String(body.name ?? ''), typeof expires === 'string' ? expires : undefined);
    reply(res, { ok: true, signedUploadUrl: url });
  });
  router.post('/FinalizeArtifact', json, async (req, res) => {
    const { c, body } = await caller(req);
    const hash = wrapped(body.hash);
    const id = await v4.finalizeArtifact(h, c, String(body.name ?? ''), typeof hash === 'string' ? hash : undefined);
    reply(res, { ok: true, artifactId: String(id) });
  });
  router.post('/ListArtifacts', json, async (req, res) => {
    const { c, body } = await caller(req);
    const name = wrapped(field(body, 'name_filter', 'nameFilter'));
    const id = wrapped(field(body, 'id_filter', 'idFilter'));
    const rows = await v4.listArtifacts(db, c, { name: name === undefined ? undefined : String(name), id: id === undefined ? undefined : Number(id) });
    reply(res, {
      artifacts: rows.map((a) => ({
        workflowRunBackendId: String(c.runId), workflowJobRunBackendId: String(field(body, 'workflow_job_run_backend_id', 'workflowJobRunBackendId') ?? c.jobId),
        databaseId: String(a.id), name: a.artifact_name, size: String(a.file_size), createdAt: isoTime(a.created_unix),
      })),
    });
  });
  router.post('/GetSignedArtifactURL', json, async (req, res) => {
    const { c, body } = await caller(req);
    reply(res, { signedUrl: await v4.downloadUrl(h, c, String(body.name ?? '')) });
  });
  router.post('/DeleteArtifact', json, async (req, res) => {
    const { c, body } = await caller(req);
    reply(res, { ok: true, artifactId: String(await v4.deleteArtifact(db, c, String(body.name ?? ''))) });
  });

  router.put('/UploadArtifact', async (req, res) => {
    const s = await v4.verifySigned(h, 'UploadArtifact', req.query as v4.SignedQuery);
    const comp = String(req.query.comp ?? '');
    await v4.uploadPart(h, s, comp, String(req.query.blockid ?? ''), req);
    res.status(201).json(comp.toLowerCase() === 'blocklist' ? 'created' : 'appended');
  });
  router.get('/DownloadArtifact', async (req, res) => {
    const s = await v4.verifySigned(h, 'DownloadArtifact', req.query as v4.SignedQuery);
    const stored = s.artifact.status === 'confirmed' ? await statArtifact(h.blobs, s.artifact.storage_path) : null;
    if (!stored) throw new NotFoundError('Error artifact not found');
    await sendStored(req, res, h.blobs, { key: stored.key, size: stored.size, contentType: 'application/zip', lastModified: new Date(stored.modifiedMs) });
  });
  router.use(plainTextErrors);
  return router;
}

/** Plain-text errors with the status, as Gitea's ctx.HTTPError (the v3 protocol's too). */
export const plainTextErrors: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err);
  if (err instanceof AppError) {
    res.status(err.status).type('text/plain').send(err.message);
    return;
  }
  next(err);
};
