import type { Label, Milestone, User } from '../../db/schema';
import { issueHtmlUrl } from '../../convert/issue';
import { html, type SafeHtml } from '../../lib/html';
import type { IssueView } from '../../services/issue/issue-views';
import type { IssueScreen } from '../../services/web/issue-screen';
import { personLink, type ThreadView } from './comment-view';
import { submitButton } from './forms';
import { labelSpans, milestoneLink } from './issue-pages-html';
import { repoLink, when } from './layout';

// The issue page's sidebar: labels, assignees, milestone, due date, dependencies, lock, pin
// and the viewer's subscription. Readers see the facts; writers get a small form per fact
// (checkboxes in a <details>, a select, a date), each posting to its own route and coming back.

/** Gitea's lock reasons (the select of its lock form). */
export const LOCK_REASONS = ['Off-topic', 'Too heated', 'Resolved', 'Spam'];

type Side = { v: ThreadView; s: IssueScreen; path: (rest: string) => string };

function section(id: string, title: string, content: SafeHtml | string): SafeHtml {
  return html`<section class="side" aria-labelledby="side-${id}"><h2 id="side-${id}">${title}</h2>${content}</section>`;
}

/** A form posting to `issues/{index}/{action}` with the page's token. */
const form = (x: Side, action: string, inner: SafeHtml, cls = ''): SafeHtml =>
  html`<form${cls ? html` class="${cls}"` : ''} method="post" action="${x.path(action)}">${x.v.csrf}${inner}</form>`;

const choice = (name: string, value: string | number, checked: boolean, label: SafeHtml | string): SafeHtml =>
  html`<li><label><input type="checkbox" name="${name}" value="${value}"${checked ? html` checked` : ''}> ${label}</label></li>`;

function labelsSection(x: Side, view: IssueView, labels: Label[] | null): SafeHtml {
  const current = view.labels.length ? html`<p>${labelSpans(x.v, view.labels)}</p>` : html`<p class="meta">None yet</p>`;
  if (!labels) return section('labels', 'Labels', current);
  const has = new Set(view.labels.map((l) => l.id));
  const list = labels.length
    ? html`<ul class="choices">${labels.map((l) => choice('label', l.id, has.has(l.id), html`<span class="label ${x.v.colour(l.color)}">${l.name}</span>`))}</ul><input type="hidden" name="label" value="">${submitButton('Apply labels', '')}`
    : html`<p class="meta">This repository has no labels. <a href="${repoLink(x.v.config, x.v.access, 'labels')}">Add labels</a></p>`;
  return section('labels', 'Labels', html`${current}<details><summary>Edit labels</summary>${form(x, 'labels', list)}</details>`);
}

function assigneesSection(x: Side, view: IssueView, users: User[] | null): SafeHtml {
  const current = view.assignees.length
    ? html`<p>${view.assignees.map((u, i) => html`${i ? ', ' : ''}${personLink(x.v, u)}`)}</p>`
    : html`<p class="meta">No one assigned</p>`;
  if (!users) return section('assignees', 'Assignees', current);
  const has = new Set(view.assignees.map((u) => u.id));
  const list = html`<ul class="choices">${users.map((u) => choice('assignee', u.name, has.has(u.id), u.name))}</ul><input type="hidden" name="assignee" value="">${submitButton('Apply assignees', '')}`;
  return section('assignees', 'Assignees', html`${current}<details><summary>Edit assignees</summary>${form(x, 'assignees', list)}</details>`);
}

function milestoneSection(x: Side, view: IssueView, milestones: Milestone[] | null): SafeHtml {
  const current = view.milestone ? html`<p>${milestoneLink(x.v, view.milestone)}</p>` : html`<p class="meta">No milestone</p>`;
  if (!milestones) return section('milestone', 'Milestone', current);
  const selected = view.milestone?.id ?? 0;
  const options = [html`<option value="0"${selected ? '' : html` selected`}>No milestone</option>`,
    ...milestones.map((m) => html`<option value="${m.id}"${m.id === selected ? html` selected` : ''}>${m.name}</option>`)];
  const inner = html`<label class="vh" for="side-milestone-select">Milestone</label><select id="side-milestone-select" name="milestone">${options}</select> ${submitButton('Set', '')}`;
  return section('milestone', 'Milestone', html`${current}${form(x, 'milestone', inner, 'inline')}`);
}

function deadlineSection(x: Side, view: IssueView, write: boolean): SafeHtml | '' {
  const due = view.issue.deadline_unix;
  const current = due ? html`<p>Due ${when(due)}</p>` : html`<p class="meta">No due date</p>`;
  if (!write) return due ? section('due', 'Due date', current) : '';
  const value = due ? new Date(due * 1000).toISOString().slice(0, 10) : '';
  const remove = due ? html` <button type="submit" name="remove" value="1">Remove</button>` : '';
  const inner = html`<label class="vh" for="side-due">Due date</label><input id="side-due" type="date" name="date" value="${value}"> ${submitButton('Set', '')}${remove}`;
  return section('due', 'Due date', html`${current}${form(x, 'deadline', inner, 'inline')}`);
}

function linkList(x: Side, items: IssueView[], remove: string | null): SafeHtml {
  if (!items.length) return html`<p class="meta">None</p>`;
  return html`<ul class="links">${items.map((i) => {
    const other = i.repo.id !== x.v.access.repo.id ? `${i.owner.name}/${i.repo.name}` : '';
    const ref = `${other}#${i.issue.index}`;
    const drop = remove ? form(x, 'dependency/delete', html`<input type="hidden" name="kind" value="${remove}"><input type="hidden" name="issue" value="${ref}"><button type="submit" class="link" aria-label="Remove ${ref}">Remove</button>`, 'inline') : '';
    return html`<li><a href="${issueHtmlUrl(x.v.config, i.owner, i.repo, i.issue)}">${i.issue.title} ${ref}</a>${i.issue.is_closed ? ' (closed)' : ''} ${drop}</li>`;
  })}</ul>`;
}

function dependenciesSection(x: Side): SafeHtml | '' {
  const { links, rights } = x.s;
  if (!links.enabled) return '';
  const add = rights.write
    ? form(x, 'dependency/add', html`<label for="side-dep">Add a dependency</label><div class="inline"><input id="side-dep" name="issue" placeholder="#12 or owner/repo#12" required> ${submitButton('Add', '')}</div><input type="hidden" name="kind" value="dependencies">`)
    : '';
  return section('deps', 'Dependencies', html`<h3>Depends on</h3>${linkList(x, links.blockedBy, rights.write ? 'dependencies' : null)}${add}
<h3>Blocks</h3>${linkList(x, links.blocks, rights.write ? 'blocks' : null)}`);
}

function conversationSection(x: Side): SafeHtml | '' {
  const { s } = x;
  const parts: (SafeHtml | '')[] = [];
  if (s.watching !== null) {
    parts.push(form(x, 'watch', html`<input type="hidden" name="watch" value="${s.watching ? '0' : '1'}">${submitButton(s.watching ? 'Unsubscribe' : 'Subscribe', '')}`));
    parts.push(html`<p class="meta">${s.watching ? 'You get notifications of this issue.' : 'You get no notifications of this issue.'}</p>`);
  }
  if (s.rights.write) {
    parts.push(s.view.issue.is_locked
      ? form(x, 'unlock', submitButton('Unlock conversation', ''))
      : form(x, 'lock', html`<label for="side-lock">Reason</label><select id="side-lock" name="reason"><option value="">No reason</option>${LOCK_REASONS.map((r) => html`<option>${r}</option>`)}</select> ${submitButton('Lock conversation', '')}`));
  }
  if (s.rights.pin) parts.push(form(x, s.view.issue.pin_order ? 'unpin' : 'pin', submitButton(s.view.issue.pin_order ? 'Unpin' : 'Pin', '')));
  if (!parts.length) return '';
  return section('conversation', 'Conversation', html`${parts}`);
}

export function issueSidebar(v: ThreadView, s: IssueScreen): SafeHtml {
  const x: Side = { v, s, path: (rest) => repoLink(v.config, v.access, `issues/${s.view.issue.index}/${rest}`) };
  const c = s.choices;
  return html`<div class="sidebar">${labelsSection(x, s.view, c?.labels ?? null)}${assigneesSection(x, s.view, c?.assignees ?? null)}
${milestoneSection(x, s.view, c?.milestones ?? null)}${deadlineSection(x, s.view, s.rights.write)}${dependenciesSection(x)}${conversationSection(x)}</div>`;
}
