import type { Request, Response } from 'express';
import { issueHtmlUrl } from '../../convert/issue';
import { AppError, NotFoundError } from '../../lib/errors';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { createPull } from '../../services/pull/pulls';
import { newPullChoices, type NewPullChoices } from '../../services/web/pull-new';
import { queryString } from '../query';
import { pathParam } from '../table';
import { repoOf, unitsOf } from './guards';
import { csrfInput, field, markdownField, submitButton, type FieldErrors } from './forms';
import { repoLink, webUrl } from './layout';
import { repoPage } from './repo-view';

// A new pull request from a comparison (`compare/{base}...{head}`): the head picker (a plain
// GET form), then title, body with preview, reviewers, and for writers labels, assignees and
// milestone; "draft" prefixes the title as Gitea marks drafts. The pull is made by the service
// behind POST /repos/{owner}/{repo}/pulls; a refusal re-renders the form with the values kept.

type Values = Record<string, string | string[]>;

/** `base...head` of the path; head may be `owner:branch`. */
function splitBasehead(basehead: string): { base: string; head: string } {
  const at = basehead.indexOf('...');
  if (at < 1 || at + 3 >= basehead.length) throw new NotFoundError();
  return { base: basehead.slice(0, at), head: basehead.slice(at + 3) };
}

/** The comparison's path as Gitea writes it: `owner:branch` keeps its colon. */
const comparePath = (basehead: string): string => `compare/${encodePath(basehead).replace(/%3A/gi, ':')}`;

const list = (v: Values, name: string): string[] => [v[name] ?? []].flat().filter((x) => x !== '');
const one = (v: Values, name: string): string => (typeof v[name] === 'string' ? v[name] as string : '');

function picker(req: Request, c: NewPullChoices, base: string, head: string): SafeHtml {
  const option = (value: string, label: string, chosen: string) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="${repoLink(req.ctx.config, repoOf(req), 'compare')}" class="row-actions">
<label for="f-base">Base</label> <select id="f-base" name="base">${c.bases.map((b) => option(b, b, base))}</select>
<label for="f-head">Compare</label> <select id="f-head" name="head">${c.heads.map((h) => option(h.value, h.label, head))}</select>
<button type="submit">Compare</button></form>`;
}

function multi(name: string, label: string, options: Array<[string, string]>, chosen: string[]): SafeHtml | '' {
  if (!options.length) return '';
  return html`<div class="field"><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}" multiple size="${String(Math.min(options.length, 5))}">${options.map(([v, l]) => html`<option value="${v}"${chosen.includes(v) ? html` selected` : ''}>${l}</option>`)}</select></div>`;
}

function formHtml(req: Request, res: Response, c: NewPullChoices, basehead: string, v: Values, errors: FieldErrors): SafeHtml {
  const { config } = req.ctx;
  const access = repoOf(req);
  const milestones = c.writer && c.milestones.length
    ? html`<div class="field"><label for="f-milestone">Milestone</label><select id="f-milestone" name="milestone"><option value="">None</option>${c.milestones.map((m) => html`<option value="${String(m.id)}"${one(v, 'milestone') === String(m.id) ? html` selected` : ''}>${m.name}</option>`)}</select></div>` : '';
  return html`<form method="post" action="${repoLink(config, access, comparePath(basehead))}" class="stack" id="new-pull">${csrfInput(req, res)}
${errors[''] ? html`<div class="flash error" role="alert">${errors['']}</div>` : ''}
${field({ name: 'title', label: 'Title', value: one(v, 'title'), required: true }, errors)}
${markdownField({ name: 'body', label: 'Description', value: one(v, 'body'), previewUrl: webUrl(config, '-/markdown'), context: `${access.owner.name}/${access.repo.name}` }, errors)}
${multi('reviewers', 'Reviewers', c.reviewers.map((u) => [u.name, u.name]), list(v, 'reviewers'))}
${c.writer ? multi('labels', 'Labels', c.labels.map((l) => [String(l.id), l.name]), list(v, 'labels')) : ''}
${c.writer ? multi('assignees', 'Assignees', c.assignees.map((u) => [u.name, u.name]), list(v, 'assignees')) : ''}
${milestones}
<div class="field check"><label><input type="checkbox" name="draft" value="on"${one(v, 'draft') === 'on' ? html` checked` : ''}> Open as a draft</label></div>
${submitButton('Create pull request')}</form>`;
}

/** The section under a comparison: the head picker and the form, for signed-in visitors of a repository with pull requests. */
export async function newPullSection(req: Request, res: Response, basehead: string, v: Values = {}, errors: FieldErrors = {}): Promise<SafeHtml | ''> {
  const doer = req.ctx.doer;
  if (!doer || req.ctx.auth !== 'session' || !unitsOf(res).has('repo.pulls') || repoOf(req).repo.is_archived) return '';
  const { base, head } = splitBasehead(basehead);
  const choices = await newPullChoices(req.ctx.h, repoOf(req), doer);
  return html`<section class="new-pull" aria-labelledby="new-pull-title"><h2 id="new-pull-title">Open a pull request</h2>
${picker(req, choices, base, head)}${formHtml(req, res, choices, basehead, v, errors)}</section>`;
}

/** The form on a page of its own: a refused post, or a head in a fork (whose comparison the code pages do not read). */
async function newPullPage(req: Request, res: Response, basehead: string, v: Values, errors: FieldErrors, status: number): Promise<void> {
  const section = await newPullSection(req, res, basehead, v, errors);
  if (!section) throw new NotFoundError();
  repoPage(req, res, 'New pull request', 'pulls', html`<h1>New pull request</h1>
<p><a href="${repoLink(req.ctx.config, repoOf(req), comparePath(basehead))}">See the comparison of <code>${basehead}</code></a></p>${section}`, status);
}

/**
 * GET /{owner}/{repo}/compare?base=&head=: the head picker's answer, as the comparison's path;
 * a fork's head gets the form alone (its files show on the pull request once opened).
 */
export async function pick(req: Request, res: Response): Promise<void> {
  const base = queryString(req, 'base') ?? '';
  const head = queryString(req, 'head') ?? '';
  if (!base || !head) throw new NotFoundError();
  if (head.includes(':')) return newPullPage(req, res, `${base}...${head}`, {}, {}, 200);
  res.redirect(303, repoLink(req.ctx.config, repoOf(req), `${comparePath(`${base}...${head}`)}#new-pull-title`));
}

const valuesOf = (req: Request): Values =>
  Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).filter((e): e is [string, string | string[]] => e[0] !== '_csrf' && (typeof e[1] === 'string' || Array.isArray(e[1]))));

/** POST /{owner}/{repo}/compare/{base}...{head}: the pull request made, 303 to it. */
export async function create(req: Request, res: Response): Promise<void> {
  const basehead = pathParam(req, 'basehead');
  const { base, head } = splitBasehead(basehead);
  const v = valuesOf(req);
  const title = one(v, 'title').trim();
  const milestone = Number(one(v, 'milestone'));
  try {
    const made = await createPull(req.ctx.h, repoOf(req), req.ctx.doer!, {
      base, head, title: title && one(v, 'draft') === 'on' ? `WIP: ${title}` : title, body: one(v, 'body'),
      labels: list(v, 'labels').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0), assignees: list(v, 'assignees'),
      milestone: Number.isSafeInteger(milestone) && milestone > 0 ? milestone : undefined, reviewers: list(v, 'reviewers'),
    });
    res.redirect(303, issueHtmlUrl(req.ctx.config, repoOf(req).owner, repoOf(req).repo, made.issue.issue));
  } catch (err) {
    // A refusal the visitor can act on comes back on the form (a 404 of a branch too: the page is theirs).
    if (!(err instanceof AppError) || err.status < 400 || err.status >= 500 || err.status === 403) throw err;
    const name = (err as { field?: string }).field;
    const errors: FieldErrors = name === 'title' ? { title: err.message } : { '': err.message };
    await newPullPage(req, res, basehead, v, errors, err.status === 404 ? 422 : err.status);
  }
}
