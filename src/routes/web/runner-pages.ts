import type { Request, Response } from 'express';
import { html } from '../../lib/html';
import type { ActionsScope } from '../../models/actions-secrets';
import { newRegistrationToken, registrationToken } from '../../services/actions/registration-tokens';
import { deleteRunner, getRunner, listRunners, type RunnerView } from '../../services/actions/runners';
import { setRunnerDisabled } from '../../services/actions/runners';
import { confirmPage, csrfInput, redirectAfterPost, submitButton } from './forms';
import { indexParam } from './issue-view-pages';
import { sendPage, webUrl, when } from './layout';

// The runners pages of each level (Gitea's repository settings, organization settings and site
// administration "Runners"): the list with each runner's state, the registration token (shown,
// and reset by a form), one runner's page where it is paused or resumed, and deleting it after a
// confirmation. The level's guard (runner-routes.ts) sets the scope and the base path.

export type RunnerLevel = { scope: ActionsScope; base: string; heading: string };
const level = (res: Response) => res.locals.runnerLevel as RunnerLevel;
const at = (req: Request, res: Response, rest = '') => webUrl(req.ctx.config, `${level(res).base}${rest ? `/${rest}` : ''}`);

function state(v: RunnerView): string {
  if (v.runner.disabled) return 'Paused';
  return v.busy ? 'Busy' : v.online ? 'Idle' : 'Offline';
}
const labelsOf = (v: RunnerView): string[] => {
  try { return JSON.parse(v.runner.labels) as string[]; } catch { return []; }
};

/** GET .../actions/runners */
export async function runnersPage(req: Request, res: Response): Promise<void> {
  const l = level(res);
  const [{ views }, token] = await Promise.all([listRunners(req.ctx.db, l.scope, { offset: 0, limit: 200 }, undefined), registrationToken(req.ctx.db, l.scope)]);
  sendPage(req, res, {
    title: `Runners · ${l.heading}`,
    body: html`<h1>Runners <span class="meta">${l.heading}</span></h1>
<section class="box"><h2>Registration token</h2><p>Register a runner with this token: <code>hearth runner register --instance ${req.ctx.config.server.root_url} --token &lt;token&gt;</code></p>
<div class="clone-row"><label for="reg-token">Token</label><input id="reg-token" type="text" readonly value="${token.token}"><button type="button" class="copy" data-copy-from="reg-token" aria-label="Copy the registration token" hidden>Copy</button></div>
<form method="post" action="${at(req, res, 'reset_registration_token')}">${csrfInput(req, res)}${submitButton('Reset the token', '')}</form></section>
<section><h2>${views.length} ${views.length === 1 ? 'runner' : 'runners'}</h2>${views.length ? html`<ul class="list">${views.map((v) => html`<li><a href="${at(req, res, String(v.runner.id))}">${v.runner.name || v.runner.uuid}</a>
<p class="meta">${state(v)} · ${labelsOf(v).join(', ') || 'no labels'} · version ${v.runner.version || 'unknown'}${v.runner.last_online_unix ? html` · seen ${when(v.runner.last_online_unix)}` : ''}</p></li>`)}</ul>` : html`<p>No runner is registered here yet.</p>`}</section>`,
  });
}

/** POST .../runners/reset_registration_token */
export async function resetToken(req: Request, res: Response): Promise<void> {
  await newRegistrationToken(req.ctx.db, level(res).scope);
  redirectAfterPost(req, res, level(res).base);
}

/** GET .../runners/{id} */
export async function runnerPage(req: Request, res: Response): Promise<void> {
  const v = await getRunner(req.ctx.db, level(res).scope, indexParam(req, 'id'));
  const name = v.runner.name || v.runner.uuid;
  sendPage(req, res, {
    title: `Runner ${name}`,
    body: html`<p><a href="${at(req, res)}">All runners</a></p><h1>Runner ${name}</h1>
<dl><dt>State</dt><dd>${state(v)}</dd><dt>Labels</dt><dd>${labelsOf(v).join(', ') || 'none'}</dd><dt>Version</dt><dd>${v.runner.version || 'unknown'}</dd>${v.runner.description ? html`<dt>Description</dt><dd>${v.runner.description}</dd>` : ''}</dl>
<div class="row-actions"><form method="post" action="${at(req, res, String(v.runner.id))}">${csrfInput(req, res)}<input type="hidden" name="disabled" value="${v.runner.disabled ? 'false' : 'true'}">${submitButton(v.runner.disabled ? 'Resume: take jobs again' : 'Pause: take no new jobs', '')}</form>
<a class="button danger" href="${at(req, res, `${v.runner.id}/delete`)}">Delete runner</a></div>`,
  });
}

/** POST .../runners/{id}: pause or resume. */
export async function runnerEdit(req: Request, res: Response): Promise<void> {
  const id = indexParam(req, 'id');
  await setRunnerDisabled(req.ctx.db, level(res).scope, id, (req.body as Record<string, unknown>)?.disabled === 'true');
  redirectAfterPost(req, res, `${level(res).base}/${id}`);
}

/** GET .../runners/{id}/delete */
export async function runnerDeleteConfirm(req: Request, res: Response): Promise<void> {
  const v = await getRunner(req.ctx.db, level(res).scope, indexParam(req, 'id'));
  confirmPage(req, res, {
    title: 'Delete runner', message: html`The runner <strong>${v.runner.name || v.runner.uuid}</strong> is unregistered: it can take no more jobs until it registers again.`,
    action: at(req, res, `${v.runner.id}/delete`), button: 'Delete runner', cancel: at(req, res, String(v.runner.id)),
  });
}

/** POST .../runners/{id}/delete */
export async function runnerDelete(req: Request, res: Response): Promise<void> {
  await deleteRunner(req.ctx.db, level(res).scope, indexParam(req, 'id'));
  redirectAfterPost(req, res, level(res).base);
}
