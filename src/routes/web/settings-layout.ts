import type { Request, Response } from 'express';
import { html, type SafeHtml } from '../../lib/html';
import type { FieldErrors } from './forms';
import { rootPath } from './guards';
import { sendPage } from './layout';

// The frame of the account settings pages (Gitea's /user/settings/*): a named navigation to each
// page, the page's heading, a fixed message after a form did its work (`?done=` names one of
// DONE, never text of the request), and the field kinds forms.ts has not (radios, text areas).

export type SettingsTab = 'profile' | 'account' | 'appearance' | 'sessions' | 'keys' | 'applications';

const TABS: [SettingsTab, string, string][] = [
  ['profile', 'Profile', '/user/settings'],
  ['account', 'Account', '/user/settings/account'],
  ['appearance', 'Appearance', '/user/settings/appearance'],
  ['sessions', 'Sessions', '/user/settings/sessions'],
  ['keys', 'SSH / GPG keys', '/user/settings/keys'],
  ['applications', 'Applications', '/user/settings/applications'],
];

/** What a page says after a form did its work, by key. */
const DONE: Record<string, string> = {
  profile: 'Your profile has been updated.',
  avatar: 'Your avatar has been updated.',
  'avatar-deleted': 'Your avatar has been removed.',
  password: 'Your password has been changed. Your other sessions have been signed out.',
  'email-added': 'The e-mail address has been added.',
  'email-primary': 'The primary e-mail address has been changed.',
  'email-deleted': 'The e-mail address has been removed.',
  appearance: 'Your appearance settings have been saved.',
  'session-ended': 'The session has been signed out.',
  'sessions-ended': 'Your other sessions have been signed out.',
  'ssh-added': 'The SSH key has been added.',
  'ssh-verified': 'The SSH key has been verified.',
  'gpg-added': 'The GPG key has been added.',
  'gpg-verified': 'The GPG key has been verified.',
  'key-deleted': 'The key has been removed.',
  'token-deleted': 'The access token has been deleted.',
  'app-updated': 'The application has been updated.',
  'app-deleted': 'The application has been deleted.',
  'grant-revoked': 'The application\'s access has been revoked.',
};

/** `path` with the message `done` to show there (and an anchor). */
export const donePath = (path: string, done: string): string => `${path}?done=${encodeURIComponent(done)}`;

export type SettingsView = { tab: SettingsTab; title: string; body: SafeHtml; status?: number; notice?: SafeHtml };

export function settingsPage(req: Request, res: Response, view: SettingsView): void {
  const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
  const nav = TABS.map(([tab, label, path]) => html`<li><a href="${rootPath(req, path)}"${tab === view.tab ? html` aria-current="page"` : ''}>${label}</a></li>`);
  sendPage(req, res, {
    status: view.status,
    title: view.title,
    body: html`<div class="settings"><nav class="settings-nav" aria-label="Settings"><ul>${nav}</ul></nav>
<div class="settings-body"><h1>${view.title}</h1>${done ? html`<div class="flash" role="status">${done}</div>` : ''}${view.notice ?? ''}
${view.body}</div></div>`,
  });
}

export type Choice = { value: string; label: string; hint?: string };

/** A group of radio buttons in a fieldset, its legend naming it; the error tied to it. */
export function radioGroup(name: string, legend: string, choices: Choice[], value: string, errors: FieldErrors = {}): SafeHtml {
  const error = errors[name];
  const id = `f-${name}`;
  return html`<fieldset class="field choices${error ? ' invalid' : ''}"${error ? html` aria-describedby="${id}-error"` : ''}><legend>${legend}</legend>
${choices.map((c) => html`<label><input type="radio" name="${name}" value="${c.value}"${c.value === value ? html` checked` : ''}> <span>${c.label}${c.hint ? html` <span class="meta">${c.hint}</span>` : ''}</span></label>`)}
${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}</fieldset>`;
}

/** `id`: when a page has several fields of one name (one form per key), each its own. */
export type AreaSpec = { name: string; label: string; value?: string; required?: boolean; hint?: string; rows?: number; mono?: boolean; id?: string };

/** A labelled text area, its hint and error tied to it as field() ties them. */
export function textArea(spec: AreaSpec, errors: FieldErrors = {}): SafeHtml {
  const id = spec.id ?? `f-${spec.name}`;
  const error = errors[spec.name];
  const described = [spec.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${spec.label}</label>
<textarea id="${id}" name="${spec.name}" rows="${String(spec.rows ?? 4)}"${spec.mono ? html` class="mono"` : ''}${spec.required ? html` required` : ''}${error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}>${spec.value ?? ''}</textarea>
${spec.hint ? html`<p class="meta" id="${id}-hint">${spec.hint}</p>` : ''}${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}</div>`;
}

/** A secret shown once (a new token or client secret): selectable, with a copy button for the script. */
export function shownOnce(label: string, id: string, value: string): SafeHtml {
  return html`<div class="flash once" role="status"><p><strong>${label}</strong> It is shown only this once: copy it now.</p>
<p><code id="${id}" class="secret">${value}</code> <button type="button" class="copy" data-copy-from="${id}" hidden>Copy</button></p></div>`;
}

/** A link-styled button to a confirmation page (destructive actions never happen on a GET). */
export const dangerLink = (href: string, label: string, name?: string): SafeHtml =>
  html`<a class="button danger" href="${href}"${name ? html` aria-label="${name}"` : ''}>${label}</a>`;

type Form = Record<string, unknown>;
/** A string field of a parsed form body. */
export const text = (body: Form, key: string): string => (typeof body[key] === 'string' ? (body[key] as string) : '');
/** Every value of a repeated field (checkboxes). */
export const texts = (body: Form, key: string): string[] => {
  const v = body[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
};
export const formOf = (req: Request): Form => (req.body && typeof req.body === 'object' ? req.body as Form : {});
