import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { avatarUrl } from '../../convert/user';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import { opName } from '../../services/activity/activity';
import { PROFILE_TABS, profileTab, type ProfileTab, type TabContent } from '../../services/web/profile-tabs';
import { pageWindow } from './admin-layout';
import { pager, repoLink, sendPage, webUrl, when } from './layout';

// A user's profile tabs (Gitea's /{user}?tab=...): repositories (owner-pages.ts), public
// activity, starred repositories, followers and following, with paging.

const PER_PAGE = 20;

export const profileTabOf = (req: Request): ProfileTab | undefined =>
  (PROFILE_TABS as readonly string[]).includes(String(req.query.tab)) ? req.query.tab as ProfileTab : undefined;

/** The tab links under a user's profile head; `current` is marked. */
export function profileNav(req: Request, user: User, current: ProfileTab | 'repositories'): SafeHtml {
  const base = webUrl(req.ctx.config, encodePath(user.name));
  const tab = (name: ProfileTab | 'repositories', label: string) =>
    html`<a href="${name === 'repositories' ? base : `${base}?tab=${name}`}"${name === current ? raw(' aria-current="page"') : ''}>${label}</a>`;
  return html`<nav class="tabs" aria-label="Profile">${tab('repositories', 'Repositories')}${tab('activity', 'Activity')}${tab('stars', 'Stars')}${tab('followers', 'Followers')}${tab('following', 'Following')}</nav>`;
}

function activity(req: Request, c: Extract<TabContent, { tab: 'activity' }>): SafeHtml {
  const { config } = req.ctx;
  if (!c.feed.items.length) return html`<p class="meta">No public activity.</p>`;
  const li = ({ action, actor, repo }: (typeof c.feed.items)[number]) => html`<li><a href="${webUrl(config, encodePath(actor.name))}">${actor.name}</a>
${opName(action.op_type).replace(/_/g, ' ')}${action.ref_name ? html` <code>${action.ref_name.replace(/^refs\/(heads|tags)\//, '')}</code>` : ''} in <a href="${repoLink(config, repo)}">${repo.owner.name}/${repo.repo.name}</a>
<div class="meta">${when(action.created_unix)}</div></li>`;
  return html`<ul class="list feed">${c.feed.items.map(li)}</ul>`;
}

function content(req: Request, c: TabContent): { body: SafeHtml; count: number } {
  const { config } = req.ctx;
  if (c.tab === 'activity') return { body: activity(req, c), count: c.feed.items.length };
  if (c.tab === 'stars') {
    const li = (v: (typeof c.repos)[number]) => html`<li><a href="${repoLink(config, v)}">${v.owner.name}/${v.repo.name}</a>${v.repo.description ? html`<div class="description">${v.repo.description}</div>` : ''}</li>`;
    return { body: c.repos.length ? html`<ul class="list repos">${c.repos.map(li)}</ul>` : html`<p class="meta">No starred repositories.</p>`, count: c.repos.length };
  }
  const li = (u: User) => html`<li><img class="avatar" src="${avatarUrl(config, u)}" alt=""> <a href="${webUrl(config, encodePath(u.name))}">${u.name}</a>${u.full_name ? html` <span class="meta">${u.full_name}</span>` : ''}</li>`;
  return { body: c.users.length ? html`<ul class="list accounts">${c.users.map(li)}</ul>` : html`<p class="meta">Nobody yet.</p>`, count: c.users.length };
}

/** GET /{user}?tab=activity|stars|followers|following, under the profile's head. */
export async function profileTabPage(req: Request, res: Response, head: (user: User) => SafeHtml, tab: ProfileTab): Promise<void> {
  const w = pageWindow(req, PER_PAGE);
  const c = await profileTab(req.ctx.db, String(req.params.owner), req.ctx.doer, tab, w);
  const { body, count } = content(req, c);
  const total = c.tab === 'activity' ? c.feed.total : c.total;
  const base = webUrl(req.ctx.config, encodePath(c.user.name));
  sendPage(req, res, {
    title: `${c.user.name} · ${tab}`,
    body: html`${head(c.user)}\n${profileNav(req, c.user, tab)}\n${body}\n${pager(base, w.page, w.offset + count < total, { tab })}`,
  });
}
