import type { Request, Response } from 'express';
import { ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '../../lib/errors';
import { html } from '../../lib/html';
import { mustSetPasswordFirst } from '../../services/user/auth';
import { revokeSession } from '../../services/user/sessions';
import { changeOwnPassword, createUser } from '../../services/user/users';
import { checkbox, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { CHANGE_PASSWORD_PATH, localPath, rootPath } from './guards';
import { sendPage } from './layout';
import { checkPasswordForm } from './passport-web';
import { endSessionCookie, sessionOf, startSession } from './session';

// Signing in and out, signing up (when registration is open) and the forced password change:
// Gitea's /user/login, /user/logout, /user/sign_up and /user/settings/change_password.

type Form = Record<string, unknown>;
const text = (body: Form, key: string): string => (typeof body[key] === 'string' ? (body[key] as string) : '');

/** Where a signed-in browser goes next: the local `redirect_to` it came with, else home. */
const destination = (req: Request, asked: unknown): string => {
  const path = localPath(asked);
  return path && !path.startsWith('/user/login') ? rootPath(req, path) : req.ctx.config.server.root_url;
};

function loginPage(req: Request, res: Response, values: Form, errors: FieldErrors, status = 200): void {
  const redirectTo = localPath(values.redirect_to);
  const { config } = req.ctx;
  sendPage(req, res, {
    status,
    title: 'Sign in',
    body: html`<div class="box"><h1>Sign in</h1>${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, '/user/login')}">${csrfInput(req, res)}
${redirectTo ? html`<input type="hidden" name="redirect_to" value="${redirectTo}">` : ''}
${field({ name: 'user_name', label: 'User name or e-mail address', value: text(values, 'user_name'), autocomplete: 'username', required: true, autofocus: true }, errors)}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true }, errors)}
${checkbox('remember', 'Remember this device', values.remember === 'on')}
${submitButton('Sign in')}</form>
${config.service.disable_registration ? '' : html`<p>No account? <a href="${rootPath(req, '/user/sign_up')}">Register</a></p>`}</div>`,
  });
}

/** GET /user/login: the form; a browser already signed in goes on to where it was headed. */
export function loginForm(req: Request, res: Response): void {
  if (sessionOf(res)) return void res.redirect(303, destination(req, req.query.redirect_to));
  loginPage(req, res, { redirect_to: req.query.redirect_to }, {});
}

/** POST /user/login: a new session (a new id) on success; the form again with the error if not. */
export async function login(req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Form;
  const errors: FieldErrors = {};
  if (!text(body, 'user_name').trim()) errors.user_name = 'Enter your user name or e-mail address.';
  if (!text(body, 'password')) errors.password = 'Enter your password.';
  if (Object.keys(errors).length) return loginPage(req, res, body, errors, 422);
  try {
    const user = await checkPasswordForm(req, res);
    const old = sessionOf(res);
    if (old) await revokeSession(req.ctx.db, user, old.id).catch(() => undefined);
    await startSession(req, res, user, body.remember === 'on');
    const next = mustSetPasswordFirst(user, true) ? rootPath(req, CHANGE_PASSWORD_PATH) : destination(req, body.redirect_to);
    res.redirect(303, next);
  } catch (err) {
    if (err instanceof TooManyRequestsError) res.setHeader('Retry-After', String(err.retryAfter));
    if (err instanceof UnauthorizedError || err instanceof TooManyRequestsError || err instanceof ForbiddenError) {
      return loginPage(req, res, body, { '': err.message }, err instanceof UnauthorizedError ? 422 : err.status);
    }
    throw err;
  }
}

/** POST /user/logout: ends this browser's session. */
export async function logout(req: Request, res: Response): Promise<void> {
  const session = sessionOf(res);
  if (session && req.ctx.signer) await revokeSession(req.ctx.db, req.ctx.signer, session.id);
  endSessionCookie(req, res);
  res.redirect(303, req.ctx.config.server.root_url);
}

function signUpPage(req: Request, res: Response, values: Form, errors: FieldErrors, status = 200): void {
  sendPage(req, res, {
    status,
    title: 'Register',
    body: html`<div class="box"><h1>Register</h1>${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, '/user/sign_up')}">${csrfInput(req, res)}
${field({ name: 'user_name', label: 'User name', value: text(values, 'user_name'), autocomplete: 'username', required: true, autofocus: true }, errors)}
${field({ name: 'email', label: 'E-mail address', type: 'email', value: text(values, 'email'), autocomplete: 'email', required: true }, errors)}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', required: true, hint: `At least ${req.ctx.config.security.min_password_length} characters.` }, errors)}
${field({ name: 'retype', label: 'Confirm the password', type: 'password', autocomplete: 'new-password', required: true }, errors)}
${submitButton('Register')}</form></div>`,
  });
}

const registrationOpen = (req: Request): void => {
  if (req.ctx.config.service.disable_registration) throw new NotFoundError();
};

export function signUpForm(req: Request, res: Response): void {
  registrationOpen(req);
  signUpPage(req, res, {}, {});
}

/** POST /user/sign_up: the account, made by the same service as the admin's, then signed in. */
export async function signUp(req: Request, res: Response): Promise<void> {
  registrationOpen(req);
  const body = (req.body ?? {}) as Form;
  if (text(body, 'password') !== text(body, 'retype')) return signUpPage(req, res, body, { retype: 'The passwords do not match.' }, 422);
  let made: Awaited<ReturnType<typeof createUser>> | undefined;
  const errors = await formAction(async () => {
    made = await createUser(req.ctx.db, req.ctx.config, { username: text(body, 'user_name').trim(), email: text(body, 'email'), password: text(body, 'password'), selfSignUp: true });
  }, { username: 'user_name' });
  if (errors || !made) return signUpPage(req, res, body, errors ?? {}, 422);
  await startSession(req, res, made, false);
  res.redirect(303, req.ctx.config.server.root_url);
}

function passwordPage(req: Request, res: Response, errors: FieldErrors, status = 200): void {
  const signer = req.ctx.signer;
  const must = signer && mustSetPasswordFirst(signer, req.ctx.auth === 'session');
  sendPage(req, res, {
    status,
    title: 'Change your password',
    body: html`<div class="box"><h1>Change your password</h1>
${must ? html`<p>${signer.password_printed ? 'This password was printed when hearth made it: choose your own before going on.' : 'You must change your password before going on.'}</p>` : ''}${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, CHANGE_PASSWORD_PATH)}">${csrfInput(req, res)}
${field({ name: 'old_password', label: 'Current password', type: 'password', autocomplete: 'current-password', required: true }, errors)}
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true }, errors)}
${field({ name: 'retype', label: 'Confirm the new password', type: 'password', autocomplete: 'new-password', required: true }, errors)}
${submitButton('Change password')}</form></div>`,
  });
}

export const passwordForm = (req: Request, res: Response): void => passwordPage(req, res, {});

/** The old address of the page (the API's 403 message names it). */
export const oldPasswordUrl = (req: Request, res: Response): void => res.redirect(301, rootPath(req, CHANGE_PASSWORD_PATH));

/** POST: the browser that changed it stays signed in, every other session of the user ends. */
export async function changePassword(req: Request, res: Response): Promise<void> {
  const keep = sessionOf(res)?.id ?? 0;
  const errors = await formAction(() => changeOwnPassword(req.ctx.h, req.ctx.signer!, req.body ?? {}, keep));
  if (errors) return passwordPage(req, res, errors, 422);
  redirectAfterPost(req, res, '/');
}
