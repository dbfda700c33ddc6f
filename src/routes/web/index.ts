import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { AppError, NotFoundError } from '../../lib/errors';
import { html } from '../../lib/html';
import { downloadReleaseAsset } from '../release-download';
import * as code from './code-pages';
import * as files from './files';
import {
  assignWebRepo as repo, attachmentViewer, codeUnit as code_, issuesOrPulls, issuesUnit, pullsUnit, releasesUnit, signedIn, viewer,
} from './guards';
import * as issues from './issue-pages';
import { sendPage, STYLESHEET } from './layout';
import * as owners from './owner-pages';
import * as password from './password';

// The web route table: every page and download whose URL the API hands out (html_url,
// download_url, tarball_url, ...), each with its guard chain, as the API table. Gitea's web
// routes are the reference for the paths. Mounted after the API, git, avatar and swagger
// routes; whatever matches nothing here is a 404 page.

type WebRoute = { method: 'get' | 'post'; path: string; chain: RequestHandler[] };
const get = (path: string, ...chain: (RequestHandler | RequestHandler[])[]): WebRoute => ({ method: 'get', path, chain: chain.flat() });
const post = (path: string, ...chain: (RequestHandler | RequestHandler[])[]): WebRoute => ({ method: 'post', path, chain: chain.flat() });

const stylesheet: RequestHandler = (_req, res) => {
  res.type('css').setHeader('Cache-Control', 'public, max-age=86400').send(STYLESHEET);
};

export const webRoutes: WebRoute[] = [
  get('/', viewer, owners.home),
  // Fixed first segments before `/:owner/:repo`, which would take them for a repository.
  get('/assets/css/hearth.css', stylesheet),
  get('/attachments/:uuid', attachmentViewer, files.attachment),
  get('/user/change_password', viewer, signedIn, password.form),
  post('/user/change_password', password.body, viewer, signedIn, password.change),
  get('/org/:org/teams', viewer, owners.teams),
  get('/org/:org/teams/:team', viewer, owners.team),
  get('/:owner', viewer, owners.profile),

  // -- a repository's code --
  get('/:owner/:repo', viewer, repo, code.home),
  get('/:owner/:repo/src/*rest', viewer, repo, code_, code.src),
  get('/:owner/:repo/raw/*rest', viewer, repo, code_, files.rawFile),
  get('/:owner/:repo/media/*rest', viewer, repo, code_, files.mediaFile),
  get('/:owner/:repo/archive/*archive', viewer, repo, code_, files.archive),
  get('/:owner/:repo/commit/:sha', viewer, repo, code_, code.commit),
  get('/:owner/:repo/commits/*rest', viewer, repo, code_, code.commits),
  get('/:owner/:repo/branches', viewer, repo, code_, code.branches),
  get('/:owner/:repo/tags', viewer, repo, code_, code.tags),
  get('/:owner/:repo/compare/*basehead', viewer, repo, code_, code.compare),

  // -- issues, pull requests, labels, milestones --
  get('/:owner/:repo/issues', viewer, repo, issuesUnit, issues.issueList),
  get('/:owner/:repo/issues/:index', viewer, repo, issues.issue),
  get('/:owner/:repo/pulls', viewer, repo, pullsUnit, issues.pullList),
  get('/:owner/:repo/pulls/:index', viewer, repo, issues.pull),
  get('/:owner/:repo/pulls/:index/:tab', viewer, repo, pullsUnit, issues.pullTab),
  get('/:owner/:repo/labels', viewer, repo, issuesOrPulls, issues.labels),
  get('/:owner/:repo/milestones', viewer, repo, issuesOrPulls, issues.milestones),
  get('/:owner/:repo/milestone/:id', viewer, repo, issuesOrPulls, issues.milestone),

  // -- releases --
  get('/:owner/:repo/releases', viewer, repo, releasesUnit, owners.releases),
  get('/:owner/:repo/releases/tag/*tag', viewer, repo, releasesUnit, owners.release),
  get('/:owner/:repo/releases/download/*tag/:name', viewer, downloadReleaseAsset),
];

/** Errors of pages are pages: the status, a title and the message, never a stack. */
const pageErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  if (!(err instanceof AppError)) {
    req.ctx.log.error({ err, requestId: req.ctx.requestId, path: req.path }, 'internal error');
    sendPage(req, res, { status: 500, title: 'Internal Server Error', body: html`<h1>Internal Server Error</h1>\n<p>Request id ${req.ctx.requestId}</p>` });
    return;
  }
  if (err.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="Hearth"');
  const title = err.status === 404 ? 'Page Not Found' : `Error ${err.status}`;
  sendPage(req, res, { status: err.status, title, body: html`<h1>${title}</h1>\n<p>${err.message}</p>` });
};

export function webRouter(): Router {
  const router = express.Router();
  for (const r of webRoutes) router[r.method](r.path, ...r.chain);
  router.use(() => { throw new NotFoundError('The page you are looking for does not exist.'); });
  router.use(pageErrors);
  return router;
}
