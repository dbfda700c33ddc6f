import type { Request, Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { html } from '../../lib/html';
import { addDeployKey, deleteDeployKey, getDeployKey, listDeployKeys } from '../../services/repo/deploy-keys';
import {
  createTagProtection, deleteTagProtection, editTagProtection, getTagProtection, listTagProtections,
} from '../../services/repo/tag-protection';
import { checkbox, confirmPage, csrfInput, field, formAlert, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { when } from './layout';
import { repoSettingsPage, settingsAction, settingsDone, settingsLink } from './repo-settings-layout';
import { formOf, text, textArea } from './settings-layout';

// Two lists of the repository settings, each with its add form and delete confirmation: deploy
// keys (read-only or with write access; Gitea's /settings/keys) and tag protection rules (a tag
// pattern and who may push matching tags; /settings/tags, each editable in place with ?edit=).
// Every form calls the service of the API's /keys and /tag_protections routes.

type Form = Record<string, unknown>;

const idParam = (req: Request): number => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
};
const names = (f: Form, k: string) => text(f, k).split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);

async function keysView(req: Request, res: Response, errors?: FieldErrors): Promise<void> {
  const { keys } = await listDeployKeys(req.ctx.db, repoOf(req), {}, { offset: 0, limit: 100 });
  const f = errors ? formOf(req) : {};
  const rows = keys.map((k) => html`<li><strong>${k.name}</strong> <span class="badge">${k.read_only ? 'Read-only' : 'Write'}</span>
<div class="meta"><code>${k.fingerprint}</code> · added ${when(k.created_unix)}</div>
<div class="row-actions"><a class="button danger" href="${settingsLink(req, `keys/${k.id}/delete`)}" aria-label="Delete deploy key ${k.name}">Delete</a></div></li>`);
  repoSettingsPage(req, res, {
    tab: 'keys', title: 'Deploy keys', status: errors ? 422 : 200,
    body: html`<p>Deploy keys give a machine SSH access to this repository alone.</p>
${rows.length ? html`<ul class="list">${rows}</ul>` : html`<p>No deploy keys.</p>`}
<section id="add" aria-labelledby="add-h"><h3 id="add-h">Add a deploy key</h3>${formAlert(errors?.[''])}
<form class="stack" method="post" action="${settingsLink(req, 'keys')}">${csrfInput(req, res)}
${field({ name: 'title', label: 'Title', value: text(f, 'title'), required: true }, errors)}
${textArea({ name: 'content', label: 'Public key', value: text(f, 'content'), mono: true, required: true, hint: 'Begins with ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256…' }, errors)}
${checkbox('is_writable', 'Allow write access (pushes)', text(f, 'is_writable') === 'on')}
${submitButton('Add deploy key')}</form></section>`,
  });
}

/** GET /{owner}/{repo}/settings/keys */
export const keysPage = (req: Request, res: Response): Promise<void> => keysView(req, res);

/** POST /{owner}/{repo}/settings/keys */
export async function addKeyPost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const errors = await settingsAction(() => addDeployKey(req.ctx.db, repoOf(req), {
    title: text(f, 'title').trim(), key: text(f, 'content').trim(), read_only: text(f, 'is_writable') !== 'on',
  }), { key: 'content' });
  if (errors) return keysView(req, res, errors);
  res.redirect(303, settingsDone(req, 'keys', 'key-added'));
}

/** GET /{owner}/{repo}/settings/keys/{id}/delete */
export async function deleteKeyPage(req: Request, res: Response): Promise<void> {
  const key = await getDeployKey(req.ctx.db, repoOf(req), idParam(req));
  confirmPage(req, res, {
    title: 'Delete deploy key', message: html`The key <strong>${key.name}</strong> no longer reaches this repository.`,
    action: settingsLink(req, `keys/${key.id}/delete`), button: 'Delete deploy key', cancel: settingsLink(req, 'keys'),
  });
}

/** POST /{owner}/{repo}/settings/keys/{id}/delete */
export async function deleteKeyPost(req: Request, res: Response): Promise<void> {
  await deleteDeployKey(req.ctx.db, repoOf(req), idParam(req));
  res.redirect(303, settingsDone(req, 'keys', 'key-deleted'));
}

type TagPosted = { key: string; errors: FieldErrors };

function tagFields(key: string, v: Form, e: FieldErrors) {
  return html`${field({ name: 'name_pattern', id: `${key}-pattern`, label: 'Tag name or pattern', value: text(v, 'name_pattern'), required: true, hint: 'A glob (v*) or a regular expression between slashes (/^v[0-9]+$/)' }, e)}
${field({ name: 'users', id: `${key}-users`, label: 'Users who may push these tags (comma-separated)', value: text(v, 'users') }, e)}
${field({ name: 'teams', id: `${key}-teams`, label: 'Teams who may push these tags (comma-separated)', value: text(v, 'teams') }, e)}`;
}

async function tagsView(req: Request, res: Response, posted?: TagPosted): Promise<void> {
  const rules = await listTagProtections(req.ctx.db, repoOf(req));
  const editing = posted?.key ?? (typeof req.query.edit === 'string' ? req.query.edit : '');
  const mine = (key: string) => (posted?.key === key ? { v: formOf(req), e: posted.errors } : undefined);
  const rows = rules.map((r) => {
    const key = String(r.row.id);
    if (key !== editing) {
      return html`<li><strong><code>${r.row.name_pattern}</code></strong> <span class="meta">${[...r.users, ...r.teams.map((t) => `team ${t}`)].join(', ') || 'nobody'}</span>
<div class="row-actions"><a href="${settingsLink(req, `tags?edit=${key}`)}" aria-label="Edit tag rule ${r.row.name_pattern}">Edit</a> <a class="button danger" href="${settingsLink(req, `tags/${key}/delete`)}" aria-label="Delete tag rule ${r.row.name_pattern}">Delete</a></div></li>`;
    }
    const p = mine(key);
    const v = p?.v ?? { name_pattern: r.row.name_pattern, users: r.users.join(', '), teams: r.teams.join(', ') };
    return html`<li>${formAlert(p?.e[''])}<form class="stack" method="post" action="${settingsLink(req, `tags/${key}`)}">${csrfInput(req, res)}
${tagFields(`edit-${key}`, v, p?.e ?? {})}${submitButton('Save rule')} <a class="button" href="${settingsLink(req, 'tags')}">Cancel</a></form></li>`;
  });
  const fresh = mine('new');
  repoSettingsPage(req, res, {
    tab: 'tags', title: 'Tag protection', status: posted ? 422 : 200,
    body: html`${rows.length ? html`<ul class="list">${rows}</ul>` : html`<p>No tag is protected.</p>`}
<section id="add" aria-labelledby="add-h"><h3 id="add-h">Protect tags</h3>${formAlert(fresh?.e[''])}
<form class="stack" method="post" action="${settingsLink(req, 'tags')}">${csrfInput(req, res)}
${tagFields('new', fresh?.v ?? {}, fresh?.e ?? {})}${submitButton('Add rule')}</form></section>`,
  });
}

/** GET /{owner}/{repo}/settings/tags */
export const tagsPage = (req: Request, res: Response): Promise<void> => tagsView(req, res);

const tagInput = (f: Form) => ({ name_pattern: text(f, 'name_pattern').trim(), whitelist_usernames: names(f, 'users'), whitelist_teams: names(f, 'teams') });
const TAG_FIELDS = { whitelist_usernames: 'users', whitelist_teams: 'teams' };

/** POST /{owner}/{repo}/settings/tags */
export async function addTagPost(req: Request, res: Response): Promise<void> {
  const errors = await settingsAction(() => createTagProtection(req.ctx.db, repoOf(req), tagInput(formOf(req))), TAG_FIELDS, 'name_pattern');
  if (errors) return tagsView(req, res, { key: 'new', errors });
  res.redirect(303, settingsDone(req, 'tags', 'tag-rule-saved'));
}

/** POST /{owner}/{repo}/settings/tags/{id} */
export async function editTagPost(req: Request, res: Response): Promise<void> {
  const id = idParam(req);
  await getTagProtection(req.ctx.db, repoOf(req), id);
  const errors = await settingsAction(() => editTagProtection(req.ctx.db, repoOf(req), id, tagInput(formOf(req))), TAG_FIELDS);
  if (errors) return tagsView(req, res, { key: String(id), errors });
  res.redirect(303, settingsDone(req, 'tags', 'tag-rule-saved'));
}

/** GET /{owner}/{repo}/settings/tags/{id}/delete */
export async function deleteTagPage(req: Request, res: Response): Promise<void> {
  const rule = await getTagProtection(req.ctx.db, repoOf(req), idParam(req));
  confirmPage(req, res, {
    title: 'Delete tag protection rule', message: html`Tags matching <code>${rule.row.name_pattern}</code> are no longer protected by it.`,
    action: settingsLink(req, `tags/${rule.row.id}/delete`), button: 'Delete rule', cancel: settingsLink(req, 'tags'),
  });
}

/** POST /{owner}/{repo}/settings/tags/{id}/delete */
export async function deleteTagPost(req: Request, res: Response): Promise<void> {
  await deleteTagProtection(req.ctx.db, repoOf(req), idParam(req));
  res.redirect(303, settingsDone(req, 'tags', 'tag-rule-deleted'));
}
