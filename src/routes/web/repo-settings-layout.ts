import type { Request, RequestHandler, Response } from 'express';
import { AppError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { formAction, type FieldErrors } from './forms';
import { escapeHtml, html, raw, type SafeHtml } from '../../lib/html';
import { ACCESS } from '../../services/permissions';
import { repoOf, unitsOf } from './guards';
import { repoHeader, repoLink, sendPage } from './layout';

// The frame of a repository's settings pages (Gitea's /{owner}/{repo}/settings/*): the
// repository header, a named navigation to each section, the section's heading and a fixed
// message after a form did its work (`?done=` names one of DONE, never text of the request).

export type RepoSettingsTab = 'general' | 'collaboration' | 'branches' | 'tags' | 'hooks' | 'keys' | 'actions' | 'mirror';

const TABS: [RepoSettingsTab, string, string][] = [
  ['general', 'General', 'settings'],
  ['collaboration', 'Collaborators', 'settings/collaboration'],
  ['branches', 'Branch protection', 'settings/branches'],
  ['tags', 'Tag protection', 'settings/tags'],
  ['hooks', 'Webhooks', 'settings/hooks'],
  ['keys', 'Deploy keys', 'settings/keys'],
  ['actions', 'Actions secrets and variables', 'settings/actions'],
  ['mirror', 'Mirror settings', 'settings/mirror'],
];

const DONE: Record<string, string> = {
  saved: 'The settings have been saved.',
  archived: 'The repository is archived: it takes no changes until it is unarchived.',
  unarchived: 'The repository takes changes again.',
  'collaborator-added': 'The collaborator has been added.',
  'collaborator-changed': 'The collaborator\'s permission has been changed.',
  'collaborator-removed': 'The collaborator has been removed.',
  'rule-saved': 'The branch protection rule has been saved.',
  'rule-deleted': 'The branch protection rule has been deleted.',
  'hook-added': 'The webhook has been added.',
  'hook-saved': 'The webhook has been saved.',
  'hook-deleted': 'The webhook has been deleted.',
  'hook-tested': 'A test delivery has been queued: it shows below once sent.',
  redelivered: 'The delivery has been queued again.',
  'tag-rule-saved': 'The tag protection rule has been saved.',
  'tag-rule-deleted': 'The tag protection rule has been deleted.',
  'key-added': 'The deploy key has been added.',
  'key-deleted': 'The deploy key has been deleted.',
  'secret-saved': 'The secret has been saved.',
  'secret-deleted': 'The secret has been deleted.',
  'variable-saved': 'The variable has been saved.',
  'variable-deleted': 'The variable has been deleted.',
  'mirror-saved': 'The mirror settings have been saved.',
  'mirror-syncing': 'The mirror is being synchronized.',
  'push-mirror-added': 'The push mirror has been added.',
  'push-mirror-deleted': 'The push mirror has been deleted.',
  'transfer-started': 'The transfer waits for the new owner to accept it.',
  'transfer-cancelled': 'The transfer has been cancelled.',
};

/**
 * Gitea's reqRepoAdmin for pages: repository admins (and site admins) pass; a visitor who reads
 * a private repository gets the same 404 as a missing page, one who reads a public one a 403.
 */
export const repoAdminPage: RequestHandler = (req, _res, next) => {
  const access = repoOf(req);
  if (access.mode >= ACCESS.admin) return next();
  if (access.repo.is_private) throw new NotFoundError();
  throw new ForbiddenError('Only administrators of this repository change its settings.');
};

/** `settings/…` of the request's repository, as an absolute link. */
export const settingsLink = (req: Request, rest = ''): string => repoLink(req.ctx.config, repoOf(req), `settings${rest ? `/${rest}` : ''}`);

/** A settings path with the message `done` to show there. */
export const settingsDone = (req: Request, rest: string, done: string): string => `${settingsLink(req, rest)}?done=${encodeURIComponent(done)}`;

export type RepoSettingsView = { tab: RepoSettingsTab; title: string; body: SafeHtml; status?: number };

export function repoSettingsPage(req: Request, res: Response, view: RepoSettingsView): void {
  const { config } = req.ctx;
  const access = repoOf(req);
  const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
  // The repository's link escaped once for the eight entries (their labels and paths are fixed text).
  const base = escapeHtml(repoLink(config, access));
  const nav = raw(TABS.map(([tab, label, rest]) => `<li><a href="${base}/${rest}"${tab === view.tab ? ' aria-current="page"' : ''}>${label}</a></li>`).join(''));
  sendPage(req, res, {
    status: view.status,
    title: `${view.title} · Settings`,
    body: html`${repoHeader(config, access, unitsOf(res), 'settings')}
<div class="settings"><nav class="settings-nav" aria-label="Repository settings"><ul>${nav}</ul></nav>
<div class="settings-body"><h2>${view.title}</h2>${done ? html`<div class="flash" role="status">${done}</div>` : ''}
${view.body}</div></div>`,
  });
}

/** A select of fixed choices with its label (and its error tied to it). */
export function selectField(name: string, label: string, choices: [string, string][], value: string, errors: Record<string, string> = {}, id = `f-${name}`): SafeHtml {
  const error = errors[name];
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${label}</label>
<select id="${id}" name="${name}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${choices.map(([v, l]) => html`<option value="${v}"${v === value ? html` selected` : ''}>${l}</option>`)}</select>
${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}</div>`;
}

/**
 * A settings form's action: as formAction, and a conflict (a name already taken, 409) or a
 * duplicate the service refuses with 403 is also the form's message, under `field` when given.
 */
export async function settingsAction(action: () => Promise<unknown>, fields: Record<string, string> = {}, conflictField = ''): Promise<FieldErrors | null> {
  try {
    return await formAction(async () => { await action(); }, fields);
  } catch (err) {
    const conflict = err instanceof AppError && err.status === 409;
    // Services refuse some duplicates with Gitea's 403 ("... already exist"): only a form naming its field takes those.
    const duplicate = err instanceof ForbiddenError && conflictField !== '';
    if (conflict || duplicate) return { [conflictField]: (err as Error).message };
    throw err;
  }
}
