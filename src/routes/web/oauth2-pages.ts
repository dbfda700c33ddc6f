import type { Request, Response } from 'express';
import { encodePath, html } from '../../lib/html';
import { NotFoundError, OAuth2Error } from '../../lib/errors';
import {
  alreadyGranted, checkAuthorizeRequest, checkClient, grantAndIssueCode, withQuery, type AuthorizeParams, type AuthorizeRequest,
} from '../../services/oauth2/authorize';
import { describeScope } from '../../services/oauth2/scopes';
import { csrfInput } from './forms';
import { rootPath } from './guards';
import { sendPage, webUrl } from './layout';

// The OAuth2 provider's pages (Gitea's /login/oauth/authorize and /login/oauth/grant): the
// consent page naming the application, its owner and what it asks for, and the form that
// grants (or refuses) it. While the client or its redirect URI is unknown the error is a page
// of ours (sending anything to an unchecked URI would make us an open redirector); after, errors
// go back to the client's redirect URI with `state`, as RFC 6749 4.1.2.1 says.

const paramsOf = (source: unknown): AuthorizeParams => (source && typeof source === 'object' ? source as AuthorizeParams : {});

function errorPage(req: Request, res: Response, err: OAuth2Error): void {
  sendPage(req, res, {
    status: 400,
    title: 'Authorization failed',
    body: html`<div class="box"><h1>Authorization failed</h1>
<p>The application's request cannot be served: ${err.message}.</p><p class="meta">Error: <code>${err.code}</code></p></div>`,
  });
}

/** Checks the request; sends the error page or the redirect and answers null when it is wrong. */
async function checked(req: Request, res: Response, params: AuthorizeParams): Promise<AuthorizeRequest | null> {
  if (!req.ctx.config.oauth2.enabled) throw new NotFoundError();
  try {
    await checkClient(req.ctx.db, params);
  } catch (err) {
    if (!(err instanceof OAuth2Error)) throw err;
    errorPage(req, res, err);
    return null;
  }
  try {
    return await checkAuthorizeRequest(req.ctx.db, params);
  } catch (err) {
    if (!(err instanceof OAuth2Error)) throw err;
    const state = typeof params.state === 'string' ? params.state : '';
    res.redirect(303, withQuery(String(params.redirect_uri), { error: err.code, error_description: err.message, state }));
    return null;
  }
}

function redirectSource(uri: string): string {
  const u = new URL(uri);
  return u.origin !== 'null' ? u.origin : u.protocol;
}

const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

function consentPage(req: Request, res: Response, r: AuthorizeRequest): void {
  const owner = r.owner;
  const { config } = req.ctx;
  const scopes = describeScope(r.scope);
  sendPage(req, res, {
    title: `Authorize ${r.app.name}`,
    // Chromium applies form-action to the redirect that answers the form: the client's origin
    // too (a native app's own scheme, `com.example.app:`, has no origin: its scheme stands for it).
    formAction: [redirectSource(r.redirectUri)],
    body: html`<div class="box"><h1>Authorize ${r.app.name}</h1>
<p><strong>${r.app.name}</strong>, an application of ${owner ? html`<a href="${webUrl(config, encodePath(owner.name))}">@${owner.name}</a>` : 'a deleted user'}, asks to sign you in as <strong>${req.ctx.doer!.name}</strong> and to:</p>
<ul>${scopes.map((s) => html`<li>${s}</li>`)}</ul>
<p class="meta">You will be sent to <strong>${r.redirectUri}</strong>. Grant access only to applications you trust; you can revoke it in your settings under Applications.</p>
<form method="post" action="${rootPath(req, '/login/oauth/grant')}">${csrfInput(req, res)}
${hidden('client_id', r.app.client_id)}${hidden('redirect_uri', r.redirectUri)}${hidden('state', r.state)}${hidden('scope', r.scope)}
${hidden('nonce', r.nonce)}${hidden('code_challenge', r.codeChallenge)}${hidden('code_challenge_method', r.codeChallengeMethod)}${hidden('response_type', 'code')}
<button type="submit" class="primary" name="granted" value="true">Authorize application</button>
<button type="submit" name="granted" value="false">Cancel</button></form></div>`,
  });
}

/** GET /login/oauth/authorize: consent, or straight back when a trusted client already has it. */
export async function authorize(req: Request, res: Response): Promise<void> {
  const request = await checked(req, res, paramsOf(req.query));
  if (!request) return;
  if (await alreadyGranted(req.ctx.db, req.ctx.doer!, request)) {
    return void res.redirect(303, await grantAndIssueCode(req.ctx.db, req.ctx.doer!, request));
  }
  consentPage(req, res, request);
}

/** POST /login/oauth/grant: the consent form (CSRF-checked by the table); checked again in full. */
export async function grant(req: Request, res: Response): Promise<void> {
  const body = paramsOf(req.body) as AuthorizeParams & { granted?: unknown };
  const request = await checked(req, res, body);
  if (!request) return;
  if (body.granted !== 'true') {
    return void res.redirect(303, withQuery(request.redirectUri, { error: 'access_denied', error_description: 'the request is denied', state: request.state }));
  }
  res.redirect(303, await grantAndIssueCode(req.ctx.db, req.ctx.doer!, request));
}
