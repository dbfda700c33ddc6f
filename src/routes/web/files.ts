import type { Request, Response } from 'express';
import { openArchive } from '../../services/repo/archive';
import { mediaFileAt, rawFileAt } from '../../services/repo/contents-raw';
import { resolveLegacyRef, resolveTypedRef, splitRefKind, type WebTarget } from '../../services/web/refs';
import type { RepoAccess } from '../../services/repo/repos';
import { sendBlob } from '../blob-send';
import { repoOf } from '../context';
import { sendArchive } from '../stream';
import { pathParam } from '../table';

// Files and archives outside the API, where download_url, raw_url, tarball_url and zipball_url
// point: `raw/{branch|tag|commit}/{ref}/{path}` (and Gitea's older `raw/{ref}/{path}`),
// `media/...` (the LFS object a pointer names, else the blob) and `archive/{ref}.zip|.tar.gz|.bundle`.

/** `{kind}/{ref}/{path}` or the older `{ref}/{path}`, from the wildcard `rest`. */
export async function targetOf(req: Request, access: RepoAccess): Promise<WebTarget> {
  const rest = pathParam(req, 'rest');
  const typed = splitRefKind(rest);
  if (typed) return resolveTypedRef(req.ctx.config, access, typed.kind, typed.rest);
  return resolveLegacyRef(req.ctx.config, access, rest);
}

/** GET /{owner}/{repo}/raw/... and /media/...: the file's bytes. */
export async function rawFile(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const target = await targetOf(req, access);
  const file = await rawFileAt(req.ctx.config, access, target.ref, target.path);
  res.setHeader('Cache-Control', target.ref.kind === 'commit' ? 'private, max-age=86400' : 'private, no-cache');
  await sendBlob(req, res, file);
}

/** GET /{owner}/{repo}/media/...: as raw, but the LFS object a pointer file names. */
export async function mediaFile(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const target = await targetOf(req, access);
  const file = await mediaFileAt(req.ctx.h, access, target.ref, target.path);
  res.setHeader('Cache-Control', target.ref.kind === 'commit' ? 'private, max-age=86400' : 'private, no-cache');
  await sendBlob(req, res, file);
}

/** GET /{owner}/{repo}/archive/{ref}.{zip|tar.gz|bundle}, streamed from git. */
export async function archive(req: Request, res: Response): Promise<void> {
  const d = await openArchive(req.ctx.config, repoOf(req), pathParam(req, 'archive'));
  await sendArchive(req, res, d, { 'Cache-Control': 'private, max-age=300' });
}

/** GET /attachments/{uuid}: an issue, comment or release attachment (404 when hidden). */
export { downloadAttachment as attachment } from '../attachment';
