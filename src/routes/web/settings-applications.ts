import type { Request, Response } from 'express';
import type { OAuth2Application } from '../../db/schema';
import { html, type SafeHtml } from '../../lib/html';
import { NotFoundError } from '../../lib/errors';
import { listGrants, revokeGrant } from '../../services/oauth2/authorize';
import {
  createOAuth2App, deleteOAuth2App, editOAuth2App, getOAuth2App, listOAuth2Apps, regenerateOAuth2Secret, type OAuth2AppInput,
} from '../../services/user/oauth2-apps';
import { createToken, deleteToken, listTokens } from '../../services/user/tokens';
import { confirmPage, csrfInput, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { rootPath } from './guards';
import { APPS_PATH, appFields, appsSection, appValues, grantsSection, tokensSection } from './settings-app-sections';
import { donePath, formOf, settingsPage, shownOnce, text, texts } from './settings-layout';

// /user/settings/applications: access tokens, OAuth2 applications and authorized applications.
// A new token or client secret is shown in the answer to the form that made it, once (only its
// hash is kept); everything else answers 303 back to the page.

type Form = Record<string, unknown>;
type View = { values?: Form; errors?: FieldErrors; status?: number; form?: 'token' | 'app'; notice?: SafeHtml };

async function page(req: Request, res: Response, view: View = {}): Promise<void> {
  const { db } = req.ctx;
  const user = req.ctx.doer!;
  const all = { offset: 0, limit: 1000 };
  const [tokens, apps, grants] = await Promise.all([listTokens(db, user, all), listOAuth2Apps(db, user, all), listGrants(db, user)]);
  const valuesOf = (form: View['form']) => (view.form === form ? view.values : undefined);
  const errorsOf = (form: View['form']) => (view.form === form ? view.errors ?? {} : {});
  settingsPage(req, res, {
    tab: 'applications', title: 'Applications', status: view.status, notice: view.notice,
    body: html`${tokensSection(req, res, tokens.tokens, valuesOf('token'), errorsOf('token'))}
${appsSection(req, res, apps.apps, valuesOf('app'), errorsOf('app'))}
${grantsSection(req, grants)}`,
  });
}

export const applicationsPage = (req: Request, res: Response): Promise<void> => page(req, res);

/** POST /user/settings/applications/tokens: the page again, the new token shown once. */
export async function addToken(req: Request, res: Response): Promise<void> {
  const body = formOf(req);
  let made = '';
  const errors = await formAction(async () => {
    made = (await createToken(req.ctx.db, req.ctx.signer!, text(body, 'name'), texts(body, 'scope'))).token;
  });
  if (errors) {
    // The service's "must have a scope" and "invalid scope" are about the checkboxes.
    const fixed = errors[''] && /scope/.test(errors['']) ? { scope: errors[''] } : errors;
    return page(req, res, { values: body, errors: fixed, status: 422, form: 'token' });
  }
  await page(req, res, { notice: shownOnce(`Your new token "${text(body, 'name').trim()}".`, 'new-token', made) });
}

const idOf = (req: Request): number => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
};

export async function confirmDeleteToken(req: Request, res: Response): Promise<void> {
  const id = idOf(req);
  const token = (await listTokens(req.ctx.db, req.ctx.doer!, { offset: 0, limit: 1000 })).tokens.find((t) => t.id === id);
  if (!token) throw new NotFoundError();
  confirmPage(req, res, {
    title: 'Delete an access token', message: html`Delete the token <strong>${token.name}</strong>? Anything using it stops working.`,
    action: rootPath(req, `${APPS_PATH}/tokens/${id}/delete`), button: 'Delete token', cancel: rootPath(req, `${APPS_PATH}#tokens`),
  });
}

export async function removeToken(req: Request, res: Response): Promise<void> {
  await deleteToken(req.ctx.db, req.ctx.signer!, String(idOf(req)));
  redirectAfterPost(req, res, donePath(APPS_PATH, 'token-deleted'), 'tokens');
}

const appInput = (req: Request, body: Form, keep?: OAuth2Application): OAuth2AppInput => ({
  customSchemes: req.ctx.config.oauth2.custom_schemes,
  name: text(body, 'app_name').trim(),
  redirectUris: text(body, 'redirect_uris').split(/\r?\n/).map((u) => u.trim()).filter(Boolean),
  confidentialClient: body.confidential_client === 'on',
  skipSecondaryAuthorization: !!keep?.skip_secondary_authorization,
});
const APP_FIELDS = { name: 'app_name', redirect_uris: 'redirect_uris' };

/** POST /user/settings/applications/oauth2: the application's page, its secret shown once. */
export async function addApp(req: Request, res: Response): Promise<void> {
  const body = formOf(req);
  let made: Awaited<ReturnType<typeof createOAuth2App>> | undefined;
  const errors = await formAction(async () => { made = await createOAuth2App(req.ctx.db, req.ctx.signer!, appInput(req, body)); }, APP_FIELDS);
  if (errors || !made) return page(req, res, { values: body, errors: errors ?? {}, status: 422, form: 'app' });
  appPage(req, res, made.app, appValues(made.app), {}, 200, shownOnce('The client secret.', 'client-secret', made.secret));
}

function appPage(req: Request, res: Response, app: OAuth2Application, values: Form, errors: FieldErrors, status = 200, notice?: SafeHtml): void {
  const base = `${APPS_PATH}/oauth2/${app.id}`;
  settingsPage(req, res, {
    tab: 'applications', title: app.name, status, notice,
    body: html`<p>Client ID: <code id="client-id">${app.client_id}</code> <button type="button" class="copy" data-copy-from="client-id" hidden>Copy</button></p>
${formAlert(errors[''])}<form class="stack" method="post" action="${rootPath(req, base)}">${csrfInput(req, res)}
${appFields(values, errors)}
${submitButton('Save application')}</form>
<p><a class="button" href="${rootPath(req, `${base}/regenerate_secret`)}">Regenerate secret</a> <a href="${rootPath(req, `${APPS_PATH}#oauth2`)}">Back to applications</a></p>`,
  });
}

export async function editAppPage(req: Request, res: Response): Promise<void> {
  const app = await getOAuth2App(req.ctx.db, req.ctx.doer!, idOf(req));
  appPage(req, res, app, appValues(app), {});
}

/** POST /user/settings/applications/oauth2/:id: name, redirect URIs, client type (the secret stays). */
export async function saveApp(req: Request, res: Response): Promise<void> {
  const body = formOf(req);
  const app = await getOAuth2App(req.ctx.db, req.ctx.signer!, idOf(req));
  const errors = await formAction(async () => { await editOAuth2App(req.ctx.db, req.ctx.signer!, app.id, appInput(req, body, app)); }, APP_FIELDS);
  if (errors) return appPage(req, res, app, body, errors, 422);
  redirectAfterPost(req, res, donePath(`${APPS_PATH}/oauth2/${app.id}`, 'app-updated'));
}

export async function confirmRegenerate(req: Request, res: Response): Promise<void> {
  const app = await getOAuth2App(req.ctx.db, req.ctx.doer!, idOf(req));
  confirmPage(req, res, {
    title: 'Regenerate the client secret', message: html`<strong>${app.name}</strong> gets a new secret; the current one stops working at once.`,
    action: rootPath(req, `${APPS_PATH}/oauth2/${app.id}/regenerate_secret`), button: 'Regenerate secret', cancel: rootPath(req, `${APPS_PATH}/oauth2/${app.id}`),
  });
}

export async function regenerate(req: Request, res: Response): Promise<void> {
  const { app, secret } = await regenerateOAuth2Secret(req.ctx.db, req.ctx.signer!, idOf(req));
  appPage(req, res, app, appValues(app), {}, 200, shownOnce('The new client secret.', 'client-secret', secret));
}

export async function confirmDeleteApp(req: Request, res: Response): Promise<void> {
  const app = await getOAuth2App(req.ctx.db, req.ctx.doer!, idOf(req));
  confirmPage(req, res, {
    title: 'Delete an application', message: html`Delete <strong>${app.name}</strong>? Everyone signed in with it is signed out of it.`,
    action: rootPath(req, `${APPS_PATH}/oauth2/${app.id}/delete`), button: 'Delete application', cancel: rootPath(req, `${APPS_PATH}#oauth2`),
  });
}

export async function removeApp(req: Request, res: Response): Promise<void> {
  await deleteOAuth2App(req.ctx.db, req.ctx.signer!, idOf(req));
  redirectAfterPost(req, res, donePath(APPS_PATH, 'app-deleted'), 'oauth2');
}

export async function confirmRevokeGrant(req: Request, res: Response): Promise<void> {
  const id = idOf(req);
  const grant = (await listGrants(req.ctx.db, req.ctx.doer!)).find((g) => g.id === id);
  if (!grant) throw new NotFoundError();
  confirmPage(req, res, {
    title: 'Revoke access', message: html`<strong>${grant.app_name}</strong> loses access to your account; its tokens stop working at once.`,
    action: rootPath(req, `${APPS_PATH}/grants/${id}/revoke`), button: 'Revoke access', cancel: rootPath(req, `${APPS_PATH}#grants`),
  });
}

export async function removeGrant(req: Request, res: Response): Promise<void> {
  await revokeGrant(req.ctx.db, req.ctx.signer!, idOf(req));
  redirectAfterPost(req, res, donePath(APPS_PATH, 'grant-revoked'), 'grants');
}
