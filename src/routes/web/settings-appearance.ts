import type { Request, Response } from 'express';
import type { WebSession } from '../../db/schema';
import { html } from '../../lib/html';
import { updateAppearance } from '../../services/user/account';
import { listSessions, revokeOtherSessions, revokeSession } from '../../services/user/sessions';
import { checkbox, csrfInput, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { rootPath } from './guards';
import { themeOf, when } from './layout';
import { endSessionCookie, sessionOf } from './session';
import { donePath, formOf, radioGroup, settingsPage, text } from './settings-layout';

// /user/settings/appearance (theme, single-key shortcuts, diff style: the layout and the page
// script read them) and /user/settings/sessions (the browsers signed in as the user, each with
// its address, browser and last request; sign out one, or every other).

type Form = Record<string, unknown>;

function appearancePage(req: Request, res: Response, values?: Form, errors: FieldErrors = {}, status = 200): void {
  const user = req.ctx.doer!;
  const v = values ?? { theme: `gitea-${themeOf(req.ctx.config, user)}`, diff_view_style: user.diff_view_style || 'unified', keyboard_shortcuts: user.keyboard_shortcuts ? 'on' : '' };
  settingsPage(req, res, {
    tab: 'appearance', title: 'Appearance', status,
    body: html`${formAlert(errors[''])}<form class="stack" method="post" action="${rootPath(req, '/user/settings/appearance')}">${csrfInput(req, res)}
${radioGroup('theme', 'Theme', [
    { value: 'gitea-auto', label: 'Automatic', hint: 'follows your system\'s light or dark setting' },
    { value: 'gitea-light', label: 'Light' },
    { value: 'gitea-dark', label: 'Dark' },
  ], text(v, 'theme'), errors)}
${radioGroup('diff_view_style', 'Diff style', [
    { value: 'unified', label: 'Unified', hint: 'old and new lines in one column' },
    { value: 'split', label: 'Split', hint: 'old and new side by side' },
  ], text(v, 'diff_view_style'), errors)}
<fieldset class="field"><legend>Keyboard</legend>${checkbox('keyboard_shortcuts', 'Single-key shortcuts (press ? on any page to list them)', v.keyboard_shortcuts === 'on')}</fieldset>
${submitButton('Save appearance')}</form>`,
  });
}

export const appearanceForm = (req: Request, res: Response): void => appearancePage(req, res);

/** POST /user/settings/appearance */
export async function saveAppearance(req: Request, res: Response): Promise<void> {
  const body = formOf(req);
  const errors = await formAction(async () => {
    await updateAppearance(req.ctx.db, req.ctx.signer!, {
      theme: text(body, 'theme'), diff_view_style: text(body, 'diff_view_style'), keyboard_shortcuts: body.keyboard_shortcuts === 'on',
    });
  });
  if (errors) return appearancePage(req, res, body, errors, 422);
  redirectAfterPost(req, res, donePath('/user/settings/appearance', 'appearance'));
}

function sessionRow(req: Request, res: Response, s: WebSession, current: boolean) {
  return html`<li><strong>${s.user_agent || 'Unknown browser'}</strong>${current ? html` <span class="badge">This browser</span>` : ''}
<div class="meta">From ${s.ip || 'an unknown address'} · signed in ${when(s.created_unix)} · last seen ${when(s.last_seen_unix)}${s.remember ? ' · remembered' : ''}</div>
<div class="row-actions"><form method="post" action="${rootPath(req, '/user/settings/sessions/revoke')}">${csrfInput(req, res)}<input type="hidden" name="id" value="${String(s.id)}">
<button type="submit" aria-label="Sign out ${current ? 'this browser' : `the session from ${s.ip || 'an unknown address'}, last seen ${new Date(s.last_seen_unix * 1000).toISOString()}`}">Sign out</button></form></div></li>`;
}

export async function sessionsPage(req: Request, res: Response): Promise<void> {
  const current = sessionOf(res)?.id ?? 0;
  const sessions = await listSessions(req.ctx.db, req.ctx.doer!);
  const others = sessions.filter((s) => s.id !== current).length;
  settingsPage(req, res, {
    tab: 'sessions', title: 'Sessions',
    body: html`<p>The browsers signed in as you. Sign out any you do not recognise, and change your password.</p>
<ul class="list">${sessions.map((s) => sessionRow(req, res, s, s.id === current))}</ul>
${others ? html`<form method="post" action="${rootPath(req, '/user/settings/sessions/revoke_others')}">${csrfInput(req, res)}<p>${submitButton('Sign out all other sessions', 'danger')}</p></form>` : ''}`,
  });
}

/** POST /user/settings/sessions/revoke (`id`): ending this browser's own session signs it out. */
export async function endSession(req: Request, res: Response): Promise<void> {
  const id = Number(text(formOf(req), 'id'));
  await revokeSession(req.ctx.db, req.ctx.signer!, Number.isInteger(id) ? id : 0);
  if (id === sessionOf(res)?.id) {
    endSessionCookie(req, res);
    return void res.redirect(303, req.ctx.config.server.root_url);
  }
  redirectAfterPost(req, res, donePath('/user/settings/sessions', 'session-ended'));
}

/** POST /user/settings/sessions/revoke_others */
export async function endOtherSessions(req: Request, res: Response): Promise<void> {
  await revokeOtherSessions(req.ctx.db, req.ctx.signer!.id, sessionOf(res)?.id ?? 0);
  redirectAfterPost(req, res, donePath('/user/settings/sessions', 'sessions-ended'));
}
