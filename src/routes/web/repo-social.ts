import type { Request, RequestHandler, Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { knownSocialState, setStar, socialStateOf, subscribe, unsubscribe } from '../../services/repo/stars';
import { transferViewFor } from '../../services/repo/transfer';
import { csrfInput } from './forms';
import { repoOf, unitsOf } from './guards';
import { text } from './issue-actions';
import { repoLink } from './layout';
import { setSocial } from './repo-social-state';

// The watch and star forms of the repository header (repo-social-state.ts draws them): the
// viewer's state read before each repository page, and Gitea's
// /{owner}/{repo}/action/{watch,unwatch,star,unstar} posts, answered back to the page they came from.

/** Loads the signed-in viewer's watch and star state of the request's repository (pages only). */
export const repoSocial: RequestHandler = async (req, res, next) => {
  const { db, config, doer } = req.ctx;
  if (doer && req.method === 'GET') {
    const access = repoOf(req);
    const { watching, starred, transferPending } = knownSocialState(doer, access) ?? await socialStateOf(db, doer, access);
    // A transfer this visitor may answer shows as a banner on the page (layout.ts sendPage);
    // whether one is pending, and which, is kept for the page (the settings' danger zone).
    res.locals.transferPending = transferPending;
    if (transferPending) {
      const { pending, offer } = await transferViewFor(db, doer, access.repo);
      res.locals.pendingTransfer = pending;
      res.locals.transferOffer = offer;
    }
    setSocial(access, {
      watching, starred, stars: !config.repository.disable_stars, fork: unitsOf(res).has('repo.code'),
      csrf: csrfInput(req, res), back: req.originalUrl,
    });
  }
  next();
};

/** A path of this site to go back to, else the repository. */
function backTo(req: Request, res: Response): void {
  const to = text(req, 'redirect_to');
  const safe = /^\/(?![/\\])/.test(to) ? to : new URL(repoLink(req.ctx.config, repoOf(req))).pathname;
  res.redirect(303, new URL(safe, req.ctx.config.server.root_url).toString());
}

/** POST /{owner}/{repo}/action/{watch|unwatch|star|unstar} */
export async function socialPost(req: Request, res: Response): Promise<void> {
  const { db, config, doer } = req.ctx;
  const access = repoOf(req);
  const action = String(req.params.action);
  if (action === 'watch') await subscribe(db, doer!, access);
  else if (action === 'unwatch') await unsubscribe(db, doer!, access);
  else if ((action === 'star' || action === 'unstar') && !config.repository.disable_stars) await setStar(db, doer!, access, action === 'star');
  else throw new NotFoundError();
  backTo(req, res);
}
