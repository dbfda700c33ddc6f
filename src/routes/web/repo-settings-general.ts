import type { Request, Response } from 'express';
import { html, type SafeHtml } from '../../lib/html';
import { branchNamesOf } from '../../services/web/repo-settings';
import { editRepository } from '../../services/repo/repo-edit';
import { settingsOf, type RepoSettings } from '../../services/repo/repo-settings';
// The API's schema module loads with the first save: it stays off the server's start-up path.
const apiRepos = () => import('../api/v1/repos');
import { parseBody } from '../validate';
import { checkbox, csrfInput, fixedField, formAction, formAlert, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { repoLink } from './layout';
import { dangerZone } from './repo-settings-danger';
import { repoSettingsPage, selectField, settingsDone, settingsLink } from './repo-settings-layout';
import { formOf, text } from './settings-layout';

// /{owner}/{repo}/settings: the repository's options (name, description, website, visibility,
// template) and its units, merge styles, default branch, external tracker and wiki. Each form
// is read into an EditRepoOption and checked by the PATCH /repos/{owner}/{repo} schema, then
// given to the same service: the web holds no rule of its own.

type Form = Record<string, unknown>;
type Which = 'basic' | 'units';
type View = { which?: Which; values?: Form; errors?: FieldErrors };

const UNITS: [keyof RepoSettings, string][] = [
  ['has_code', 'Code'], ['has_issues', 'Issues'], ['has_pull_requests', 'Pull requests'], ['has_releases', 'Releases'],
  ['has_wiki', 'Wiki'], ['has_packages', 'Packages'], ['has_actions', 'Actions'], ['has_projects', 'Projects'],
];
const MERGES: [keyof RepoSettings, string, string][] = [
  ['allow_merge_commits', 'Create a merge commit', 'merge'], ['allow_rebase', 'Rebase and fast-forward', 'rebase'],
  ['allow_rebase_explicit', 'Rebase and create a merge commit', 'rebase-merge'], ['allow_squash_merge', 'Squash and merge', 'squash'],
  ['allow_fast_forward_only_merge', 'Fast-forward only', 'fast-forward-only'], ['allow_manual_merge', 'Mark as merged manually', 'manually-merged'],
];
const STYLES: [string, string][] = [['numeric', 'Numeric (#123)'], ['alphanumeric', 'Alphanumeric (ABC-123)'], ['regexp', 'Regular expression']];

const on = (v: unknown) => v === 'on';
/** The units' and merge styles' setting names, each a check box of the units form. */
const BOX_KEYS = [...UNITS, ...MERGES].map(([k]) => k);

// The units' and merge styles' check boxes and the fixed selects hold no request's text: each
// variant (checked or not, each choice selected) is made once per process, not on every view.
const BOXES = new Map<string, readonly [SafeHtml, SafeHtml]>([...UNITS, ...MERGES].map(([k, l]) => [k, [checkbox(k, l, false), checkbox(k, l, true)]]));
const box = (k: string, v: Form): SafeHtml => BOXES.get(k)![on(v[k]) ? 1 : 0];
const MERGE_CHOICES = MERGES.map(([, l, style]): [string, string] => [style, l]);

/** A select of fixed choices; made once per chosen value when no error is shown beside it. */
function fixedSelect(name: string, label: string, choices: [string, string][]): (value: string, e: FieldErrors) => SafeHtml {
  const made = new Map(choices.map(([v]) => [v, selectField(name, label, choices, v)]));
  return (value, e) => (e[name] ? undefined : made.get(value)) ?? selectField(name, label, choices, value, e);
}
const mergeStyleSelect = fixedSelect('default_merge_style', 'Default merge style', MERGE_CHOICES);
const trackerStyleSelect = fixedSelect('tracker_style', 'Issue numbers', STYLES);

// The forms' text fields: their markup around the value is made once per process (fixedField).
const NAME = fixedField({ name: 'name', label: 'Name', required: true, hint: 'Renaming keeps the old address redirecting here.' });
const DESCRIPTION = fixedField({ name: 'description', label: 'Description' });
const WEBSITE = fixedField({ name: 'website', label: 'Website', type: 'url' });
const TRACKER_URL = fixedField({ name: 'tracker_url', label: 'Tracker URL', type: 'url' });
const TRACKER_FORMAT = fixedField({ name: 'tracker_format', label: 'Issue URL format', hint: 'With {user}, {repo} and {index}: https://tracker.example.com/{user}/{repo}/issues/{index}' });
const TRACKER_PATTERN = fixedField({ name: 'tracker_pattern', label: 'Regular expression (for that style)' });
const WIKI_URL = fixedField({ name: 'wiki_url', label: 'Wiki URL', type: 'url' });

/** The stored settings as the forms' values. */
function currentValues(req: Request): Form {
  const { repo } = repoOf(req);
  const s = settingsOf(repo);
  const v: Form = {
    name: repo.name, description: repo.description, website: repo.website, private: repo.is_private ? 'on' : '', template: repo.is_template ? 'on' : '',
    default_branch: repo.default_branch, default_merge_style: s.default_merge_style,
    external_tracker: s.external_tracker ? 'on' : '', tracker_url: s.external_tracker?.external_tracker_url ?? '',
    tracker_format: s.external_tracker?.external_tracker_format ?? '', tracker_style: s.external_tracker?.external_tracker_style ?? 'numeric',
    tracker_pattern: s.external_tracker?.external_tracker_regexp_pattern ?? '',
    external_wiki: s.external_wiki ? 'on' : '', wiki_url: s.external_wiki?.external_wiki_url ?? '',
  };
  for (const k of BOX_KEYS) v[k] = s[k] ? 'on' : '';
  return v;
}

function basicForm(req: Request, res: Response, v: Form, e: FieldErrors): SafeHtml {
  return html`<section id="options" aria-labelledby="options-h"><h3 id="options-h">Repository</h3>${formAlert(e[''])}
<form class="stack" method="post" action="${settingsLink(req)}">${csrfInput(req, res)}
${NAME(text(v, 'name'), e)}
${DESCRIPTION(text(v, 'description'), e)}
${WEBSITE(text(v, 'website'), e)}
${checkbox('private', 'Private: only the owner and those given access see it', on(v.private))}
${checkbox('template', 'Template: new repositories can be generated from it', on(v.template))}
${submitButton('Save')}</form></section>`;
}

async function unitsForm(req: Request, res: Response, v: Form, e: FieldErrors): Promise<SafeHtml> {
  const access = repoOf(req);
  const branches = await branchNamesOf(req.ctx.db, access);
  if (!branches.includes(text(v, 'default_branch'))) branches.unshift(text(v, 'default_branch'));
  return html`<section id="units" aria-labelledby="units-h"><h3 id="units-h">Units, merging and trackers</h3>${formAlert(e[''])}
<form class="stack" method="post" action="${settingsLink(req, 'units')}">${csrfInput(req, res)}
<fieldset class="field"><legend>Units</legend>${UNITS.map(([k]) => box(k, v))}</fieldset>
<fieldset class="field"><legend>Merge styles allowed</legend>${MERGES.map(([k]) => box(k, v))}</fieldset>
${mergeStyleSelect(text(v, 'default_merge_style'), e)}
${selectField('default_branch', 'Default branch', branches.map((b) => [b, b]), text(v, 'default_branch'), e)}
<fieldset class="field"><legend>External issue tracker</legend>${checkbox('external_tracker', 'Use an external issue tracker', on(v.external_tracker))}
${TRACKER_URL(text(v, 'tracker_url'), e)}
${TRACKER_FORMAT(text(v, 'tracker_format'), e)}
${trackerStyleSelect(text(v, 'tracker_style'), e)}
${TRACKER_PATTERN(text(v, 'tracker_pattern'), e)}</fieldset>
<fieldset class="field"><legend>External wiki</legend>${checkbox('external_wiki', 'Use an external wiki', on(v.external_wiki))}
${WIKI_URL(text(v, 'wiki_url'), e)}</fieldset>
${submitButton('Save')}</form></section>`;
}

async function render(req: Request, res: Response, view: View = {}): Promise<void> {
  const current = currentValues(req);
  const valuesFor = (w: Which) => (view.which === w ? view.values! : current);
  const errorsFor = (w: Which) => (view.which === w ? view.errors ?? {} : {});
  repoSettingsPage(req, res, {
    tab: 'general', title: 'General', status: view.errors ? 422 : 200,
    body: html`${basicForm(req, res, valuesFor('basic'), errorsFor('basic'))}
${await unitsForm(req, res, valuesFor('units'), errorsFor('units'))}
${await dangerZone(req, res)}`,
  });
}

/** GET /{owner}/{repo}/settings */
export const generalPage = (req: Request, res: Response): Promise<void> => render(req, res);

function basicEdit(f: Form): Form {
  return { name: text(f, 'name').trim(), description: text(f, 'description'), website: text(f, 'website').trim(), private: on(f.private), template: on(f.template) };
}

function unitsEdit(f: Form): Form {
  const edit: Form = {};
  // A select left out of the post (a script's form) keeps its value.
  for (const k of ['default_merge_style', 'default_branch']) if (text(f, k)) edit[k] = text(f, k);
  for (const k of BOX_KEYS) edit[k] = on(f[k]);
  if (on(f.external_tracker)) {
    edit.external_tracker = {
      external_tracker_url: text(f, 'tracker_url').trim(), external_tracker_format: text(f, 'tracker_format').trim(),
      external_tracker_style: text(f, 'tracker_style') || 'numeric', external_tracker_regexp_pattern: text(f, 'tracker_pattern'),
    };
  }
  if (on(f.external_wiki)) edit.external_wiki = { external_wiki_url: text(f, 'wiki_url').trim() };
  return edit;
}

// The schema's and the service's field names, as the form names them.
const FIELDS: Record<string, string> = {
  'external_tracker.external_tracker_url': 'tracker_url', external_tracker: 'tracker_url',
  'external_tracker.external_tracker_style': 'tracker_style', 'external_wiki.external_wiki_url': 'wiki_url', external_wiki: 'wiki_url',
};

async function save(req: Request, res: Response, which: Which, edit: Form): Promise<void> {
  const access = repoOf(req);
  let renamed = access.repo.name;
  const errors = await formAction(async () => {
    const repo = await editRepository(req.ctx.h, access, req.ctx.doer!, parseBody((await apiRepos()).editSchema, edit));
    renamed = repo.name;
  }, FIELDS);
  if (errors) return render(req, res, { which, values: formOf(req), errors });
  // After a rename the settings live at the new address.
  if (renamed !== access.repo.name) return void res.redirect(303, `${repoLink(req.ctx.config, { owner: access.owner, repo: { ...access.repo, name: renamed } }, 'settings')}?done=saved`);
  res.redirect(303, settingsDone(req, '', 'saved'));
}

/** POST /{owner}/{repo}/settings */
export const saveBasic = (req: Request, res: Response): Promise<void> => save(req, res, 'basic', basicEdit(formOf(req)));

/** POST /{owner}/{repo}/settings/units */
export const saveUnits = (req: Request, res: Response): Promise<void> => save(req, res, 'units', unitsEdit(formOf(req)));
