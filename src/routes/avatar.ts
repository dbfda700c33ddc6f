import type { Request, Response } from 'express';
import { identiconPng } from '../lib/image/identicon';
import { Lru } from '../lib/lru';
import { ownedCopy } from '../lib/owned-copy';
import { findUploadedAvatar, type AvatarKind } from '../services/user/avatars';

// Listings show the same few generated avatars over and over: each PNG is drawn once.
const generated = new Lru<string, Buffer>(256);

/** GET /avatars/{hash}: an uploaded avatar (its hash names it), else a generated identicon PNG. */
export async function avatar(req: Request, res: Response): Promise<void> {
  if (await sendUploaded(req, res, 'user')) return;
  const seed = String(req.params.hash);
  let png = generated.get(seed);
  if (!png) generated.set(seed, (png = ownedCopy(identiconPng(seed))));
  res.type('image/png').setHeader('Cache-Control', 'public, max-age=86400');
  res.send(png);
}

/** GET /repo-avatars/{hash}: a repository has no generated avatar (its avatar_url is empty). */
export async function repoAvatar(req: Request, res: Response): Promise<void> {
  if (await sendUploaded(req, res, 'repo')) return;
  res.status(404).type('text/plain').send('Not found');
}

async function sendUploaded(req: Request, res: Response, kind: AvatarKind): Promise<boolean> {
  const uploaded = await findUploadedAvatar(req.ctx.h, kind, String(req.params.hash));
  if (!uploaded) return false;
  // The hash changes with the picture: what a URL names never changes.
  res.type(uploaded.type).setHeader('Cache-Control', 'public, max-age=604800, immutable');
  res.send(uploaded.data);
  return true;
}
