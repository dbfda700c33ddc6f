import type { Request, Response } from 'express';
import type { Mirror } from '../../db/schema';
import { goDuration } from '../../lib/go-duration';
import { html, type SafeHtml } from '../../lib/html';
import { requestMirrorSync } from '../../services/mirror/pull-mirror';
import { createPushMirror, deleteRepoPushMirror, getRepoPushMirror, listRepoPushMirrors, syncRepoPushMirrors } from '../../services/mirror/push-mirror';
import { editRepository } from '../../services/repo/repo-edit';
import { mirrorOf } from '../../services/repo/repos';
import { checkbox, confirmPage, csrfInput, field, formAlert, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { when } from './layout';
import { repoSettingsPage, settingsAction, settingsDone, settingsLink } from './repo-settings-layout';
import { formOf, text } from './settings-layout';

// /{owner}/{repo}/settings/mirror: a pull mirror's interval, pruning and "sync now", and the
// push mirrors (add with address and credentials, sync now, delete), through the services of
// PATCH /repos/{o}/{r} (mirror_interval, enable_prune), /mirror-sync and /push_mirrors.

type Posted = { form: 'pull' | 'push'; errors: FieldErrors };

function pullSection(req: Request, res: Response, m: Mirror, posted?: Posted): SafeHtml {
  const e = posted?.form === 'pull' ? posted.errors : {};
  const v = posted?.form === 'pull' ? formOf(req) : { interval: goDuration(m.interval_seconds), enable_prune: m.enable_prune ? 'on' : '' };
  return html`<section id="pull" aria-labelledby="pull-h"><h3 id="pull-h">Pull mirror</h3>
<p>From <code>${m.remote_address}</code>${m.updated_unix ? html` · last synchronized ${when(m.updated_unix)}` : ''}${m.last_error ? html` · <span class="error">${m.last_error}</span>` : ''}</p>
${formAlert(e[''])}<form class="stack" method="post" action="${settingsLink(req, 'mirror')}">${csrfInput(req, res)}
${field({ name: 'interval', label: 'Synchronize every', value: text(v, 'interval'), hint: 'A duration such as 8h0m0s or 30m; 0 turns scheduled synchronization off.' }, e)}
${checkbox('enable_prune', 'Remove refs the remote no longer has', text(v, 'enable_prune') === 'on')}
${submitButton('Save')}</form>
<form method="post" action="${settingsLink(req, 'mirror/sync')}">${csrfInput(req, res)}${submitButton('Synchronize now', '')}</form></section>`;
}

async function pushSection(req: Request, res: Response, posted?: Posted): Promise<SafeHtml> {
  if (!req.ctx.config.mirror.enabled) return html`<p>Mirrors are turned off on this site.</p>`;
  const { mirrors } = await listRepoPushMirrors(req.ctx.h, repoOf(req), { offset: 0, limit: 100 });
  const e = posted?.form === 'push' ? posted.errors : {};
  const v = posted?.form === 'push' ? formOf(req) : {};
  const rows = mirrors.map(({ mirror: m }) => html`<li><code>${m.remote_address}</code> <span class="meta">every ${goDuration(m.interval_seconds)}${m.sync_on_commit ? ', and on each push' : ''}${m.last_update_unix ? html` · last pushed ${when(m.last_update_unix)}` : ''}</span>
${m.last_error ? html`<p class="error">${m.last_error}</p>` : ''}<div class="row-actions"><a class="button danger" href="${settingsLink(req, `mirror/push/delete?name=${encodeURIComponent(m.remote_name)}`)}" aria-label="Delete push mirror ${m.remote_address}">Delete</a></div></li>`);
  return html`<section id="push" aria-labelledby="push-h"><h3 id="push-h">Push mirrors</h3>
${rows.length ? html`<ul class="list">${rows}</ul><form method="post" action="${settingsLink(req, 'mirror/push/sync')}">${csrfInput(req, res)}${submitButton('Push to the mirrors now', '')}</form>` : html`<p>No push mirrors.</p>`}
${formAlert(e[''])}<form class="stack" method="post" action="${settingsLink(req, 'mirror/push')}">${csrfInput(req, res)}
${field({ name: 'remote_address', label: 'Remote address', type: 'url', value: text(v, 'remote_address'), required: true }, e)}
${field({ name: 'remote_username', label: 'User name', value: text(v, 'remote_username'), autocomplete: 'off' }, e)}
${field({ name: 'remote_password', label: 'Password or token', type: 'password', autocomplete: 'new-password' }, e)}
${field({ name: 'interval', id: 'f-push-interval', label: 'Push every', value: text(v, 'interval') || '8h0m0s' }, e)}
${checkbox('sync_on_commit', 'Also push when commits are pushed here', text(v, 'sync_on_commit') === 'on')}
${submitButton('Add push mirror')}</form></section>`;
}

async function view(req: Request, res: Response, posted?: Posted): Promise<void> {
  const mirror = await mirrorOf(req.ctx.db, repoOf(req).repo);
  repoSettingsPage(req, res, {
    tab: 'mirror', title: 'Mirror settings', status: posted ? 422 : 200,
    body: html`${mirror ? pullSection(req, res, mirror, posted) : ''}${await pushSection(req, res, posted)}`,
  });
}

/** GET /{owner}/{repo}/settings/mirror */
export const mirrorPage = (req: Request, res: Response): Promise<void> => view(req, res);

/** POST /{owner}/{repo}/settings/mirror: the pull mirror's interval and pruning. */
export async function pullPost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const errors = await settingsAction(() => editRepository(req.ctx.h, repoOf(req), req.ctx.doer!, {
    mirror_interval: text(f, 'interval').trim(), enable_prune: text(f, 'enable_prune') === 'on',
  }), { mirror_interval: 'interval' });
  if (errors) return view(req, res, { form: 'pull', errors });
  res.redirect(303, settingsDone(req, 'mirror', 'mirror-saved'));
}

/** POST /{owner}/{repo}/settings/mirror/sync */
export async function pullSyncPost(req: Request, res: Response): Promise<void> {
  await requestMirrorSync(req.ctx.h, repoOf(req));
  res.redirect(303, settingsDone(req, 'mirror', 'mirror-syncing'));
}

/** POST /{owner}/{repo}/settings/mirror/push */
export async function pushAddPost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const errors = await settingsAction(() => createPushMirror(req.ctx.h, repoOf(req), req.ctx.doer!, {
    remote_address: text(f, 'remote_address').trim(), remote_username: text(f, 'remote_username'), remote_password: text(f, 'remote_password'),
    interval: text(f, 'interval').trim(), sync_on_commit: text(f, 'sync_on_commit') === 'on',
  }), { interval: 'interval' });
  if (errors) return view(req, res, { form: 'push', errors });
  res.redirect(303, settingsDone(req, 'mirror', 'push-mirror-added'));
}

/** POST /{owner}/{repo}/settings/mirror/push/sync */
export async function pushSyncPost(req: Request, res: Response): Promise<void> {
  await syncRepoPushMirrors(req.ctx.h, repoOf(req));
  res.redirect(303, settingsDone(req, 'mirror', 'mirror-syncing'));
}

const nameOf = (req: Request) => (typeof req.query.name === 'string' ? req.query.name : '');

/** GET /{owner}/{repo}/settings/mirror/push/delete?name= */
export async function pushDeletePage(req: Request, res: Response): Promise<void> {
  const { mirror } = await getRepoPushMirror(req.ctx.h, repoOf(req), nameOf(req));
  confirmPage(req, res, {
    title: 'Delete push mirror', message: html`Nothing more is pushed to <code>${mirror.remote_address}</code>.`,
    action: `${settingsLink(req, 'mirror/push/delete')}?name=${encodeURIComponent(mirror.remote_name)}`, button: 'Delete push mirror', cancel: settingsLink(req, 'mirror'),
  });
}

/** POST /{owner}/{repo}/settings/mirror/push/delete?name= */
export async function pushDeletePost(req: Request, res: Response): Promise<void> {
  await deleteRepoPushMirror(req.ctx.h, repoOf(req), nameOf(req));
  res.redirect(303, settingsDone(req, 'mirror', 'push-mirror-deleted'));
}
