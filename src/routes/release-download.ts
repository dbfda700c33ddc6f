import type { Request, Response } from 'express';
import { hasScope } from '../lib/scopes';
import { openReleaseAsset } from '../services/release/release-assets';
import { lookupRepo } from '../services/repo/repos';
import { sendAttachmentFile } from './attachment';
import { pathParam } from './table';

// GET /{owner}/{repo}/releases/download/{tag}/{name}: a release asset by tag and file name,
// outside the API as in Gitea (browser_download_url points here). Those who may not read the
// repository's releases get 404, so a private repository's files do not even show to exist.

const encodePath = (s: string) => s.split('/').map(encodeURIComponent).join('/');

/** As the web pages: credentials count only when they may read repositories. */
function viewerOf(req: Request) {
  const scopes = req.ctx.scopes;
  if (scopes && (scopes.publicOnly || !hasScope(scopes, 'repository', 'read'))) return null;
  return req.ctx.doer;
}

export async function downloadReleaseAsset(req: Request, res: Response): Promise<void> {
  const { db } = req.ctx;
  const tag = pathParam(req, 'tag');
  const name = String(req.params.name ?? '');
  const viewer = viewerOf(req);
  const found = await lookupRepo(db, String(req.params.owner), String(req.params.repo), viewer);
  if ('redirectTo' in found) {
    const { owner, name: repo } = found.redirectTo;
    res.redirect(307, `/${encodePath(owner)}/${encodePath(repo)}/releases/download/${encodePath(tag)}/${encodeURIComponent(name)}`);
    return;
  }
  await sendAttachmentFile(req, res, await openReleaseAsset(req.ctx.h, found, viewer, tag, name));
}
