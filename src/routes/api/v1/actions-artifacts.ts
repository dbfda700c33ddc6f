import type { Request, Response } from 'express';
import { toApiArtifact } from '../../../convert/actions-run';
import {
  artifactDownloadUrl, deleteArtifact, getArtifact, listArtifacts, signedArtifactFile,
} from '../../../services/actions/api-artifacts';
import { getRun } from '../../../services/actions/api-runs';
import { repoOf } from '../../context';
import { queryString } from '../../query';
import { sendStored } from '../../stored-send';

// .../actions/artifacts and .../actions/runs/{run}/artifacts; the zip download redirects to a
// signed address (.../zip/raw?sig=&expires=) that serves the bytes, as Gitea.

const idParam = (req: Request, name: string) => (/^\d+$/.test(String(req.params[name])) ? Number(req.params[name]) : 0);
const repoName = (req: Request) => ({ owner: repoOf(req).owner.name, name: repoOf(req).repo.name });

export async function list(req: Request, res: Response): Promise<void> {
  const rows = await listArtifacts(req.ctx.db, repoOf(req).repo.id, undefined, queryString(req, 'name') || undefined);
  res.json({ artifacts: rows.map((a) => toApiArtifact(req.ctx.config, repoName(req), a)), total_count: rows.length });
}

export async function listOfRun(req: Request, res: Response): Promise<void> {
  const { run } = await getRun(req.ctx.db, repoOf(req).repo.id, idParam(req, 'run'));
  const rows = await listArtifacts(req.ctx.db, run.repo_id, run.id, queryString(req, 'name') || undefined);
  res.json({ artifacts: rows.map((a) => toApiArtifact(req.ctx.config, repoName(req), a)), total_count: rows.length });
}

export async function get(req: Request, res: Response): Promise<void> {
  const a = await getArtifact(req.ctx.db, repoOf(req).repo.id, idParam(req, 'artifact_id'));
  res.json(toApiArtifact(req.ctx.config, repoName(req), a));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await deleteArtifact(req.ctx.db, repoOf(req).repo.id, idParam(req, 'artifact_id'));
  res.status(204).end();
}

export async function download(req: Request, res: Response): Promise<void> {
  const a = repoOf(req);
  const url = await artifactDownloadUrl(req.ctx.h, req.ctx.secret, { id: a.repo.id, owner: a.owner.name, name: a.repo.name }, idParam(req, 'artifact_id'));
  res.redirect(302, url);
}

export async function downloadRaw(req: Request, res: Response): Promise<void> {
  const expires = Number(queryString(req, 'expires'));
  const file = await signedArtifactFile(req.ctx.h, req.ctx.secret, { owner: String(req.params.owner ?? ''), repo: String(req.params.repo ?? '') }, idParam(req, 'artifact_id'), queryString(req, 'sig') ?? '', Number.isSafeInteger(expires) ? expires : 0);
  await sendStored(req, res, req.ctx.h.blobs, {
    key: file.key, size: file.size, contentType: 'application/zip', lastModified: new Date(file.modifiedMs),
    headers: { 'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}` },
  });
}
