import type { Request, Response } from 'express';
import { issueHtmlUrl } from '../../convert/issue';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { listThreads, markThread, markThreads, PINNED, type NotificationView } from '../../services/notification/notifications';
import { queryInt, queryString } from '../query';
import { csrfInput, redirectAfterPost } from './forms';
import { indexParam } from './issue-view-pages';
import { text } from './issue-actions';
import { pager, sendPage, webUrl, when } from './layout';

// GET /notifications: the signed-in user's threads, unread (with pinned) or read, grouped by
// repository; each thread a form of buttons (mark read or unread, pin), each repository and
// the whole list a "mark all read" form. The API's notification service does all of it.

const PAGE_SIZE = 30;
type Tab = 'unread' | 'read';

const tabOf = (req: Request): Tab => (queryString(req, 'type') === 'read' ? 'read' : 'unread');

function subject(req: Request, v: NotificationView): SafeHtml {
  const { config } = req.ctx;
  if (!v.issue) return html`<a href="${webUrl(config, `${encodePath(v.owner.name)}/${encodePath(v.repo.name)}`)}">${v.repo.name}</a>`;
  const kind = v.issue.is_pull ? 'Pull request' : 'Issue';
  const state = v.issue.is_closed ? 'closed' : 'open';
  return html`<span class="meta">${kind} · ${state}</span> <a href="${issueHtmlUrl(config, v.owner, v.repo, v.issue)}">${v.issue.title} #${v.issue.index}</a>`;
}

function threadForm(req: Request, res: Response, v: NotificationView, tab: Tab): SafeHtml {
  const action = webUrl(req.ctx.config, `notifications/threads/${v.n.id}`);
  const label = v.issue ? `${v.issue.title} #${v.issue.index}` : v.repo.name;
  const button = (status: string, name: string) => html`<button type="submit" name="status" value="${status}" aria-label="${name}: ${label}">${name}</button>`;
  const pinned = v.n.status === PINNED;
  return html`<form class="inline" method="post" action="${action}">${csrfInput(req, res)}<input type="hidden" name="back" value="${tab}">
${tab === 'unread' && !pinned ? button('read', 'Mark read') : button('unread', 'Mark unread')}${pinned ? '' : button('pinned', 'Pin')}</form>`;
}

function readAllForm(req: Request, res: Response, label: string, repoId?: number): SafeHtml {
  return html`<form class="inline" method="post" action="${webUrl(req.ctx.config, 'notifications/read')}">${csrfInput(req, res)}
${repoId ? html`<input type="hidden" name="repo" value="${repoId}">` : ''}<button type="submit">${label}</button></form>`;
}

function groups(req: Request, res: Response, views: NotificationView[], tab: Tab): SafeHtml {
  const byRepo = new Map<number, NotificationView[]>();
  for (const v of views) byRepo.set(v.repo.id, [...(byRepo.get(v.repo.id) ?? []), v]);
  return html`${[...byRepo.values()].map((list) => {
    const { repo, owner } = list[0]!;
    const name = `${owner.name}/${repo.name}`;
    const readAll = tab === 'unread' ? readAllForm(req, res, `Mark all of ${name} read`, repo.id) : '';
    return html`<section class="box notify-repo" aria-label="${name}"><div class="inline"><h2><a href="${webUrl(req.ctx.config, `${encodePath(owner.name)}/${encodePath(repo.name)}`)}">${name}</a></h2>${readAll}</div>
<ul class="list">${list.map((v) => html`<li>${subject(req, v)} <span class="meta">${when(v.n.updated_unix)}${v.n.status === PINNED ? ' · pinned' : ''}</span>${threadForm(req, res, v, tab)}</li>`)}</ul></section>`;
  })}`;
}

/** GET /notifications?type=unread|read */
export async function notificationsPage(req: Request, res: Response): Promise<void> {
  const { db, config } = req.ctx;
  const tab = tabOf(req);
  const page = Math.min(Math.max(queryInt(req, 'page') ?? 1, 1), 10_000);
  const { views, total } = await listThreads(db, req.ctx.doer!, { statusTypes: tab === 'read' ? ['read'] : ['unread', 'pinned'], subjectTypes: [] }, { offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const base = webUrl(config, 'notifications');
  const tabLink = (t: Tab, label: string) => html`<a ${t === tab ? html`aria-current="page" class="active"` : ''} href="${base}?type=${t}">${label}</a>`;
  const empty = html`<p class="meta">${tab === 'unread' ? 'You have read everything.' : 'No read notifications.'}</p>`;
  const body = html`<h1>Notifications</h1><nav class="tabs" aria-label="Notifications">${tabLink('unread', 'Unread')}${tabLink('read', 'Read')}</nav>
${tab === 'unread' && views.length ? readAllForm(req, res, 'Mark all read') : ''}
${views.length ? groups(req, res, views, tab) : empty}${pager(base, page, page * PAGE_SIZE < total, { type: tab })}`;
  sendPage(req, res, { title: 'Notifications', body });
}

/** POST /notifications/threads/{id}: `status` read, unread or pinned. */
export async function threadPost(req: Request, res: Response): Promise<void> {
  const status = text(req, 'status');
  await markThread(req.ctx.db, req.ctx.doer!, indexParam(req, 'id'), ['read', 'unread', 'pinned'].includes(status) ? status : 'read');
  redirectAfterPost(req, res, `notifications?type=${text(req, 'back') === 'read' ? 'read' : 'unread'}`);
}

/** POST /notifications/read: every unread thread, or one repository's (`repo`). */
export async function readAllPost(req: Request, res: Response): Promise<void> {
  const repo = text(req, 'repo');
  const repoId = /^\d{1,15}$/.test(repo) ? Number(repo) : undefined;
  await markThreads(req.ctx.db, req.ctx.doer!, { statusTypes: ['unread'], toStatus: 'read' }, repoId);
  redirectAfterPost(req, res, 'notifications');
}
