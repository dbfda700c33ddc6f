import type { Request, Response } from 'express';
import { escapeHtml, html, raw, type SafeHtml } from '../../lib/html';
import { AppError, InvalidError } from '../../lib/errors';
import { sendPage } from './layout';
import { csrfToken } from './session';

// The pieces every form is made of, so each page's forms look and behave the same: a field with
// its label and its error tied to it (aria-describedby), the CSRF input, a submit button, and
// the confirmation page of destructive actions. Forms post and are answered 303 (back to the
// page and anchor) or re-rendered 422 with the values kept and the errors beside their fields.

export type FieldErrors = Record<string, string>;
export type FieldSpec = {
  name: string; label: string; type?: string; value?: string; autocomplete?: string;
  required?: boolean; hint?: string; autofocus?: boolean;
  /** The control's id when `f-<name>` is not unique on the page (two forms with one field name). */
  id?: string;
};

/** `<input type=hidden name=_csrf>`: every POST form carries one (the table's csrf guard checks it). */
export const csrfInput = (req: Request, res: Response): SafeHtml =>
  html`<input type="hidden" name="_csrf" value="${csrfToken(req, res)}">`;

export function field(spec: FieldSpec, errors: FieldErrors = {}): SafeHtml {
  const id = spec.id ?? `f-${spec.name}`;
  const error = errors[spec.name];
  const described = spec.hint ? (error ? `${id}-hint ${id}-error` : `${id}-hint`) : error ? `${id}-error` : '';
  const type = spec.type ?? 'text';
  const value = type === 'password' ? '' : spec.value ?? '';
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${spec.label}</label>
<input id="${id}" name="${spec.name}" type="${type}" value="${value}"${spec.autocomplete ? html` autocomplete="${spec.autocomplete}"` : ''}${spec.required ? html` required` : ''}${spec.autofocus ? html` autofocus` : ''}${error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}>
${spec.hint ? html`<p class="meta" id="${id}-hint">${spec.hint}</p>` : ''}${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}</div>`;
}

/**
 * field() of a fixed spec, for a form drawn on every view of a page: the markup around the value
 * is made once (a marker stands for the value), and a view only escapes its value between the two
 * halves; with an error beside it, the field is made as field() makes it.
 */
export function fixedField(spec: Omit<FieldSpec, 'value'>): (value: string, errors?: FieldErrors) => SafeHtml {
  const MARK = '\u0000value\u0000';
  // A password field shows no value: its markup has no marker, one part.
  const [before, after] = field({ ...spec, value: MARK }).value.split(MARK) as [string, string?];
  return (value, errors = {}) => (errors[spec.name]
    ? field({ ...spec, value }, errors)
    : raw(after === undefined ? before : before + escapeHtml(value) + after));
}

/**
 * A markdown text area; with the script, a Preview button renders it (POST /-/markdown with the
 * session's CSRF header) into the region below, resolving #N against `context` (`owner/repo`).
 */
export function markdownField(spec: FieldSpec & { context?: string; previewUrl: string }, errors: FieldErrors = {}): SafeHtml {
  const id = spec.id ?? `f-${spec.name}`;
  const error = errors[spec.name];
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${spec.label}</label>
<textarea id="${id}" name="${spec.name}"${spec.required ? html` required` : ''}${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${spec.value ?? ''}</textarea>
${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}<button type="button" data-preview-for="${id}" data-preview-into="${id}-preview" data-preview-url="${spec.previewUrl}" data-preview-context="${spec.context ?? ''}" hidden>Preview</button>
<div class="markdown" id="${id}-preview" role="region" aria-label="Preview" aria-live="polite" hidden></div></div>`;
}

export function checkbox(name: string, label: string, checked: boolean): SafeHtml {
  return html`<div class="field check"><label><input type="checkbox" name="${name}" value="on"${checked ? html` checked` : ''}> ${label}</label></div>`;
}

export const submitButton = (label: string, kind: 'primary' | 'danger' | '' = 'primary'): SafeHtml =>
  html`<button type="submit"${kind ? html` class="${kind}"` : ''}>${label}</button>`;

/** A form-level message (one not about a single field), announced to screen readers. */
export const formAlert = (message: string | undefined): SafeHtml =>
  (message ? html`<div class="flash error" role="alert">${message}</div>` : html``);

/** 303 back to a page (and an anchor on it) after a form did its work. */
export function redirectAfterPost(req: Request, res: Response, path: string, anchor = ''): void {
  res.redirect(303, `${req.ctx.config.server.root_url}${path.replace(/^\//, '')}${anchor ? `#${anchor}` : ''}`);
}

/**
 * Runs a form's action; a validation error of the service becomes the errors the caller
 * re-renders with: an InvalidError naming a field (renamed through `fields` when the form's
 * name differs) under that field, any other 400 or 422 under '' (the form's own alert).
 */
export async function formAction(action: () => Promise<void>, fields: Record<string, string> = {}): Promise<FieldErrors | null> {
  try {
    await action();
    return null;
  } catch (err) {
    if (err instanceof InvalidError && err.field) return { [fields[err.field] ?? err.field]: err.message };
    if (err instanceof AppError && (err.status === 400 || err.status === 422)) return { '': err.message };
    throw err;
  }
}

export type Confirmation = { title: string; message: SafeHtml | string; action: string; button: string; cancel: string };

/** The page before a destructive action: what it does, a danger button posting it, and a way back. */
export function confirmPage(req: Request, res: Response, c: Confirmation): void {
  sendPage(req, res, {
    title: c.title,
    body: html`<div class="box"><h1>${c.title}</h1><p>${c.message}</p>
<form method="post" action="${c.action}">${csrfInput(req, res)}${submitButton(c.button, 'danger')} <a class="button" href="${c.cancel}">Cancel</a></form></div>`,
  });
}
