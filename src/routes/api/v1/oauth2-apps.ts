import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiOAuth2App } from '../../../convert/oauth2-app';
import {
  createOAuth2App, deleteOAuth2App, getOAuth2App, listOAuth2Apps, updateOAuth2App, type OAuth2AppInput,
} from '../../../services/user/oauth2-apps';
import { doerOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { named, parseBody } from '../../validate';

// CreateOAuth2ApplicationOptions, for create and update alike (an update replaces every field).
export const optionsSchema = named('CreateOAuth2ApplicationOptions', z.object({
  name: z.string().default(''),
  redirect_uris: z.array(z.string()).nullish(),
  confidential_client: z.boolean().default(false),
  skip_secondary_authorization: z.boolean().default(false),
}));

const inputOf = (req: Request): OAuth2AppInput => {
  const b = parseBody(optionsSchema, req.body);
  return {
    name: b.name, redirectUris: b.redirect_uris ?? [], confidentialClient: b.confidential_client,
    skipSecondaryAuthorization: b.skip_secondary_authorization, customSchemes: req.ctx.config.oauth2.custom_schemes,
  };
};

const idOf = (req: Request) => Number(req.params.id);

/** GET /user/applications/oauth2: paged, secrets never shown. */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { apps, total } = await listOAuth2Apps(req.ctx.db, doerOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(apps.map((a) => toApiOAuth2App(a)));
}

/** POST /user/applications/oauth2: 201 with the secret, the only time but updates show one. */
export async function create(req: Request, res: Response): Promise<void> {
  const { app, secret } = await createOAuth2App(req.ctx.db, doerOf(req), inputOf(req));
  res.status(201).json(toApiOAuth2App(app, secret));
}

/** GET /user/applications/oauth2/{id} */
export async function get(req: Request, res: Response): Promise<void> {
  res.json(toApiOAuth2App(await getOAuth2App(req.ctx.db, doerOf(req), idOf(req))));
}

/** PATCH /user/applications/oauth2/{id}: 200 with a regenerated secret, as Gitea. */
export async function update(req: Request, res: Response): Promise<void> {
  const { app, secret } = await updateOAuth2App(req.ctx.db, doerOf(req), idOf(req), inputOf(req));
  res.json(toApiOAuth2App(app, secret));
}

/** DELETE /user/applications/oauth2/{id} */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteOAuth2App(req.ctx.db, doerOf(req), idOf(req));
  res.status(204).end();
}
