import type { Request, Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { html } from '../../lib/html';
import { pullFilesPage } from '../../services/web/pull-files-page';
import { pullCommitsPage } from '../../services/web/issue-pages-pull';
import { queryString } from '../query';
import { unitsOf, repoOf } from './guards';
import { commitsHtml } from './pull-commits-html';
import { filesHtml, type FilesState } from './pull-files-html';
import { EMPTY_STATE, formsOf, indexParam, pageParam, sendPull, viewOf } from './pull-pages';
import type { FormState } from './pull-merge-html';

// The pull request's other tabs: "Files changed" (the review page, its state in the query:
// whitespace, style for visitors without an account, changes since the last review, big files
// asked for, the line whose comment form is open) and "Commits".

const WHITESPACE = ['show-all', 'ignore-all', 'ignore-change', 'ignore-eol'];
const LINE = /^(old|new):(\d{1,9})$/;

function filesState(req: Request): FilesState {
  const doer = req.ctx.doer;
  const style = queryString(req, 'style') ?? doer?.diff_view_style ?? 'unified';
  const ws = queryString(req, 'whitespace') ?? 'show-all';
  const load = ([] as unknown[]).concat(req.query.load ?? []).filter((p): p is string => typeof p === 'string').slice(0, 50);
  const line = LINE.exec(queryString(req, 'line') ?? '');
  const path = queryString(req, 'path');
  return {
    split: style === 'split', whitespace: WHITESPACE.includes(ws) ? ws : 'show-all', since: queryString(req, 'since') === 'review',
    page: pageParam(req), load, at: doer && line && path ? { path, key: `${line[1]}:${Number(line[2])}` } : undefined, signedIn: !!doer,
  };
}

/** GET .../pulls/{index}/files, or re-rendered with a refused form's values and errors. */
export async function renderFiles(req: Request, res: Response, index: number, state: FormState = EMPTY_STATE, status = 200, at?: FilesState['at']): Promise<void> {
  if (!unitsOf(res).has('repo.pulls')) throw new NotFoundError();
  const { doer } = req.ctx;
  const s = filesState(req);
  if (at) s.at = at;
  const page = await pullFilesPage(req.ctx.h, repoOf(req), doer, index, { whitespace: s.whitespace, page: s.page, load: s.load, sinceReview: s.since });
  const body = filesHtml(viewOf(req, res), page, s, formsOf(req, res, index, state), doer?.id ?? 0);
  sendPull(req, res, `Files changed · ${page.pull.issue.issue.title} #${index}`, body, status);
}

/** GET .../pulls/{index}/{tab}: files or commits; any other tab does not exist. */
export async function tab(req: Request, res: Response): Promise<void> {
  const index = indexParam(req);
  const name = String(req.params.tab);
  if (name === 'files') return renderFiles(req, res, index);
  if (name !== 'commits') throw new NotFoundError();
  if (!unitsOf(res).has('repo.pulls')) throw new NotFoundError();
  const n = pageParam(req);
  const page = await pullCommitsPage(req.ctx.h, repoOf(req), req.ctx.doer, index, n);
  sendPull(req, res, `Commits · ${page.pull.issue.issue.title} #${index}`, html`${commitsHtml(viewOf(req, res), page, n)}`);
}
