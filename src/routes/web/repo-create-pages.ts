import type { Request, Response } from 'express';
import { AppError, InvalidError } from '../../lib/errors';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import { createChoices, createFromForm, creatableOwners, forkFromForm, type CreateChoices } from '../../services/web/repo-create';
import type { User } from '../../db/schema';
import { doerOf, repoOf } from '../context';
import { checkbox, csrfInput, field, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { sendPage, webUrl } from './layout';
import { repoPage } from './repo-view';

// `/repo/create` (Gitea's form: owner, name, description, visibility, template, label set,
// .gitignore, licence, README, default branch) and `/{owner}/{repo}/fork` (owner and name),
// through the services the API's repository creation, generation and forks use.

type Body = Record<string, unknown>;
const text = (b: Body, k: string): string => (typeof b[k] === 'string' ? (b[k] as string) : '');
const list = (b: Body, k: string): string[] => [b[k]].flat().filter((v): v is string => typeof v === 'string' && v !== '');

function select(name: string, label: string, options: { value: string; label: string }[], chosen: string[], opts: { multiple?: boolean; hint?: string } = {}, errors: FieldErrors = {}): SafeHtml {
  const id = `f-${name}`;
  const error = errors[name];
  const described = [opts.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${label}</label>
<select id="${id}" name="${name}"${opts.multiple ? raw(' multiple size="6"') : ''}${described ? html` aria-describedby="${described}"` : ''}${error ? raw(' aria-invalid="true"') : ''}>${options.map((o) => html`<option value="${o.value}"${chosen.includes(o.value) ? raw(' selected') : ''}>${o.label}</option>`)}</select>
${opts.hint ? html`<p class="meta" id="${id}-hint">${opts.hint}</p>` : ''}${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}</div>`;
}

const ownerOptions = (owners: User[]) => owners.map((o) => ({ value: String(o.id), label: o.name }));
const none = (label: string) => ({ value: '', label });

/** Errors of the services, beside the field they concern. */
function fieldErrors(err: unknown, fields: Record<string, string>): FieldErrors | null {
  if (!(err instanceof AppError) || ![400, 403, 409, 422].includes(err.status)) return null;
  if (err instanceof InvalidError && err.field) return { [fields[err.field] ?? err.field]: err.message };
  if (err.status === 409) return { repo_name: err.message };
  if (/name/i.test(err.message) && err.status === 422) return { repo_name: err.message };
  return { '': err.message };
}

function createBody(req: Request, res: Response, c: CreateChoices, b: Body, errors: FieldErrors): SafeHtml {
  const doer = doerOf(req);
  const opt = (n: string) => ({ value: n, label: n });
  return html`<h1>New repository</h1>${formAlert(errors[''])}
<form class="stack wide" method="post" action="${webUrl(req.ctx.config, 'repo/create')}">${csrfInput(req, res)}
${select('uid', 'Owner', ownerOptions(c.owners), [text(b, 'uid') || String(doer.id)], {}, errors)}
${field({ name: 'repo_name', label: 'Repository name', value: text(b, 'repo_name'), required: true, autofocus: true, hint: 'Letters, digits, dashes, underscores and dots.' }, errors)}
${field({ name: 'description', label: 'Description', value: text(b, 'description') }, errors)}
${checkbox('private', 'Private: only you and those you let in see it', b.private === 'on')}
${select('repo_template', 'Template', [none('None'), ...c.templates.map((t) => ({ value: String(t.id), label: t.fullName }))], [text(b, 'repo_template')], { hint: 'Start from a template repository: its files, topics and labels.' }, errors)}
${checkbox('template', 'Make this repository a template', b.template === 'on')}
<fieldset><legend>Initialize the repository</legend>
${select('issue_labels', 'Issue labels', [none('None'), ...c.labelSets.map(opt)], [text(b, 'issue_labels')], {}, errors)}
${select('gitignores', '.gitignore', c.gitignores.map(opt), list(b, 'gitignores'), { multiple: true, hint: 'Choose any number.' }, errors)}
${select('license', 'Licence', [none('None'), ...c.licenses.map(opt)], [text(b, 'license')], {}, errors)}
${select('readme', 'README', [opt('Default')], ['Default'], {}, errors)}
${checkbox('auto_init', 'Initialize with the files above (README, .gitignore, licence)', b.auto_init === 'on')}
${field({ name: 'default_branch', label: 'Default branch', value: text(b, 'default_branch') || req.ctx.config.repository.default_branch }, errors)}
${select('object_format_name', 'Object format', [opt('sha1'), opt('sha256')], [text(b, 'object_format_name') || 'sha1'], {}, errors)}
</fieldset>
${submitButton('Create repository')}</form>`;
}

async function createPage(req: Request, res: Response, b: Body, errors: FieldErrors, status: number): Promise<void> {
  const choices = await createChoices(req.ctx.db, doerOf(req));
  sendPage(req, res, { status, title: 'New repository', body: createBody(req, res, choices, b, errors) });
}

/** GET /repo/create */
export const createForm = (req: Request, res: Response) => createPage(req, res, {}, {}, 200);

/** POST /repo/create: 303 to the new repository, or the form again (422) with the errors. */
export async function createPost(req: Request, res: Response): Promise<void> {
  const b = (req.body ?? {}) as Body;
  const fields = { name: 'repo_name', gitignores: 'gitignores', license: 'license', readme: 'readme', issue_labels: 'issue_labels', default_branch: 'default_branch', object_format_name: 'object_format_name' };
  try {
    const made = await createFromForm(req.ctx.h, doerOf(req), {
      ownerId: Number(text(b, 'uid')) || 0, templateId: Number(text(b, 'repo_template')) || 0,
      name: text(b, 'repo_name').trim(), description: text(b, 'description').slice(0, 2048), private: b.private === 'on', template: b.template === 'on',
      autoInit: b.auto_init === 'on', readme: text(b, 'readme') || undefined, gitignores: list(b, 'gitignores').join(','),
      license: text(b, 'license') || undefined, issueLabels: text(b, 'issue_labels') || undefined,
      defaultBranch: text(b, 'default_branch').trim() || undefined, objectFormat: text(b, 'object_format_name') || undefined,
    });
    redirectAfterPost(req, res, `${encodePath(made.owner.name)}/${encodePath(made.repo.name)}`);
  } catch (err) {
    const errors = fieldErrors(err, fields);
    if (!errors) throw err;
    await createPage(req, res, b, errors, 422);
  }
}

async function forkPage(req: Request, res: Response, b: Body, errors: FieldErrors, status: number): Promise<void> {
  const doer = doerOf(req);
  const access = repoOf(req);
  const owners = await creatableOwners(req.ctx.db, doer);
  repoPage(req, res, 'Fork', 'none', html`<h2>Fork ${access.owner.name}/${access.repo.name}</h2>${formAlert(errors[''])}
<form class="stack" method="post">${csrfInput(req, res)}
${select('uid', 'Owner', ownerOptions(owners), [text(b, 'uid') || String(doer.id)], {}, errors)}
${field({ name: 'repo_name', label: 'Repository name', value: text(b, 'repo_name') || access.repo.name, required: true }, errors)}
${submitButton('Fork repository')}</form>`, status);
}

/** GET /{owner}/{repo}/fork */
export const forkForm = (req: Request, res: Response) => forkPage(req, res, {}, {}, 200);

/** POST /{owner}/{repo}/fork: 303 to the fork. */
export async function forkPost(req: Request, res: Response): Promise<void> {
  const b = (req.body ?? {}) as Body;
  try {
    const fork = await forkFromForm(req.ctx.h, doerOf(req), repoOf(req), Number(text(b, 'uid')) || 0, text(b, 'repo_name').trim());
    redirectAfterPost(req, res, `${encodePath(fork.owner.name)}/${encodePath(fork.repo.name)}`);
  } catch (err) {
    const errors = fieldErrors(err, { name: 'repo_name', organization: 'uid' });
    if (!errors) throw err;
    await forkPage(req, res, b, errors, 422);
  }
}
