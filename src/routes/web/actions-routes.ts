import type { RequestHandler } from 'express';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { actionsMode } from '../../services/web/actions-pages';
import * as forms from './actions-forms';
import * as pages from './actions-pages';
import { repoOf } from './guards';
import { get, group, post, type WebGroup } from './table';

// The Actions pages' groups (Gitea's /{owner}/{repo}/actions routes). Readers of the Actions
// unit see the runs, jobs and logs; its writers cancel, approve, re-run, dispatch and switch
// workflows on and off, and delete a run's artifacts (the API's DELETE .../artifacts/{id} is a writer's too). `repoPage` and `signedInRepo` are the repository chains of index.ts.

/** The visitor reads the Actions unit (Actions on for the site and the repository); else 404. */
const actionsReader: RequestHandler = async (req, res, next) => {
  const mode = await actionsMode(req.ctx.h, repoOf(req), req.ctx.doer);
  if (mode === 'none') throw new NotFoundError();
  res.locals.actionsMode = mode;
  next();
};

/** Forms: the visitor writes the Actions unit (403: the runs are visible to them). */
const actionsWriter: RequestHandler = (_req, res, next) => {
  if (res.locals.actionsMode !== 'write') throw new ForbiddenError('Only writers of this repository run, cancel and approve its workflows.');
  next();
};

const R = '/:owner/:repo/actions';

export function actionsGroups(repoPage: readonly RequestHandler[], signedInRepo: readonly RequestHandler[]): WebGroup[] {
  return [
    group('repo-actions', [...repoPage, actionsReader], [
      get(R, pages.runsList),
      get(`${R}/runs/:run`, pages.runView),
      get(`${R}/runs/:run/jobs/:job`, pages.jobView),
      get(`${R}/runs/:run/jobs/:job/log`, pages.jobLogJson),
      get(`${R}/runs/:run/artifacts/:name`, pages.artifactDownload),
    ]),
    group('repo-actions-write', [...signedInRepo, actionsReader, actionsWriter], [
      get(`${R}/run`, forms.dispatchPage),
      post(`${R}/run`, forms.dispatchPost),
      post(`${R}/enable`, forms.enableWorkflow),
      post(`${R}/disable`, forms.disableWorkflow),
      post(`${R}/runs/:run/cancel`, forms.cancel),
      post(`${R}/runs/:run/approve`, forms.approve),
      post(`${R}/runs/:run/rerun`, forms.rerunAll),
      post(`${R}/runs/:run/rerun-failed`, forms.rerunFailed),
      post(`${R}/runs/:run/artifacts/:name/delete`, forms.deleteArtifact),
      post(`${R}/runs/:run/jobs/:job/rerun`, forms.rerunJob),
    ]),
  ];
}
