import type { Request, Response } from 'express';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { FORGE_SERVICES } from '../../services/migrate/downloaders';
import { creatableOwners } from '../../services/web/repo-create';
import { migrationFor, startMigration } from '../../services/web/migrate-start';
import { doerOf } from '../context';
import { checkbox, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { selectField } from './admin-layout';
import { sendPage, webUrl } from './layout';
import { formOf, text } from './settings-layout';

// /repo/migrate (Gitea's migration form: the service, clone address, credentials, owner, name,
// visibility, mirror with its interval, what to import) and its progress page, which reloads
// itself without script (a Refresh header) until the migration finished or failed.

type Form = Record<string, unknown>;

const SERVICE_LABELS: Record<string, string> = {
  git: 'Git', gitea: 'Gitea', forgejo: 'Forgejo', gogs: 'Gogs', github: 'GitHub', gitlab: 'GitLab', onedev: 'OneDev',
  gitbucket: 'GitBucket', codebase: 'Codebase', codecommit: 'AWS CodeCommit',
};
const SERVICES = ['git', ...FORGE_SERVICES];
const ITEMS: [string, string][] = [
  ['wiki', 'Wiki'], ['lfs', 'LFS files'], ['labels', 'Labels'], ['milestones', 'Milestones'], ['issues', 'Issues'],
  ['pull_requests', 'Pull requests'], ['releases', 'Releases'],
];

async function formBody(req: Request, res: Response, v: Form, errors: FieldErrors): Promise<SafeHtml> {
  const owners = await creatableOwners(req.ctx.db, doerOf(req));
  return html`<h1>New migration</h1>${formAlert(errors[''])}
<form class="stack wide" method="post" action="${webUrl(req.ctx.config, 'repo/migrate')}">${csrfInput(req, res)}
${selectField('service', 'Migrate from', SERVICES.map((s) => ({ value: s, label: SERVICE_LABELS[s] ?? s })), text(v, 'service') || 'git', errors)}
${field({ name: 'clone_addr', label: 'Clone address (URL)', type: 'url', value: text(v, 'clone_addr'), required: true, autofocus: true }, errors)}
<fieldset><legend>Credentials (if the source needs them)</legend>
${field({ name: 'auth_username', label: 'Username', value: text(v, 'auth_username'), autocomplete: 'off' }, errors)}
${field({ name: 'auth_password', label: 'Password', type: 'password', autocomplete: 'off' }, errors)}
${field({ name: 'auth_token', label: 'Access token', type: 'password', autocomplete: 'off', hint: 'Forges other than plain git read issues and the rest through their API with it.' }, errors)}</fieldset>
${selectField('uid', 'Owner', owners.map((o) => ({ value: String(o.id), label: o.name })), text(v, 'uid') || String(doerOf(req).id), errors)}
${field({ name: 'repo_name', label: 'Repository name', value: text(v, 'repo_name'), required: true }, errors)}
${field({ name: 'description', label: 'Description', value: text(v, 'description') }, errors)}
${checkbox('private', 'Private', v.private === 'on')}
${checkbox('mirror', 'Mirror: keep it in sync with the source', v.mirror === 'on')}
${field({ name: 'mirror_interval', label: 'Mirror interval', value: text(v, 'mirror_interval'), hint: 'As 8h0m0s; empty takes the site default.' }, errors)}
<fieldset><legend>Import (from forges)</legend>${ITEMS.map(([k, label]) => checkbox(k, label, v[k] === 'on'))}</fieldset>
${submitButton('Migrate repository')}</form>`;
}

/** GET /repo/migrate */
export async function migrateForm(req: Request, res: Response): Promise<void> {
  sendPage(req, res, { title: 'New migration', body: await formBody(req, res, {}, {}) });
}

/** POST /repo/migrate: 303 to the progress page once started, or the form again (422). */
export async function migratePost(req: Request, res: Response): Promise<void> {
  const b = formOf(req);
  const on = (k: string) => b[k] === 'on';
  let target: { owner: string; repo: string } | undefined;
  const errors = await formAction(async () => {
    target = await startMigration(req.ctx.h, doerOf(req), {
      cloneAddr: text(b, 'clone_addr').trim(), repoName: text(b, 'repo_name').trim(), uid: Number(text(b, 'uid')) || undefined,
      description: text(b, 'description').slice(0, 2048), private: on('private'), mirror: on('mirror'), mirrorInterval: text(b, 'mirror_interval') || undefined,
      authUsername: text(b, 'auth_username') || undefined, authPassword: text(b, 'auth_password') || undefined, authToken: text(b, 'auth_token') || undefined,
      service: text(b, 'service') || 'git', wiki: on('wiki'), lfs: on('lfs'),
      items: { issues: on('issues'), labels: on('labels'), milestones: on('milestones'), pull_requests: on('pull_requests'), releases: on('releases') },
    });
  }, { repo_owner: 'uid', mirror_interval: 'mirror_interval' });
  if (errors || !target) return sendPage(req, res, { status: 422, title: 'New migration', body: await formBody(req, res, b, errors ?? {}) });
  redirectAfterPost(req, res, `repo/migrate/${encodePath(target.owner)}/${encodePath(target.repo)}`);
}

/** GET /repo/migrate/{owner}/{repo}: where the migration stands; reloads itself while it runs. */
export function migrateProgress(req: Request, res: Response): void {
  const st = migrationFor(String(req.params.owner), String(req.params.repo), req.ctx.doer);
  const { config } = req.ctx;
  const repoUrl = webUrl(config, `${encodePath(st.owner)}/${encodePath(st.repo)}`);
  const here = webUrl(config, `repo/migrate/${encodePath(st.owner)}/${encodePath(st.repo)}`);
  if (st.state === 'running') res.setHeader('Refresh', '2');
  const counts = Object.entries(st.counts).map(([k, n]) => html`<li>${k.replace(/_/g, ' ')}: ${String(n)}</li>`);
  const state = st.state === 'running'
    ? html`<p role="status">Migrating from ${SERVICE_LABELS[st.service] ?? st.service}: <strong>${st.stage.replace(/_/g, ' ')}</strong>. This page reloads itself; <a href="${here}">reload now</a>.</p>`
    : st.state === 'finished'
      ? html`<p role="status" class="flash">The migration has finished. <a href="${repoUrl}">Open ${st.owner}/${st.repo}</a>.</p>`
      : html`<div class="flash error" role="alert"><p>The migration failed: ${st.error}</p><p><a href="${webUrl(config, 'repo/migrate')}">Try again</a></p></div>`;
  sendPage(req, res, {
    title: `Migrating ${st.owner}/${st.repo}`,
    body: html`<div class="box"><h1>Migrating ${st.owner}/${st.repo}</h1>${state}${counts.length ? html`<h2>Imported</h2><ul>${counts}</ul>` : ''}</div>`,
  });
}
