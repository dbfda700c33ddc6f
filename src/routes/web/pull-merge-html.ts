import type { CommitStatus } from '../../db/schema';
import { html, type SafeHtml } from '../../lib/html';
import type { MergeBox, MergeStyleChoice } from '../../services/pull/pull-merge-box';
import type { ConversationPage } from '../../services/web/pull-conversation';
import type { FieldErrors } from './forms';
import { plural, userLink, type View } from './issue-pages-html';

// The merge box at the end of a pull request's conversation: each requirement with its state
// (mergeability, commit statuses, reviews against the base branch's rule), then the merge form
// with the styles the repository allows, and "update branch". Forms post without the script.

export type FormState = { errors: FieldErrors; values: Record<string, string> };
export type Forms = { csrf: SafeHtml; action: (rest: string) => string; state: FormState };

const STYLE_LABEL: Record<string, string> = {
  merge: 'Create merge commit', rebase: 'Rebase and fast-forward', 'rebase-merge': 'Rebase and create merge commit',
  squash: 'Squash and merge', 'fast-forward-only': 'Fast-forward only',
};

type Check = { state: 'ok' | 'bad' | 'wait' | 'info'; text: SafeHtml | string; more?: SafeHtml };
const MARK: Record<Check['state'], string> = { ok: '✓', bad: '✕', wait: '●', info: 'ℹ' };

const checkItem = (c: Check): SafeHtml =>
  html`<li class="check ${c.state}"><span class="mark" aria-hidden="true">${MARK[c.state]}</span> <span>${c.text}${c.more ?? ''}</span></li>`;

function mergeability(p: ConversationPage): Check {
  const { pr } = p.pull;
  if (pr.status === 'conflict') {
    const files = p.box.conflicts.length ? html`<ul class="conflicts">${p.box.conflicts.map((f) => html`<li><code>${f}</code></li>`)}</ul>` : undefined;
    return { state: 'bad', text: 'This branch has conflicts that must be resolved:', more: files };
  }
  if (pr.status === 'empty') return { state: 'info', text: 'This branch is equal to the target branch: there is nothing to merge.' };
  if (pr.status === 'checking') return { state: 'wait', text: 'Checking for conflicts…' };
  if (pr.status === 'mergeable') return { state: 'ok', text: 'This branch has no conflicts with the base branch.' };
  return { state: 'bad', text: 'The merge state could not be checked.' };
}

const STATUS_STATE: Record<string, Check['state']> = { success: 'ok', warning: 'ok', skipped: 'ok', pending: 'wait', error: 'bad', failure: 'bad' };

function statusRow(s: CommitStatus): SafeHtml {
  const name = s.target_url && /^https?:\/\//.test(s.target_url) ? html`<a href="${s.target_url}">${s.context}</a>` : html`${s.context}`;
  return checkItem({ state: STATUS_STATE[s.state] ?? 'wait', text: html`${name} <span class="meta">${s.state}${s.description ? html` · ${s.description}` : ''}</span>` });
}

function statuses(box: MergeBox): Check | null {
  if (!box.statuses.length) return null;
  const say = { success: 'All checks have passed', failure: 'Some checks were not successful', pending: 'Some checks have not completed yet' } as Record<string, string>;
  const state = box.statusState ?? 'pending';
  const list = html`<details class="statuses"><summary>${plural(box.statuses.length, 'check')}</summary><ul class="checks">${box.statuses.map(statusRow)}</ul></details>`;
  return { state: STATUS_STATE[state] ?? 'wait', text: say[state] ?? say.pending!, more: list };
}

function reviewChecks(p: ConversationPage): Check[] {
  const f = p.box.protection;
  if (!f?.rule) return [];
  const s = f.rule.s;
  const out: Check[] = [];
  if (s.required_approvals > 0) {
    const enough = f.approvals >= s.required_approvals;
    out.push({ state: enough ? 'ok' : 'bad', text: `${f.approvals} of ${s.required_approvals} required ${s.required_approvals === 1 ? 'approval' : 'approvals'}` });
  }
  if (f.staleApprovals) out.push({ state: 'info', text: `${plural(f.staleApprovals, 'approval')} given on an earlier head (outdated)` });
  if (f.rejections) out.push({ state: s.block_on_rejected_reviews ? 'bad' : 'info', text: `Changes requested by ${plural(f.rejections, 'official reviewer')}` });
  if (f.officialRequests && s.block_on_official_review_requests) out.push({ state: 'bad', text: `Waiting on ${plural(f.officialRequests, 'requested official review')}` });
  if (s.block_on_outdated_branch && p.pull.pr.commits_behind > 0) out.push({ state: 'bad', text: 'The head branch is behind the base branch: update it first.' });
  for (const c of f.requiredChecks) out.push({ state: STATUS_STATE[c.state] ?? 'wait', text: html`Required check <code>${c.context}</code>: ${c.state}` });
  for (const b of f.blockers.filter((x) => x.startsWith('Changed protected files'))) out.push({ state: 'bad', text: b });
  return out;
}

function styleRadio(c: MergeStyleChoice, chosen: string): SafeHtml {
  return html`<label><input type="radio" name="do" value="${c.style}" data-title="${c.title}" data-message="${c.message}"${c.style === chosen ? html` checked` : ''}> ${STYLE_LABEL[c.style] ?? c.style}</label>`;
}

function mergeForm(p: ConversationPage, f: Forms): SafeHtml | '' {
  const { box } = p;
  const { pr } = p.pull;
  if (!box.canMerge || !box.styles.length || pr.status === 'conflict' || pr.status === 'empty') return '';
  const v = f.state.values;
  const chosen = v.do || box.defaultStyle;
  const defaults = box.styles.find((s) => s.style === chosen) ?? box.styles[0]!;
  const title = v.merge_title ?? defaults.title;
  const message = v.merge_message ?? defaults.message;
  const err = f.state.errors;
  const waiting = box.statusState !== 'success' || (box.protection?.blockers.length ?? 0) > 0;
  const force = box.protection?.blockers.length && box.protection.mayOverride
    ? html`<div class="field check"><label><input type="checkbox" name="force_merge" value="on"> Merge without meeting the branch's requirements (administrator)</label></div>` : '';
  return html`<form method="post" action="${f.action('merge')}" class="merge-form">${f.csrf}
<input type="hidden" name="head_commit_id" value="${pr.head_commit_id}"><input type="hidden" name="default_title" value="${defaults.title}"><input type="hidden" name="default_message" value="${defaults.message}">
<fieldset class="styles"><legend>Merge style</legend>${box.styles.map((c) => styleRadio(c, chosen))}</fieldset>
<div class="field${err.merge_title ? ' invalid' : ''}"><label for="f-merge_title">Commit title</label><input id="f-merge_title" name="merge_title" value="${title}"></div>
<div class="field"><label for="f-merge_message">Commit message</label><textarea id="f-merge_message" name="merge_message">${message}</textarea></div>
${box.canDeleteBranch ? html`<div class="field check"><label><input type="checkbox" name="delete_branch" value="on"${(v.delete_branch ?? (box.deleteBranchDefault ? 'on' : '')) === 'on' ? html` checked` : ''}> Delete branch <code>${pr.head_branch}</code> after merge</label></div>` : ''}
${waiting && !pr.auto_merge ? html`<div class="field check"><label><input type="checkbox" name="when_checks_succeed" value="on"${v.when_checks_succeed === 'on' ? html` checked` : ''}> Merge when checks succeed</label></div>` : ''}
${force}<button type="submit" class="primary">Merge pull request</button></form>`;
}

function scheduled(v: View, p: ConversationPage, f: Forms): SafeHtml | '' {
  const { box } = p;
  if (!p.pull.pr.auto_merge) return '';
  const cancel = box.canCancelSchedule ? html` <form method="post" action="${f.action('merge/cancel')}" class="inline">${f.csrf}<button type="submit">Cancel automatic merge</button></form>` : '';
  return html`<p class="flash">${userLink(v.config, box.scheduledBy ?? undefined)} scheduled this pull request to merge when all checks succeed.${cancel}</p>`;
}

function updateForm(p: ConversationPage, f: Forms): SafeHtml | '' {
  const styles = p.box.updateStyles;
  if (!styles.length) return '';
  const label = { merge: 'Update branch by merge', rebase: 'Update branch by rebase' } as const;
  return html`<form method="post" action="${f.action('update')}" class="inline update-form">${f.csrf}<span>This branch is ${plural(p.pull.pr.commits_behind, 'commit')} behind the base branch.</span> ${styles.map((s) => html`<button type="submit" name="style" value="${s}">${label[s]}</button> `)}</form>`;
}

/** The merge box; `alert` is the message of a refused merge (re-rendered with its status). */
export function mergeBoxHtml(v: View, p: ConversationPage, f: Forms): SafeHtml {
  const { pr, issue } = p.pull;
  if (pr.has_merged) return html`<section class="merge-box merged" id="merge" aria-label="Merge"><p>This pull request was merged${pr.merged_commit_id ? html` as <code>${pr.merged_commit_id.slice(0, 10)}</code>` : ''}.</p></section>`;
  if (issue.issue.is_closed) return html`<section class="merge-box" id="merge" aria-label="Merge"><p>This pull request is closed.</p></section>`;
  const checks = [
    p.box.wip ? { state: 'bad', text: 'This pull request is a draft: mark it ready for review before merging.' } as Check : null,
    mergeability(p), statuses(p.box), ...reviewChecks(p),
  ].filter((c): c is Check => !!c);
  const alert = f.state.errors[''] ? html`<div class="flash error" role="alert">${f.state.errors['']}</div>` : '';
  return html`<section class="merge-box" id="merge" aria-labelledby="merge-title"><h2 id="merge-title">Merge</h2>
<ul class="checks">${checks.map(checkItem)}</ul>
${alert}${scheduled(v, p, f)}${updateForm(p, f)}${mergeForm(p, f)}</section>`;
}
