import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import { findUploadedAvatar } from '../services/user/avatars';

/** An uploaded avatar (its hash names it), else a generated identicon. */
export async function avatar(req: Request, res: Response): Promise<void> {
  const uploaded = await findUploadedAvatar(req.ctx.db, req.ctx.config, String(req.params.hash));
  if (uploaded) {
    res.type(uploaded.type).setHeader('Cache-Control', 'public, max-age=86400');
    res.send(uploaded.data);
    return;
  }
  identicon(req, res);
}

/** A deterministic identicon for `avatar_url`, so the links the API hands out resolve offline. */
function identicon(req: Request, res: Response): void {
  const hash = crypto.createHash('sha256').update(String(req.params.hash)).digest();
  const hue = (hash[0]! * 360) / 256;
  const cells: string[] = [];
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 3; x++) {
      if ((hash[1 + y * 3 + x]! & 1) === 0) continue;
      for (const cx of new Set([x, 4 - x])) cells.push(`<rect x="${cx + 1}" y="${y + 1}" width="1" height="1"/>`);
    }
  }
  res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400');
  res.send(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 7 7" width="280" height="280">`
    + `<rect width="7" height="7" fill="#f0f0f0"/><g fill="hsl(${hue.toFixed(0)},55%,50%)">${cells.join('')}</g></svg>`);
}
