import type { Request, Response } from 'express';
import { ForbiddenError, InvalidError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import {
  createBranchProtection, deleteBranchProtection, editBranchProtection, getBranchProtection, listBranchProtections, type BranchProtectionView,
} from '../../services/repo/protected-branches';
// The API's schema module loads with the first save: it stays off the server's start-up path.
const apiBranches = () => import('../api/v1/branches');
import { parseBody } from '../validate';
import { checkbox, confirmPage, csrfInput, field, formAction, formAlert, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { repoSettingsPage, settingsDone, settingsLink } from './repo-settings-layout';
import { formOf, radioGroup, text, textArea } from './settings-layout';

// /{owner}/{repo}/settings/branches: the branch protection rules in matching order, and one form
// for a new rule or an existing one with every option of Create/EditBranchProtectionOption.
// Name lists are typed comma-separated (no script needed); the form is read into the API's
// option, checked by its schema and given to the same service.

type Form = Record<string, unknown>;

const rulePath = (req: Request, rest: string, name: string) => `${settingsLink(req, `branches/${rest}`)}?rule_name=${encodeURIComponent(name)}`;
const ruleName = (req: Request): string => (typeof req.query.rule_name === 'string' ? req.query.rule_name : '');
const list = (v: string[]) => v.join(', ');
const on = (b: boolean) => (b ? 'on' : '');
const names = (f: Form, k: string) => text(f, k).split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);

/** GET /{owner}/{repo}/settings/branches */
export async function rulesPage(req: Request, res: Response): Promise<void> {
  const rules = await listBranchProtections(req.ctx.db, repoOf(req));
  const rows = rules.map(({ rule }) => html`<li><strong><code>${rule.row.rule_name}</code></strong>
<span class="meta">${rule.s.can_push ? (rule.s.enable_whitelist ? 'push: allowed users and teams' : 'push: writers') : 'push: nobody'}${rule.s.required_approvals ? ` · ${rule.s.required_approvals} approvals` : ''}${rule.s.enable_status_check ? ' · status checks' : ''}</span>
<div class="row-actions"><a href="${rulePath(req, 'edit', rule.row.rule_name)}" aria-label="Edit rule ${rule.row.rule_name}">Edit</a> <a class="button danger" href="${rulePath(req, 'delete', rule.row.rule_name)}" aria-label="Delete rule ${rule.row.rule_name}">Delete</a></div></li>`);
  repoSettingsPage(req, res, {
    tab: 'branches', title: 'Branch protection',
    body: html`<p><a class="button primary" href="${settingsLink(req, 'branches/new')}">Add a rule</a></p>
${rows.length ? html`<ul class="list">${rows}</ul>` : html`<p>No branch is protected.</p>`}`,
  });
}

/** A stored rule as the form's values. */
function valuesOf(v: BranchProtectionView): Form {
  const s = v.rule.s;
  return {
    rule_name: v.rule.row.rule_name, priority: String(v.rule.row.priority ?? ''),
    push: s.can_push ? (s.enable_whitelist ? 'whitelist' : 'all') : 'none',
    push_users: list(v.names.push_whitelist_usernames), push_teams: list(v.names.push_whitelist_teams), push_deploy_keys: on(s.whitelist_deploy_keys),
    force_push: s.can_force_push ? (s.enable_force_push_allowlist ? 'whitelist' : 'all') : 'none',
    force_users: list(v.names.force_push_allowlist_usernames), force_teams: list(v.names.force_push_allowlist_teams), force_deploy_keys: on(s.force_push_allowlist_deploy_keys),
    enable_merge_whitelist: on(s.enable_merge_whitelist), merge_users: list(v.names.merge_whitelist_usernames), merge_teams: list(v.names.merge_whitelist_teams),
    enable_status_check: on(s.enable_status_check), status_check_contexts: s.status_check_contexts.join('\n'),
    required_approvals: String(s.required_approvals), enable_approvals_whitelist: on(s.enable_approvals_whitelist),
    approvals_users: list(v.names.approvals_whitelist_username), approvals_teams: list(v.names.approvals_whitelist_teams),
    block_on_rejected_reviews: on(s.block_on_rejected_reviews), block_on_official_review_requests: on(s.block_on_official_review_requests),
    block_on_outdated_branch: on(s.block_on_outdated_branch), dismiss_stale_approvals: on(s.dismiss_stale_approvals),
    ignore_stale_approvals: on(s.ignore_stale_approvals), require_signed_commits: on(s.require_signed_commits),
    protected_file_patterns: s.protected_file_patterns, unprotected_file_patterns: s.unprotected_file_patterns,
    block_admin_merge_override: on(s.block_admin_merge_override),
  };
}

const CHECKS: [string, string][] = [
  ['block_on_rejected_reviews', 'Block merging when a reviewer requested changes'],
  ['block_on_official_review_requests', 'Block merging while official review requests are open'],
  ['block_on_outdated_branch', 'Block merging when the branch is behind its base'],
  ['dismiss_stale_approvals', 'Dismiss approvals when new commits are pushed'],
  ['ignore_stale_approvals', 'Do not count approvals given before the last push'],
  ['require_signed_commits', 'Require signed commits'],
  ['block_admin_merge_override', 'Administrators follow these rules too'],
];

function who(prefix: string, v: Form, e: FieldErrors, what: string): SafeHtml {
  return html`${field({ name: `${prefix}_users`, label: `Users who may ${what} (comma-separated)`, value: text(v, `${prefix}_users`) }, e)}
${field({ name: `${prefix}_teams`, label: `Teams who may ${what} (comma-separated)`, value: text(v, `${prefix}_teams`) }, e)}`;
}

function ruleForm(req: Request, res: Response, editing: string, v: Form, e: FieldErrors): SafeHtml {
  const action = editing ? rulePath(req, 'edit', editing) : settingsLink(req, 'branches/new');
  const pushChoices = (l: string) => [{ value: 'none', label: `Nobody may ${l}` }, { value: 'all', label: `Everyone with write access may ${l}` }, { value: 'whitelist', label: `Only the users and teams below may ${l}` }];
  return html`${formAlert(e[''])}<form class="stack" method="post" action="${action}">${csrfInput(req, res)}
${editing ? html`<p>Rule: <code>${editing}</code></p>` : field({ name: 'rule_name', label: 'Branch name or pattern (glob)', value: text(v, 'rule_name'), required: true, hint: 'main, release/*, **' }, e)}
${field({ name: 'priority', label: 'Priority', type: 'number', value: text(v, 'priority'), hint: 'Among pattern rules, the lower number matches first.' }, e)}
${radioGroup('push', 'Pushing', pushChoices('push'), text(v, 'push') || 'none', e)}${who('push', v, e, 'push')}${checkbox('push_deploy_keys', 'Deploy keys with write access may push', text(v, 'push_deploy_keys') === 'on')}
${radioGroup('force_push', 'Force-pushing', pushChoices('force-push'), text(v, 'force_push') || 'none', e)}${who('force', v, e, 'force-push')}${checkbox('force_deploy_keys', 'Deploy keys with write access may force-push', text(v, 'force_deploy_keys') === 'on')}
${checkbox('enable_merge_whitelist', 'Only the users and teams below may merge pull requests', text(v, 'enable_merge_whitelist') === 'on')}${who('merge', v, e, 'merge')}
${checkbox('enable_status_check', 'Require status checks to pass before merging', text(v, 'enable_status_check') === 'on')}
${textArea({ name: 'status_check_contexts', label: 'Status check contexts (one a line, globs allowed)', value: text(v, 'status_check_contexts'), rows: 3 }, e)}
${field({ name: 'required_approvals', label: 'Required approvals', type: 'number', value: text(v, 'required_approvals') || '0' }, e)}
${checkbox('enable_approvals_whitelist', 'Only approvals of the users and teams below count', text(v, 'enable_approvals_whitelist') === 'on')}${who('approvals', v, e, 'approve')}
${CHECKS.map(([k, l]) => checkbox(k, l, text(v, k) === 'on'))}
${textArea({ name: 'protected_file_patterns', label: 'Protected file patterns (semicolon-separated globs)', value: text(v, 'protected_file_patterns'), rows: 2 }, e)}
${textArea({ name: 'unprotected_file_patterns', label: 'Unprotected file patterns (semicolon-separated globs)', value: text(v, 'unprotected_file_patterns'), rows: 2 }, e)}
${submitButton(editing ? 'Save rule' : 'Create rule')} <a class="button" href="${settingsLink(req, 'branches')}">Cancel</a></form>`;
}

function formPage(req: Request, res: Response, editing: string, v: Form, e: FieldErrors = {}): void {
  repoSettingsPage(req, res, {
    tab: 'branches', title: editing ? 'Edit branch protection rule' : 'New branch protection rule', status: Object.keys(e).length ? 422 : 200,
    body: ruleForm(req, res, editing, v, e),
  });
}

const int = (f: Form, k: string): number | undefined => {
  const s = text(f, k).trim();
  return s === '' ? undefined : Number(s);
};

/** The form as an Edit/CreateBranchProtectionOption. */
function optionOf(f: Form): Record<string, unknown> {
  const push = text(f, 'push');
  const force = text(f, 'force_push');
  const checks = Object.fromEntries(CHECKS.map(([k]) => [k, text(f, k) === 'on']));
  return {
    priority: int(f, 'priority'), required_approvals: int(f, 'required_approvals') ?? 0,
    enable_push: push === 'all' || push === 'whitelist', enable_push_whitelist: push === 'whitelist',
    push_whitelist_usernames: names(f, 'push_users'), push_whitelist_teams: names(f, 'push_teams'), push_whitelist_deploy_keys: text(f, 'push_deploy_keys') === 'on',
    enable_force_push: force === 'all' || force === 'whitelist', enable_force_push_allowlist: force === 'whitelist',
    force_push_allowlist_usernames: names(f, 'force_users'), force_push_allowlist_teams: names(f, 'force_teams'), force_push_allowlist_deploy_keys: text(f, 'force_deploy_keys') === 'on',
    enable_merge_whitelist: text(f, 'enable_merge_whitelist') === 'on', merge_whitelist_usernames: names(f, 'merge_users'), merge_whitelist_teams: names(f, 'merge_teams'),
    enable_status_check: text(f, 'enable_status_check') === 'on',
    status_check_contexts: text(f, 'status_check_contexts').split('\n').map((s) => s.trim()).filter(Boolean),
    enable_approvals_whitelist: text(f, 'enable_approvals_whitelist') === 'on',
    approvals_whitelist_username: names(f, 'approvals_users'), approvals_whitelist_teams: names(f, 'approvals_teams'),
    protected_file_patterns: text(f, 'protected_file_patterns').trim(), unprotected_file_patterns: text(f, 'unprotected_file_patterns').trim(),
    ...checks,
  };
}

// The option's names of the lists, as the form names them (a service's 422 lands under its field).
const FIELDS: Record<string, string> = {
  push_whitelist_usernames: 'push_users', push_whitelist_teams: 'push_teams', force_push_allowlist_usernames: 'force_users',
  force_push_allowlist_teams: 'force_teams', merge_whitelist_usernames: 'merge_users', merge_whitelist_teams: 'merge_teams',
  approvals_whitelist_username: 'approvals_users', approvals_whitelist_teams: 'approvals_teams',
};

/** GET /{owner}/{repo}/settings/branches/new */
export const newRulePage = (req: Request, res: Response): void => formPage(req, res, '', { push: 'none', force_push: 'none' });

/** POST /{owner}/{repo}/settings/branches/new */
export async function createRulePost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const errors = await formAction(async () => {
    try {
      await createBranchProtection(req.ctx.db, repoOf(req), parseBody((await apiBranches()).createProtectionSchema, { rule_name: text(f, 'rule_name').trim(), ...optionOf(f) }));
    } catch (err) {
      // The service's 403 for a rule name already taken is the form's bad input here.
      if (err instanceof ForbiddenError) throw new InvalidError(err.message, 'rule_name');
      throw err;
    }
  }, FIELDS);
  if (errors) return formPage(req, res, '', f, errors);
  res.redirect(303, settingsDone(req, 'branches', 'rule-saved'));
}

/** GET /{owner}/{repo}/settings/branches/edit?rule_name= */
export async function editRulePage(req: Request, res: Response): Promise<void> {
  const view = await getBranchProtection(req.ctx.db, repoOf(req), ruleName(req));
  formPage(req, res, view.rule.row.rule_name, valuesOf(view));
}

/** POST /{owner}/{repo}/settings/branches/edit?rule_name= */
export async function editRulePost(req: Request, res: Response): Promise<void> {
  const f = formOf(req);
  const name = ruleName(req);
  await getBranchProtection(req.ctx.db, repoOf(req), name);
  const errors = await formAction(async () => {
    await editBranchProtection(req.ctx.db, repoOf(req), name, parseBody((await apiBranches()).editProtectionSchema, optionOf(f)));
  }, FIELDS);
  if (errors) return formPage(req, res, name, f, errors);
  res.redirect(303, settingsDone(req, 'branches', 'rule-saved'));
}

/** GET /{owner}/{repo}/settings/branches/delete?rule_name= */
export async function deleteRulePage(req: Request, res: Response): Promise<void> {
  const view = await getBranchProtection(req.ctx.db, repoOf(req), ruleName(req));
  confirmPage(req, res, {
    title: 'Delete branch protection rule', message: html`Branches matching <code>${view.rule.row.rule_name}</code> are no longer protected by it.`,
    action: rulePath(req, 'delete', view.rule.row.rule_name), button: 'Delete rule', cancel: settingsLink(req, 'branches'),
  });
}

/** POST /{owner}/{repo}/settings/branches/delete?rule_name= */
export async function deleteRulePost(req: Request, res: Response): Promise<void> {
  await deleteBranchProtection(req.ctx.db, repoOf(req), ruleName(req));
  res.redirect(303, settingsDone(req, 'branches', 'rule-deleted'));
}
