import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Hearth } from '../hearth';
import type { V4Caller } from '../services/actions/artifacts-v4';
import * as v3 from '../services/actions/artifacts-v3';
import { plainTextErrors } from './actions-artifacts';
import { sendStored } from './stored-send';

// The artifact v3 protocol at /api/actions_pipeline/ (Gitea's ArtifactsRoutes), what
// @actions/artifact 1.x calls with ACTIONS_RUNTIME_URL and ACTIONS_RUNTIME_TOKEN:
//   POST  .../workflows/{run}/artifacts                      → the upload address of an artifact
//   PUT   .../artifacts/{md5(name)}/upload?itemPath=n/p      ← one chunk of one file (Content-Range)
//   PATCH .../artifacts?artifactName=n                       → the artifact's complete files confirmed
//   GET   .../artifacts                                      → the run's artifacts
//   GET   .../artifacts/{md5(name)}/download_url?itemPath=n  → its files
//   GET   .../artifacts/{id}/download                        → one file's bytes

const BASE = '/_apis/pipelines/workflows/:run_id/artifacts';

const header = (req: Request, name: string) => req.get(name) || undefined;
const intHeader = (req: Request, name: string) => (/^\d+$/.test(req.get(name) ?? '') ? Number(req.get(name)) : undefined);
const query = (req: Request, name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
const callerOf = (res: Response) => res.locals.artifactCaller as V4Caller;

export function actionsArtifactsV3Router(h: Hearth): Router {
  const router = express.Router();


  const json = express.json({ type: () => true, limit: '1mb' });

  // Every call: the runtime token's running task, and the run in the path must be its own.
  const authenticate: RequestHandler = async (req, res, next) => {
    const c = await v3.v3Caller(h, req.get('Authorization'));
    v3.checkRun(c, String(req.params.run_id));
    res.locals.artifactCaller = c;
    next();
  };
  router.use(BASE, authenticate);

  router.post(BASE, json, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const url = v3.uploadUrl(h, callerOf(res), String(body.Name ?? body.name ?? ''), body.RetentionDays ?? body.retentionDays);
    res.json({ fileContainerResourceUrl: url });
  });
  router.put(`${BASE}/:hash/upload`, async (req, res) => {
    await v3.uploadChunk(h, callerOf(res), {
      hash: String(req.params.hash), itemPath: query(req, 'itemPath') ?? '', retentionDays: query(req, 'retentionDays'),
      contentRange: header(req, 'Content-Range'), contentLength: intHeader(req, 'Content-Length'),
      fileLength: intHeader(req, 'x-tfs-filelength'), contentEncoding: header(req, 'Content-Encoding'),
      md5: header(req, 'x-actions-results-md5'),
    }, req);
    res.json({ message: 'success' });
  });
  router.patch(BASE, async (req, res) => {
    await v3.confirmArtifact(h, callerOf(res), query(req, 'artifactName'));
    res.json({ message: 'success' });
  });
  router.get(BASE, async (_req, res) => {
    const value = await v3.listArtifacts(h, callerOf(res));
    res.json({ count: value.length, value });
  });
  router.get(`${BASE}/:hash/download_url`, async (req, res) => {
    res.json({ value: await v3.containerItems(h, callerOf(res), String(req.params.hash), query(req, 'itemPath') ?? '') });
  });
  router.get(`${BASE}/:id/download`, async (req, res) => {
    const f = await v3.downloadFile(h, callerOf(res), String(req.params.id));
    await sendStored(req, res, h.blobs, {
      key: f.key, size: f.size, contentType: 'application/octet-stream', lastModified: new Date(f.modified * 1000),
      headers: {
        'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`,
        // Gzip-encoded uploads are served as stored; the client decodes by this header.
        ...(f.gzip ? { 'Content-Encoding': 'gzip' } : {}),
      },
    });
  });
  router.use(plainTextErrors);
  return router;
}
