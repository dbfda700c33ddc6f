import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiPushMirror } from '../../../convert/push-mirror';
import {
  createPushMirror, deleteRepoPushMirror, getRepoPushMirror, listRepoPushMirrors, syncRepoPushMirrors, type PushMirrorView,
} from '../../../services/mirror/push-mirror';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { pathParam } from '../../table';
import { named, parseBody } from '../../validate';

// /repos/{owner}/{repo}/push_mirrors and push_mirrors-sync (repository admins only, as Gitea).

// Gitea's CreatePushMirrorOption: no field is required by the binding; a JSON null is Go's zero value.
const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);
export const createSchema = named('CreatePushMirrorOption', z.object({
  remote_address: opt(z.string()),
  remote_username: opt(z.string()),
  remote_password: opt(z.string()),
  interval: opt(z.string()),
  sync_on_commit: opt(z.boolean()),
}));

const show = (v: PushMirrorView) => toApiPushMirror(v.mirror, v.repoName);
const nameOf = (req: Request) => pathParam(req, 'name');

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { mirrors, total } = await listRepoPushMirrors(req.ctx.h, repoOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(mirrors.map(show));
}

/** 200, as Gitea answers (its reference lists no 201). */
export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(createSchema, req.body);
  const created = await createPushMirror(req.ctx.h, repoOf(req), doerOf(req), {
    ...body, remote_address: body.remote_address ?? '',
  });
  res.json(show(created));
}

export async function get(req: Request, res: Response): Promise<void> {
  res.json(show(await getRepoPushMirror(req.ctx.h, repoOf(req), nameOf(req))));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await deleteRepoPushMirror(req.ctx.h, repoOf(req), nameOf(req));
  res.status(204).end();
}

/** Queues every push mirror of the repository; 200 with no body, as Gitea. */
export async function sync(req: Request, res: Response): Promise<void> {
  await syncRepoPushMirrors(req.ctx.h, repoOf(req));
  res.status(200).end();
}
