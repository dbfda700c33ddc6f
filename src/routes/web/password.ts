import express, { type Request, type Response } from 'express';
import { html } from '../../lib/html';
import { changeOwnPassword } from '../../services/user/users';
import { sendPage } from './layout';

// `/user/change_password`: where a user flagged must_change_password sets a new one (the API
// answers them 403 until then, as Gitea).

const FORM = html`<form method="post" action="change_password">
<p><label>Current password <input type="password" name="old_password" autocomplete="current-password" required></label></p>
<p><label>New password <input type="password" name="password" autocomplete="new-password" required></label></p>
<p><label>Confirm the new password <input type="password" name="retype" autocomplete="new-password" required></label></p>
<p><button type="submit">Change password</button></p>
</form>`;

export const body = express.urlencoded({ extended: false, limit: '16kb' });

export function form(req: Request, res: Response): void {
  const ask = req.ctx.signer!.must_change_password ? html`<p>You must change your password before going on.</p>\n` : '';
  sendPage(req, res, { title: 'Change your password', body: html`<h1>Change your password</h1>\n${ask}${FORM}` });
}

export async function change(req: Request, res: Response): Promise<void> {
  await changeOwnPassword(req.ctx.db, req.ctx.config, req.ctx.signer!, req.body ?? {});
  sendPage(req, res, { title: 'Password changed', body: html`<h1>Password changed</h1>\n<p>Your password has been changed.</p>` });
}
