import type { Request, Response } from 'express';
import type { Team, TeamUnit, User } from '../../db/schema';
import { BlockedError, InvalidError, NotFoundError } from '../../lib/errors';
import { html, raw, type SafeHtml } from '../../lib/html';
import { addMember, removeMember } from '../../services/org/team-members';
import { setTeamRepo } from '../../services/org/team-repos';
import { createTeam, deleteTeam, editTeam, type TeamInput } from '../../services/org/teams';
import { MODE_NAMES } from '../../services/org/team-units';
import { UNITS } from '../../services/permissions';
import { orgTeam } from '../../services/web/team-pages';
import { addAllReposToTeam, orgForOwner, teamForOwner } from '../../services/web/org-settings';
import { doerOf } from '../context';
import { checkbox, confirmPage, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { sendPage, webUrl } from './layout';
import { orgPath } from './org-pages';
import { formOf, radioGroup, text, textArea } from './settings-layout';

// An organization's team forms (Gitea's /org/{org}/teams/new and .../edit): name, description,
// access (administrator, or per unit none/read/write as Gitea's unit-based teams), all
// repositories or chosen ones, may create repositories; then its members and repositories
// added and removed, and the team deleted. Owners and site admins only (the services check).

type Form = Record<string, unknown>;
type TeamView = { org: User; team?: Team; units: TeamUnit[] };

const UNIT_LABELS: Record<string, string> = {
  'repo.code': 'Code', 'repo.issues': 'Issues', 'repo.ext_issues': 'External issue tracker', 'repo.wiki': 'Wiki',
  'repo.pulls': 'Pull requests', 'repo.releases': 'Releases', 'repo.projects': 'Projects', 'repo.ext_wiki': 'External wiki',
  'repo.packages': 'Packages', 'repo.actions': 'Actions',
};
const teamPath = (org: User, team: Pick<Team, 'lower_name'>, rest = '') => orgPath(org, `/teams/${encodeURIComponent(team.lower_name)}${rest}`);

function valuesOf(t: TeamView): Form {
  if (!t.team) return { permission: 'units', can_create_org_repo: '', ...Object.fromEntries(UNITS.map((u) => [`unit-${u}`, 'read'])) };
  const modes = Object.fromEntries(t.units.map((u) => [`unit-${u.type}`, MODE_NAMES[Math.min(u.access_mode, 2)]]));
  return {
    name: t.team.name, description: t.team.description, permission: t.team.authorize >= 3 ? 'admin' : 'units',
    includes_all_repositories: t.team.includes_all_repositories ? 'on' : '', can_create_org_repo: t.team.can_create_org_repo ? 'on' : '', ...modes,
  };
}

function unitRow(unit: string, v: Form): SafeHtml {
  const chosen = text(v, `unit-${unit}`) || 'none';
  const modes = unit === 'repo.ext_issues' || unit === 'repo.ext_wiki' ? ['none', 'read'] : ['none', 'read', 'write'];
  return html`<div class="field"><label for="f-unit-${unit}">${UNIT_LABELS[unit] ?? unit}</label>
<select id="f-unit-${unit}" name="unit-${unit}">${modes.map((m) => html`<option value="${m}"${m === chosen ? raw(' selected') : ''}>${m}</option>`)}</select></div>`;
}

function teamForm(req: Request, res: Response, t: TeamView, v: Form, errors: FieldErrors): SafeHtml {
  const action = webUrl(req.ctx.config, t.team ? teamPath(t.org, t.team, '/edit') : orgPath(t.org, '/teams/new'));
  const owners = t.team?.authorize === 4;
  return html`${formAlert(errors[''])}<form class="stack" method="post" action="${action}">${csrfInput(req, res)}
${owners ? '' : field({ name: 'name', label: 'Team name', value: text(v, 'name'), required: true, autofocus: !t.team }, errors)}
${textArea({ name: 'description', label: 'Description', value: text(v, 'description') }, errors)}
${owners ? '' : html`${radioGroup('permission', 'Access', [
    { value: 'units', label: 'Per unit', hint: 'Each unit below at the level chosen.' },
    { value: 'admin', label: 'Administrator', hint: 'Every unit, and the repositories\' settings.' },
  ], text(v, 'permission') || 'units', errors)}
<fieldset><legend>Units (with per-unit access)</legend>${UNITS.map((u) => unitRow(u, v))}</fieldset>
${checkbox('includes_all_repositories', 'All repositories of the organization, present and future', v.includes_all_repositories === 'on')}
${checkbox('can_create_org_repo', 'Members may create repositories in the organization', v.can_create_org_repo === 'on')}`}
${submitButton(t.team ? 'Update team' : 'Create team')}</form>`;
}

function inputOf(b: Form): TeamInput {
  const admin = text(b, 'permission') === 'admin';
  const map = Object.fromEntries(UNITS.map((u) => [u, text(b, `unit-${u}`) || 'none']));
  return {
    name: text(b, 'name').trim(), description: text(b, 'description').slice(0, 255),
    includes_all_repositories: b.includes_all_repositories === 'on', can_create_org_repo: b.can_create_org_repo === 'on',
    ...(admin ? { permission: 'admin' } : { permission: 'read', units_map: map }),
  };
}

/** GET /org/{org}/teams/new */
export async function newTeamPage(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  const t = { org, units: [] };
  sendPage(req, res, { title: `New team · ${org.name}`, body: html`<h1>New team</h1>${teamForm(req, res, t, valuesOf(t), {})}` });
}

/** POST /org/{org}/teams/new: 303 to the team's page. */
export async function newTeamPost(req: Request, res: Response): Promise<void> {
  const org = await orgForOwner(req.ctx.db, String(req.params.org), req.ctx.doer);
  const b = formOf(req);
  let made: Team | undefined;
  const errors = await formAction(async () => { made = (await createTeam(req.ctx.db, org, inputOf(b))).teams[0]; }, { units_map: '' });
  if (errors || !made) return sendPage(req, res, { status: 422, title: `New team · ${org.name}`, body: html`<h1>New team</h1>${teamForm(req, res, { org, units: [] }, b, errors ?? {})}` });
  redirectAfterPost(req, res, teamPath(org, made, '/edit'));
}

async function editBody(req: Request, res: Response, v: Form | null, errors: FieldErrors, part = 'team'): Promise<SafeHtml> {
  const a = await teamForOwner(req.ctx.db, String(req.params.org), String(req.params.team), req.ctx.doer);
  const p = await orgTeam(req.ctx.db, a.org.name, a.team.lower_name, doerOf(req));
  const { config } = req.ctx;
  const t = { org: a.org, team: a.team, units: p.units };
  const url = (rest: string) => webUrl(config, teamPath(a.org, a.team, rest));
  const mine = (name: string) => (part === name ? errors : {});
  // An add form refused beside its field keeps what was typed.
  const kept = (name: string, f: string) => (mine(name)[f] ? text(formOf(req), f) : '');
  const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;
  // Names as text beside their buttons (the team's page links them): a link there is too small a target.
  const member = (m: User) => html`<li>${m.name} <form class="inline" method="post" action="${url('/members/remove')}">${csrfInput(req, res)}${hidden('uname', m.name)}<button type="submit" aria-label="Remove ${m.name}">Remove</button></form></li>`;
  const repo = (r: (typeof p.repos)[number]) => html`<li>${r.repo.name} <form class="inline" method="post" action="${url('/repos/remove')}">${csrfInput(req, res)}${hidden('repo_name', r.repo.name)}<button type="submit" aria-label="Remove ${r.repo.name}">Remove</button></form></li>`;
  return html`<p><a href="${url('')}">Back to the team ${a.team.name}</a></p>
<h1>Edit team ${a.team.name}</h1>${teamForm(req, res, t, v ?? valuesOf(t), mine('team'))}
<h2 id="members">Members</h2><ul class="list">${p.members.map(member)}</ul>${formAlert(mine('members')[''])}
<form class="inline" method="post" action="${url('/members/add')}">${csrfInput(req, res)}${field({ name: 'uname', label: 'Add a member (user name)', required: true, value: kept('members', 'uname') }, mine('members'))} ${submitButton('Add member', '')}</form>
<h2 id="repos">Repositories</h2>${a.team.includes_all_repositories ? html`<p class="meta">This team has every repository of the organization.</p>` : ''}<ul class="list">${p.repos.map(repo)}</ul>${formAlert(mine('repos')[''])}
<form class="inline" method="post" action="${url('/repos/add')}">${csrfInput(req, res)}${field({ name: 'repo_name', label: 'Add a repository (name)', required: true, value: kept('repos', 'repo_name') }, mine('repos'))} ${submitButton('Add repository', '')}</form>
${a.team.includes_all_repositories ? '' : html`<form class="inline" method="post" action="${url('/repos/add_all')}">${csrfInput(req, res)}${submitButton('Add all repositories', '')}</form>`}
${a.team.authorize === 4 ? '' : html`<h2>Delete this team</h2><p><a class="button danger" href="${url('/delete')}">Delete team</a></p>`}`;
}

/** GET /org/{org}/teams/{team}/edit: the team's form, members and repositories. */
export async function editTeamPage(req: Request, res: Response): Promise<void> {
  const gone = typeof req.query.gone === 'string' && Object.hasOwn(GONE, req.query.gone) ? GONE[req.query.gone] : undefined;
  const notice = gone ? html`<div class="flash" role="status">${gone}</div>` : html``;
  sendPage(req, res, { title: `Edit team`, body: html`${notice}${await editBody(req, res, null, {})}` });
}

async function answer(req: Request, res: Response, part: string, anchor: string, action: (a: Awaited<ReturnType<typeof teamForOwner>>) => Promise<unknown>): Promise<void> {
  const a = await teamForOwner(req.ctx.db, String(req.params.org), String(req.params.team), req.ctx.doer);
  const errors = await formAction(async () => { await action(a); }, { units_map: '', username: 'uname' });
  if (errors) return sendPage(req, res, { status: 422, title: 'Edit team', body: await editBody(req, res, part === 'team' ? formOf(req) : null, errors, part) });
  const fresh = part === 'team' ? { ...a.team, lower_name: (text(formOf(req), 'name').trim() || a.team.name).toLowerCase() } : a.team;
  redirectAfterPost(req, res, teamPath(a.org, a.team.authorize === 4 ? a.team : fresh, '/edit'), anchor);
}

/**
 * A name typed into an add form that names nothing, or a user the organization blocked (the team
 * itself is already found): an error beside the field, not the 404 or 403 page.
 */
async function named(field: string, message: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (err) {
    if (err instanceof BlockedError) throw new InvalidError('The organization has blocked this user: unblock them first.', field);
    throw err instanceof NotFoundError ? new InvalidError(message, field) : err;
  }
}

/** What the edit page says after a removal found nothing left to remove (`?gone=`, never text of the request). */
const GONE: Record<string, string | undefined> = {
  member: 'That user no longer exists: nothing was removed.',
  repo: 'That repository no longer exists: nothing was removed.',
};

/**
 * A removal whose user or repository is gone meanwhile (a second tab, a deleted account): as
 * Gitea, back to the page (303) with nothing changed, here with a notice saying so.
 */
async function removal(req: Request, res: Response, gone: 'member' | 'repo', action: (a: Awaited<ReturnType<typeof teamForOwner>>) => Promise<unknown>): Promise<void> {
  const part = gone === 'member' ? 'members' : 'repos';
  const a = await teamForOwner(req.ctx.db, String(req.params.org), String(req.params.team), req.ctx.doer);
  let missing = false;
  const errors = await formAction(async () => {
    try {
      await action(a);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      missing = true;
    }
  });
  if (errors) return sendPage(req, res, { status: 422, title: 'Edit team', body: await editBody(req, res, null, errors, part) });
  redirectAfterPost(req, res, `${teamPath(a.org, a.team, '/edit')}${missing ? `?gone=${gone}` : ''}`, part);
}

/** POST /org/{org}/teams/{team}/edit */
export const editTeamPost = (req: Request, res: Response) =>
  answer(req, res, 'team', '', (a) => editTeam(req.ctx.db, a.team.id, doerOf(req), inputOf(formOf(req))));
/** POST /org/{org}/teams/{team}/members/add */
export const addMemberPost = (req: Request, res: Response) =>
  answer(req, res, 'members', 'members', (a) => named('uname', 'There is no user of that name.', () => addMember(req.ctx.db, a.team.id, doerOf(req), text(formOf(req), 'uname').trim())));
/** POST /org/{org}/teams/{team}/members/remove */
export const removeMemberPost = (req: Request, res: Response) =>
  removal(req, res, 'member', (a) => removeMember(req.ctx.db, a.team.id, doerOf(req), text(formOf(req), 'uname')));
/** POST /org/{org}/teams/{team}/repos/add */
export const addRepoPost = (req: Request, res: Response) =>
  answer(req, res, 'repos', 'repos', (a) => named('repo_name', 'The organization has no repository of that name.', () => setTeamRepo(req.ctx.db, a.team.id, doerOf(req), a.org.name, text(formOf(req), 'repo_name').trim(), true)));
/** POST /org/{org}/teams/{team}/repos/add_all */
export const addAllReposPost = (req: Request, res: Response) =>
  answer(req, res, 'repos', 'repos', (a) => addAllReposToTeam(req.ctx.db, a.team.id, doerOf(req)));
/** POST /org/{org}/teams/{team}/repos/remove */
export const removeRepoPost = (req: Request, res: Response) =>
  removal(req, res, 'repo', (a) => setTeamRepo(req.ctx.db, a.team.id, doerOf(req), a.org.name, text(formOf(req), 'repo_name'), false));

/** GET /org/{org}/teams/{team}/delete */
export async function deleteTeamPage(req: Request, res: Response): Promise<void> {
  const a = await teamForOwner(req.ctx.db, String(req.params.org), String(req.params.team), req.ctx.doer);
  confirmPage(req, res, {
    title: 'Delete team', message: html`The team <strong>${a.team.name}</strong> is deleted; its members lose the access it gave them.`,
    action: webUrl(req.ctx.config, teamPath(a.org, a.team, '/delete')), button: 'Delete team', cancel: webUrl(req.ctx.config, teamPath(a.org, a.team, '/edit')),
  });
}

/** POST /org/{org}/teams/{team}/delete */
export async function deleteTeamPost(req: Request, res: Response): Promise<void> {
  const a = await teamForOwner(req.ctx.db, String(req.params.org), String(req.params.team), req.ctx.doer);
  await deleteTeam(req.ctx.db, a.team.id, doerOf(req));
  redirectAfterPost(req, res, orgPath(a.org, '/teams'));
}
