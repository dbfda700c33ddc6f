import type { Request, Response } from 'express';
import type { AccessToken, OAuth2Application } from '../../db/schema';
import { html, type SafeHtml } from '../../lib/html';
import { SCOPE_CATEGORIES, parseStoredScopes, scopeNames } from '../../lib/scopes';
import type { GrantWithApp } from '../../models/oauth2-grant';
import { checkbox, csrfInput, field, formAlert, submitButton, type FieldErrors } from './forms';
import { rootPath } from './guards';
import { when } from './layout';
import { dangerLink, text, textArea, texts } from './settings-layout';

// The parts of /user/settings/applications: personal access tokens (scopes as Gitea groups
// them: read or read-and-write per category), OAuth2 applications, and the applications the
// user authorized (grants). Each is a section of the page or, for an application, its own page.

type Form = Record<string, unknown>;
export const APPS_PATH = '/user/settings/applications';

const CATEGORY_LABELS: Record<string, string> = {
  activitypub: 'ActivityPub', admin: 'Admin', issue: 'Issues', misc: 'Miscellaneous', notification: 'Notifications',
  organization: 'Organizations', package: 'Packages', repository: 'Repositories', user: 'User',
};

/** The scope checkboxes: one row per category, read and write columns, then public-only. */
function scopeTable(chosen: Set<string>, errors: FieldErrors): SafeHtml {
  const box = (value: string, label: string) =>
    html`<input type="checkbox" name="scope" value="${value}" aria-label="${label}"${chosen.has(value) ? html` checked` : ''}>`;
  const rows = SCOPE_CATEGORIES.map((c) => html`<tr><th scope="row">${CATEGORY_LABELS[c] ?? c}</th>
<td>${box(`read:${c}`, `Read ${CATEGORY_LABELS[c] ?? c}`)}</td><td>${box(`write:${c}`, `Read and write ${CATEGORY_LABELS[c] ?? c}`)}</td></tr>`);
  return html`<fieldset class="field${errors.scope ? ' invalid' : ''}"${errors.scope ? html` aria-describedby="f-scope-error"` : ''}><legend>Permissions</legend>
<div class="scroll"><table class="scopes"><thead><tr><th scope="col">Category</th><th scope="col">Read</th><th scope="col">Read and write</th></tr></thead><tbody>${rows}</tbody></table></div>
<div class="field check"><label><input type="checkbox" name="scope" value="public-only"${chosen.has('public-only') ? html` checked` : ''}> Only public repositories and organizations (public-only)</label></div>
${errors.scope ? html`<p class="error" id="f-scope-error">${errors.scope}</p>` : ''}</fieldset>`;
}

export function tokensSection(req: Request, res: Response, tokens: AccessToken[], values: Form | undefined, errors: FieldErrors): SafeHtml {
  const v = values ?? {};
  const rows = tokens.map((t) => html`<li><strong>${t.name}</strong> <span class="meta">…${t.token_last_eight}</span>
<div class="meta">${scopeNames(parseStoredScopes(t.scope)).join(', ')} · created ${when(t.created_unix)}${t.updated_unix !== t.created_unix ? html` · last used ${when(t.updated_unix)}` : ''}</div>
<div class="row-actions">${dangerLink(rootPath(req, `${APPS_PATH}/tokens/${t.id}/delete`), 'Delete', `Delete token ${t.name}`)}</div></li>`);
  return html`<section id="tokens" aria-labelledby="tokens-h"><h2 id="tokens-h">Access tokens</h2>
<p>Tokens let scripts and tools use the API as you, with the permissions you give them.</p>
${tokens.length ? html`<ul class="list">${rows}</ul>` : html`<p>You have no access tokens.</p>`}
<h3>Generate a new token</h3>${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, `${APPS_PATH}/tokens`)}">${csrfInput(req, res)}
${field({ name: 'name', label: 'Token name', value: text(v, 'name'), required: true }, errors)}
${scopeTable(new Set(texts(v, 'scope')), errors)}
${submitButton('Generate token')}</form></section>`;
}

const redirectList = (app: OAuth2Application): string => (JSON.parse(app.redirect_uris) as string[]).join('\n');

/** The fields of an application's form (create and edit). */
export function appFields(v: Form, errors: FieldErrors): SafeHtml {
  return html`${field({ name: 'app_name', label: 'Application name', value: text(v, 'app_name'), required: true }, errors)}
${textArea({ name: 'redirect_uris', label: 'Redirect URIs', value: text(v, 'redirect_uris'), mono: true, required: true, hint: 'One per line; matched exactly (public clients may use any port of an http://127.0.0.1 or http://[::1] URI).' }, errors)}
${checkbox('confidential_client', 'Confidential client (it keeps a secret: a server, not a browser or desktop app; public clients must use PKCE)', v.confidential_client === 'on')}`;
}

export function appsSection(req: Request, res: Response, apps: OAuth2Application[], values: Form | undefined, errors: FieldErrors): SafeHtml {
  const rows = apps.map((a) => html`<li><strong>${a.name}</strong> <span class="badge">${a.confidential_client ? 'Confidential' : 'Public'}</span>
<div class="meta">Client ID <code>${a.client_id}</code></div>
<div class="row-actions"><a class="button" href="${rootPath(req, `${APPS_PATH}/oauth2/${a.id}`)}" aria-label="Edit ${a.name}">Edit</a>
${dangerLink(rootPath(req, `${APPS_PATH}/oauth2/${a.id}/delete`), 'Delete', `Delete ${a.name}`)}</div></li>`);
  return html`<section id="oauth2" aria-labelledby="oauth2-h"><h2 id="oauth2-h">OAuth2 applications</h2>
<p>Applications that sign people in with their account here ("sign in with ${req.ctx.config.server.app_name}").</p>
${apps.length ? html`<ul class="list">${rows}</ul>` : html`<p>You have no OAuth2 applications.</p>`}
<h3>Create a new application</h3>${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, `${APPS_PATH}/oauth2`)}">${csrfInput(req, res)}
${appFields(values ?? { confidential_client: 'on' }, errors)}
${submitButton('Create application')}</form></section>`;
}

export function grantsSection(req: Request, grants: GrantWithApp[]): SafeHtml {
  const rows = grants.map((g) => html`<li><strong>${g.app_name}</strong> <span class="meta">by ${g.owner_name}</span>
<div class="meta">${g.scope || 'no scope named'} · authorized ${when(g.created_unix)}</div>
<div class="row-actions">${dangerLink(rootPath(req, `${APPS_PATH}/grants/${g.id}/revoke`), 'Revoke', `Revoke ${g.app_name}`)}</div></li>`);
  return html`<section id="grants" aria-labelledby="grants-h"><h2 id="grants-h">Authorized applications</h2>
${grants.length ? html`<ul class="list">${rows}</ul>` : html`<p>You have not authorized any application.</p>`}</section>`;
}

export const appValues = (app: OAuth2Application): Form => ({
  app_name: app.name, redirect_uris: redirectList(app), confidential_client: app.confidential_client ? 'on' : '',
});
