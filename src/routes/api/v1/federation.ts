import type { NextFunction, Request, Response } from 'express';
import { avatarUrl } from '../../../convert/user';
import { NotFoundError } from '../../../lib/errors';
import { ACTIVITY_JSON, federatedUser, nodeInfo, personOf } from '../../../services/federation/actor';
import { verifyHttpSignature } from '../../../services/federation/http-signature';
import { pathParam } from '../../table';

// Federation ([federation] enabled, on by default): nodeinfo, the users' ActivityPub actors and
// their inboxes, as Gitea serves them.

/** Guard: with federation off these routes do not exist, as in Gitea. */
export function federationOn(req: Request, _res: Response, next: NextFunction): void {
  if (!req.ctx.config.federation.enabled) throw new NotFoundError('');
  next();
}

export async function getNodeInfo(req: Request, res: Response): Promise<void> {
  res.json(await nodeInfo(req.ctx.h));
}

export async function getPerson(req: Request, res: Response): Promise<void> {
  const { db, config } = req.ctx;
  const user = await federatedUser(db, Number(pathParam(req, 'user-id')));
  const person = await personOf(req.ctx.h, user, avatarUrl(config, user));
  res.status(200).type(ACTIVITY_JSON).send(JSON.stringify(person));
}

/** Accepted (signed) activities are answered 204, as Gitea; nothing acts on them yet. */
export async function postInbox(req: Request, res: Response): Promise<void> {
  const { db, config } = req.ctx;
  await federatedUser(db, Number(pathParam(req, 'user-id')));
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  await verifyHttpSignature(config, { method: req.method, path: req.originalUrl, headers: req.headers, body });
  res.status(204).end();
}

/** GET /.well-known/nodeinfo: where the nodeinfo document is. */
export function wellKnownNodeInfo(req: Request, res: Response): void {
  if (!req.ctx.config.federation.enabled) throw new NotFoundError('');
  res.json({ links: [{ href: `${req.ctx.config.server.root_url}api/v1/nodeinfo`, rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1' }] });
}
