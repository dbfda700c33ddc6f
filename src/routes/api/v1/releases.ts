import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiRelease, toApiReleaseAsset } from '../../../convert/release';
import { uploadTmpDir } from '../../../services/issue/attachment-files';
import { ACCESS } from '../../../services/permissions';
import * as assets from '../../../services/release/release-assets';
import * as write from '../../../services/release/release-write';
import * as read from '../../../services/release/releases';
import { doerOf, repoOf } from '../../context';
import { repoUnitAccess } from '../../middleware/repo-guards';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryBool, queryString } from '../../query';
import { pathParam } from '../../table';
import { receiveFile } from '../../upload';
import { receiveRawBody } from '../../upload-raw';
import { named, parseBody } from '../../validate';

// /repos/{owner}/{repo}/releases and their assets: guarded by the releases unit, as Gitea.

export const releaseReader = repoUnitAccess('repo.releases', ACCESS.read);
export const releaseWriter = repoUnitAccess('repo.releases', ACCESS.write);

/** Non-numeric ids name nothing (Gitea reads them as 0). */
const idParam = (req: Request, name: string) => {
  const v = String(req.params[name] ?? '');
  return /^\d+$/.test(v) ? Number(v) : -1;
};

const send = (req: Request, res: Response, view: read.ReleaseView, status = 200) => {
  res.status(status).json(toApiRelease(req.ctx.config, repoOf(req), view));
};

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const access = repoOf(req);
  const { items, total } = await read.listReleases(req.ctx.db, access, req.ctx.doer, {
    draft: queryBool(req, 'draft'), prerelease: queryBool(req, 'pre-release'), offset: page.offset, limit: page.limit,
  });
  setPaginationHeaders(req, res, total, page);
  res.json(items.map((v) => toApiRelease(req.ctx.config, access, v)));
}

export async function get(req: Request, res: Response): Promise<void> {
  send(req, res, await read.getRelease(req.ctx.db, repoOf(req), req.ctx.doer, idParam(req, 'id')));
}

export async function latest(req: Request, res: Response): Promise<void> {
  send(req, res, await read.getLatestRelease(req.ctx.db, repoOf(req)));
}

export async function getByTag(req: Request, res: Response): Promise<void> {
  send(req, res, await read.getReleaseByTag(req.ctx.db, repoOf(req), req.ctx.doer, pathParam(req, 'tag')));
}

export const createSchema = named('CreateReleaseOption', z.object({
  tag_name: z.string().min(1).max(255),
  target_commitish: z.string().nullish(),
  name: z.string().nullish(),
  body: z.string().nullish(),
  draft: z.boolean().nullish(),
  prerelease: z.boolean().nullish(),
  tag_message: z.string().nullish(),
}));

export async function create(req: Request, res: Response): Promise<void> {
  const b = parseBody(createSchema, req.body);
  const view = await write.createRelease(req.ctx.h, repoOf(req), doerOf(req), {
    tag_name: b.tag_name, target: b.target_commitish ?? undefined, title: b.name ?? undefined, note: b.body ?? undefined,
    draft: b.draft ?? false, prerelease: b.prerelease ?? false, tag_message: b.tag_message ?? undefined,
  });
  send(req, res, view, 201);
}

export const editSchema = named('EditReleaseOption', z.object({
  tag_name: z.string().max(255).nullish(),
  target_commitish: z.string().nullish(),
  name: z.string().nullish(),
  body: z.string().nullish(),
  draft: z.boolean().nullish(),
  prerelease: z.boolean().nullish(),
}));

export async function edit(req: Request, res: Response): Promise<void> {
  const b = parseBody(editSchema, req.body);
  const view = await write.editRelease(req.ctx.h, repoOf(req), doerOf(req), idParam(req, 'id'), {
    tag_name: b.tag_name ?? undefined, target: b.target_commitish ?? undefined, title: b.name ?? undefined,
    note: b.body ?? undefined, draft: b.draft ?? undefined, prerelease: b.prerelease ?? undefined,
  });
  send(req, res, view);
}

export async function remove(req: Request, res: Response): Promise<void> {
  await write.deleteReleaseById(req.ctx.h, repoOf(req), idParam(req, 'id'), doerOf(req));
  res.status(204).end();
}

export async function removeByTag(req: Request, res: Response): Promise<void> {
  await write.deleteReleaseByTag(req.ctx.h, repoOf(req), pathParam(req, 'tag'), doerOf(req));
  res.status(204).end();
}

// Assets

export async function listAssets(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { release, assets: rows } = await assets.listAssets(req.ctx.db, access, req.ctx.doer, idParam(req, 'id'));
  res.json(rows.map((a) => toApiReleaseAsset(req.ctx.config, access, release, a)));
}

export async function getAsset(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { release, asset } = await assets.getAsset(req.ctx.db, access, req.ctx.doer, idParam(req, 'id'), idParam(req, 'attachment_id'));
  res.json(toApiReleaseAsset(req.ctx.config, access, release, asset));
}

/** A multipart form's `attachment` file, or else the body itself (named by `?name=`). */
export async function createAsset(req: Request, res: Response): Promise<void> {
  const { db, config } = req.ctx;
  const access = repoOf(req);
  // The release is settled before the body is read: 404 comes first, as in Gitea.
  const release = await read.visibleRelease(db, access, req.ctx.doer, idParam(req, 'id'));
  const limits = { tmpDir: uploadTmpDir(req.ctx.h), maxBytes: config.attachment.max_size * 1024 * 1024 };
  const multipart = /^multipart\/form-data/i.test(String(req.headers['content-type'] ?? ''));
  const file = multipart ? await receiveFile(req, res, { field: 'attachment', ...limits }) : await receiveRawBody(req, limits);
  const asset = await assets.storeAsset(req.ctx.h, access, doerOf(req), release, file, queryString(req, 'name'));
  res.status(201).json(toApiReleaseAsset(config, access, release, asset));
}

export const editAssetSchema = named('EditAttachmentOptions', z.object({ name: z.string().nullish() }));

export async function editAsset(req: Request, res: Response): Promise<void> {
  const b = parseBody(editAssetSchema, req.body);
  const access = repoOf(req);
  const { release, asset } = await assets.renameAsset(
    req.ctx.h, access, doerOf(req), idParam(req, 'id'), idParam(req, 'attachment_id'), b.name ?? '',
  );
  // Gitea answers an edited asset with 201.
  res.status(201).json(toApiReleaseAsset(req.ctx.config, access, release, asset));
}

export async function removeAsset(req: Request, res: Response): Promise<void> {
  await assets.deleteAsset(req.ctx.h, repoOf(req), doerOf(req), idParam(req, 'id'), idParam(req, 'attachment_id'));
  res.status(204).end();
}
