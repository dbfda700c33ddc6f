import type { Request, Response } from 'express';
import { AppError, NotFoundError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { pullRawDiff } from '../../services/pull/pull-files';
import { conversationPage } from '../../services/web/pull-conversation';
import { queryInt } from '../query';
import { sendStream } from '../stream';
import { repoOf, unitsOf } from './guards';
import { csrfInput, type FieldErrors } from './forms';
import type { View } from './issue-pages-html';
import { pageColour, repoHeader, repoLink, sendPage } from './layout';
import { conversationHtml } from './pull-html';
import type { FormState, Forms } from './pull-merge-html';

// The pull request pages: the conversation with its merge box (the API's html_url), and the
// helpers its forms and the other tabs share: the index from the path, the form state of a
// re-render, and the answer to a form the service refused.

export const viewOf = (req: Request, res: Response): View => ({ config: req.ctx.config, access: repoOf(req), colour: (hex) => pageColour(res, hex) });

/** A positive whole number from the path, else the page does not exist. */
export function indexParam(req: Request): number {
  const value = String(req.params.index);
  const n = /^\d{1,15}$/.test(value) ? Number(value) : 0;
  if (n < 1) throw new NotFoundError();
  return n;
}

export const EMPTY_STATE: FormState = { errors: {}, values: {} };

/** The pieces every form of a pull request page needs: the CSRF input and the action URLs. */
export function formsOf(req: Request, res: Response, index: number, state: FormState): Forms {
  const csrf = req.ctx.doer && req.ctx.auth === 'session' ? csrfInput(req, res) : html``;
  return { csrf, action: (rest) => repoLink(req.ctx.config, repoOf(req), `pulls/${index}/${rest}`), state };
}

export function sendPull(req: Request, res: Response, title: string, body: SafeHtml, status = 200): void {
  sendPage(req, res, { title, status, body: html`${repoHeader(req.ctx.config, repoOf(req), unitsOf(res), 'pulls')}\n${body}` });
}

/**
 * A form's action; a refusal the visitor can act on (a 4xx of the service but 403/404, which
 * are pages of their own) comes back as `{ errors, status }` under `key` (or the field the
 * error names) for the page to re-render with the values kept.
 */
export async function tryForm(action: () => Promise<void>, key = ''): Promise<{ errors: FieldErrors; status: number } | null> {
  try {
    await action();
    return null;
  } catch (err) {
    if (!(err instanceof AppError) || err.status < 400 || err.status >= 500 || err.status === 403 || err.status === 404) throw err;
    const field = (err as { field?: string }).field;
    return { errors: { [key || field || '']: err.message }, status: err.status };
  }
}

/** The conversation page, re-rendered with a refused form's values and errors when given. */
export async function renderConversation(req: Request, res: Response, index: number, state: FormState = EMPTY_STATE, status = 200): Promise<void> {
  const { config, doer } = req.ctx;
  const access = repoOf(req);
  const page = await conversationPage(req.ctx.h, access, doer, index);
  if (page.kind === 'moved') {
    res.redirect(302, repoLink(config, access, `issues/${index}`));
    return;
  }
  if (!unitsOf(res).has('repo.pulls')) throw new NotFoundError();
  const body = conversationHtml(viewOf(req, res), page, formsOf(req, res, index, state));
  sendPull(req, res, `${page.pull.issue.issue.title} #${index}`, body, status);
}

/**
 * GET /{owner}/{repo}/pulls/{index}, and `{index}.diff` / `{index}.patch` (diff_url and
 * patch_url): the raw text streamed from git. An issue's index redirects to the issue.
 */
export async function conversation(req: Request, res: Response): Promise<void> {
  const m = /^(\d{1,15})\.(diff|patch)$/.exec(String(req.params.index));
  if (m) {
    const d = await pullRawDiff(req.ctx.h, repoOf(req), req.ctx.doer, Number(m[1]), m[2] as 'diff' | 'patch', false);
    await sendStream(res, d, { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
    return;
  }
  await renderConversation(req, res, indexParam(req));
}

/** `?page=` of a listing tab, 1 or more. */
export const pageParam = (req: Request): number => Math.min(Math.max(queryInt(req, 'page') ?? 1, 1), 100_000);
