import type { Request, Response } from 'express';
import { html, type SafeHtml } from '../../lib/html';
import { fieldLabel, fieldOptions, type FormValues } from '../../lib/issue-form-body';
import type { IssueFormField, IssueTemplate } from '../../lib/issue-template';
import { createIssueFromPage, IssueFormErrors, newIssueScreen, type NewIssueScreen } from '../../services/web/issue-new';
import { queryString } from '../query';
import { csrfInput, field, formAction, formAlert, markdownField, submitButton, type FieldErrors } from './forms';
import { repoOf, unitsOf } from './guards';
import { formFile, text, texts } from './issue-actions';
import { fileField } from './issue-view-pages';
import { pageColour, repoHeader, repoLink, sendPage, webUrl } from './layout';

// GET/POST /{owner}/{repo}/issues/new: with templates in the repository, a chooser first (each
// template, the configuration's contact links, and a blank issue when allowed); then the form:
// title, body with preview (a markdown template's text, or an issue form's fields), for writers
// labels, assignees and milestone (a template's preselected), and a file. A refused form comes
// back (422) with its values and errors.

type Posted = { values: Record<string, string>; labels: Set<number>; assignees: Set<string>; errors: FieldErrors };

const selfPath = (req: Request) => repoLink(req.ctx.config, repoOf(req), 'issues/new');

function chooser(req: Request, s: NewIssueScreen): SafeHtml {
  const base = selfPath(req);
  const item = (t: IssueTemplate) => html`<li class="box"><h2>${t.name}</h2><p>${t.about}</p><a class="button primary" href="${base}?template=${encodeURIComponent(t.file_name)}" aria-label="Get started: ${t.name}">Get started</a></li>`;
  const link = (l: { name: string; url: string; about: string }) => html`<li class="box"><h2>${l.name}</h2><p>${l.about}</p><a class="button" href="${l.url}">Open</a></li>`;
  const blank = s.issueConfig.blank_issues_enabled ? html`<p><a href="${base}?blank=1">Open a blank issue</a></p>` : '';
  return html`<h2>Choose a template</h2><ul class="templates">${s.templates.map(item)}${s.issueConfig.contact_links.map(link)}</ul>${blank}`;
}

const fieldName = (f: IssueFormField) => `form-${f.id}`;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** One field of an issue form, with its posted value and error. */
function formField(f: IssueFormField, p: Posted, previewUrl: string): SafeHtml | '' {
  if (!f.visible.includes('form')) return '';
  if (f.type === 'markdown') return html`<p class="meta pre">${str(f.attributes.value)}</p>`;
  const name = fieldName(f);
  const error = p.errors[name];
  const label = fieldLabel(f) + (f.validations.required === true ? ' (required)' : '');
  const hint = str(f.attributes.description) || undefined;
  if (f.type === 'input') return field({ name, label, hint, value: p.values[name] ?? str(f.attributes.value) }, p.errors);
  if (f.type === 'textarea') return markdownField({ name, label, hint, value: p.values[name] ?? str(f.attributes.value), previewUrl }, p.errors);
  const options = fieldOptions(f);
  const fallback = typeof f.attributes.default === 'number' ? String(f.attributes.default) : '';
  const picked = new Set((p.values[name] ?? fallback).split(',').filter(Boolean));
  const err = error ? html`<p class="error" id="${name}-error">${error}</p>` : '';
  if (f.type === 'dropdown') {
    const multiple = f.attributes.multiple === true;
    return html`<div class="field${error ? ' invalid' : ''}"><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}"${multiple ? html` multiple` : ''}${error ? html` aria-describedby="${name}-error"` : ''}>
${multiple ? '' : html`<option value="">Choose…</option>`}${options.map((o, i) => html`<option value="${i}"${picked.has(String(i)) ? html` selected` : ''}>${o.label}</option>`)}</select>${err}</div>`;
  }
  return html`<fieldset class="field choices${error ? ' invalid' : ''}"${error ? html` aria-describedby="${name}-error"` : ''}><legend>${label}</legend>
${options.map((o, i) => html`<label><input type="checkbox" name="${name}" value="${i}"${picked.has(String(i)) ? html` checked` : ''}> ${o.label}${o.required ? ' (required)' : ''}</label>`)}${err}</fieldset>`;
}

function writerFields(req: Request, res: Response, s: NewIssueScreen, p: Posted): SafeHtml | '' {
  const c = s.choices;
  if (!c) return '';
  const box = (name: string, value: string | number, on: boolean, label: SafeHtml | string) =>
    html`<label><input type="checkbox" name="${name}" value="${value}"${on ? html` checked` : ''}> ${label}</label>`;
  const labels = c.labels.length
    ? html`<fieldset class="field choices"><legend>Labels</legend>${c.labels.map((l) => box('label', l.id, p.labels.has(l.id), html`<span class="label ${pageColour(res, l.color)}">${l.name}</span>`))}</fieldset>`
    : '';
  const people = html`<fieldset class="field choices"><legend>Assignees</legend>${c.assignees.map((u) => box('assignee', u.name, p.assignees.has(u.name), u.name))}</fieldset>`;
  const chosen = p.values.milestone ?? '0';
  const milestone = html`<div class="field"><label for="f-milestone">Milestone</label><select id="f-milestone" name="milestone"><option value="0">No milestone</option>${c.milestones.map((m) => html`<option value="${m.id}"${String(m.id) === chosen ? html` selected` : ''}>${m.name}</option>`)}</select></div>`;
  return html`${labels}${people}${milestone}`;
}

function issueForm(req: Request, res: Response, s: NewIssueScreen, t: IssueTemplate | undefined, p: Posted): SafeHtml {
  const { config } = req.ctx;
  const access = repoOf(req);
  const context = `${access.owner.name}/${access.repo.name}`;
  const previewUrl = webUrl(config, '-/markdown');
  const body = t?.body.length
    ? html`${t.body.map((f) => formField(f, p, previewUrl))}`
    : markdownField({ name: 'content', label: 'Description', value: p.values.content ?? t?.content ?? queryString(req, 'body') ?? '', previewUrl, context }, p.errors);
  return html`<form class="stack" method="post" action="${selfPath(req)}" enctype="multipart/form-data">${formAlert(p.errors[''])}${csrfInput(req, res)}
${t ? html`<input type="hidden" name="template" value="${t.file_name}"><p class="meta">Template: ${t.name}</p>` : ''}
${field({ name: 'title', label: 'Title', value: p.values.title ?? t?.title ?? queryString(req, 'title') ?? '', required: true, autofocus: true }, p.errors)}
${body}${writerFields(req, res, s, p)}${config.attachment.enabled ? fileField(p.errors) : ''}
${submitButton('Create issue')}</form>`;
}

function render(req: Request, res: Response, s: NewIssueScreen, t: IssueTemplate | undefined, p: Posted, status = 200): void {
  const { config } = req.ctx;
  const access = repoOf(req);
  const choose = !t && s.templates.length > 0 && !(queryString(req, 'blank') && s.issueConfig.blank_issues_enabled) && req.method === 'GET';
  const warn = s.templateErrors.length ? html`<p class="flash error" role="alert">Some issue templates are invalid: ${s.templateErrors.join(', ')}</p>` : '';
  sendPage(req, res, {
    status, title: `New issue · ${access.owner.name}/${access.repo.name}`,
    body: html`${repoHeader(config, access, unitsOf(res), 'issues')}<h1 class="page-title">New issue</h1>${warn}${choose ? chooser(req, s) : issueForm(req, res, s, t, p)}`,
  });
}

const templateOf = (s: NewIssueScreen, name: string | undefined) => (name ? s.templates.find((t) => t.file_name === name) : undefined);

/** GET /{owner}/{repo}/issues/new */
export async function newIssuePage(req: Request, res: Response): Promise<void> {
  const s = await newIssueScreen(req.ctx.h, repoOf(req), req.ctx.doer!);
  const t = templateOf(s, queryString(req, 'template'));
  const labels = new Set(t ? (s.choices?.labels ?? []).filter((l) => t.labels.includes(l.name)).map((l) => l.id) : []);
  render(req, res, s, t, { values: {}, labels, assignees: new Set(t?.assignees ?? []), errors: {} });
}

/** The answers of an issue form: text by field, chosen options by position. */
function formValues(req: Request, t: IssueTemplate | undefined): { values: FormValues; raw: Record<string, string> } {
  const values: FormValues = { text: new Map(), chosen: new Map() };
  const raw: Record<string, string> = {};
  for (const f of t?.body ?? []) {
    const name = fieldName(f);
    if (f.type === 'dropdown' || f.type === 'checkboxes') {
      const picked = texts(req, name).filter((v) => /^\d{1,4}$/.test(v)).map(Number);
      values.chosen.set(f.id, picked);
      raw[name] = picked.join(',');
    } else {
      values.text.set(f.id, (raw[name] = text(req, name)));
    }
  }
  return { values, raw };
}

/** POST /{owner}/{repo}/issues/new (multipart: `attachment`). */
export async function createIssuePost(req: Request, res: Response): Promise<void> {
  const { config } = req.ctx;
  const access = repoOf(req);
  const s = await newIssueScreen(req.ctx.h, access, req.ctx.doer!);
  const t = templateOf(s, text(req, 'template'));
  const form = formValues(req, t);
  const labels = texts(req, 'label').filter((v) => /^\d{1,15}$/.test(v)).map(Number);
  const assignees = texts(req, 'assignee');
  const values = { title: text(req, 'title'), content: text(req, 'content'), milestone: text(req, 'milestone'), ...form.raw };
  let index = 0;
  const answers: FieldErrors = {};
  const errors = await formAction(async () => {
    try {
      index = (await createIssueFromPage(req.ctx.h, access, req.ctx.doer!, {
        title: values.title, body: values.content, labels, assignees, milestone: /^\d+$/.test(values.milestone) ? Number(values.milestone) : 0,
        template: t, values: form.values, file: formFile(req),
      })).issue.index;
    } catch (err) {
      // An issue form's answers: each message under its own field.
      if (err instanceof IssueFormErrors) for (const [id, message] of err.fields) answers[`form-${id}`] = message;
      throw err;
    }
  }, { body: 'content' });
  if (errors) return render(req, res, s, t, { values, labels: new Set(labels), assignees: new Set(assignees), errors: { ...errors, ...answers } }, 422);
  res.redirect(303, repoLink(config, access, `issues/${index}`));
}
