import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { toApiRelease } from '../../convert/release';
import { toApiTeam } from '../../convert/team';
import { avatarUrl } from '../../convert/user';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import { exploreRepos as exploreRepoList, profileOf, type OrgProfile, type RepoItem, type RepoList, type UserProfile } from '../../services/web/owner-pages';
import { mayWriteReleases } from '../../services/release/releases';
import { releasePage, releasesPage, type ReleaseItem } from '../../services/web/release-pages';
import { orgTeam, orgTeams, type TeamPage, type TeamsPage } from '../../services/web/team-pages';
import { ORG_TYPE } from '../../services/permissions';
import type { RepoAccess } from '../../services/repo/repos';
import { repoOf } from '../context';
import { queryInt } from '../query';
import { pathParam } from '../table';
import { unitsOf } from './guards';
import { pager, repoHeader, repoLink, sendPage, webUrl, when } from './layout';
import { profileNav, profileTabOf, profileTabPage } from './profile-tabs';
import { exploreTabs } from './explore-pages';

// The home page, user and organization profiles, organization teams and releases: where the
// html_url of users, releases and (Gitea's web URLs for) organizations and teams lead.

const REPOS_PER_PAGE = 20;
const TEAMS_PER_PAGE = 50;
const RELEASES_PER_PAGE = 10;

/** `?page=` (1-based; anything else is the first page) as an offset window. */
function pageWindow(req: Request, limit: number) {
  const page = Math.max(1, queryInt(req, 'page') ?? 1);
  return { page, offset: (page - 1) * limit, limit };
}

const userLink = (config: Config, u: Pick<User, 'name'>) => webUrl(config, encodePath(u.name));
const teamsLink = (config: Config, org: User) => webUrl(config, `org/${encodePath(org.name)}/teams`);
/** Only http(s) websites become links: anything else (javascript:...) stays text. */
const website = (url: string) => (/^https?:\/\//i.test(url) ? html`<a href="${url}" rel="nofollow noopener">${url}</a>` : url);

function repoItems(config: Config, items: RepoItem[]): SafeHtml {
  if (!items.length) return html`<p class="meta">No repositories.</p>`;
  const li = ({ repo, owner }: RepoItem) => html`<li><a href="${repoLink(config, { repo, owner })}">${owner.name}/${repo.name}</a>${repo.is_private ? html` <span class="badge">Private</span>` : ''}
${repo.description ? html`<div class="description">${repo.description}</div>` : ''}<div class="meta">Updated ${when(repo.updated_unix)}</div></li>`;
  return html`<ul class="list repos">${items.map(li)}</ul>`;
}

function repoSection(req: Request, list: RepoList, base: string, page: number): SafeHtml {
  const more = (page - 1) * REPOS_PER_PAGE + list.items.length < list.total;
  const q = typeof req.query.q === 'string' ? req.query.q.trim().slice(0, 200) : '';
  const search = html`<form method="get" action="${base}" role="search" aria-label="Search repositories"><label for="owner-q">Find a repository</label> <input id="owner-q" type="search" name="q" value="${q}"> <button type="submit">Search</button></form>`;
  return html`<h2>Repositories <span class="count">${list.total}</span></h2>\n${search}${repoItems(req.ctx.config, list.items)}\n${pager(base, page, more, q ? { q } : {})}`;
}

/** GET /explore/repos: the repositories the visitor may see, by name or description (`q`). */
export async function exploreRepos(req: Request, res: Response): Promise<void> {
  const { config, doer } = req.ctx;
  const q = typeof req.query.q === 'string' ? req.query.q.trim().slice(0, 200) : '';
  const w = pageWindow(req, REPOS_PER_PAGE);
  const list = await exploreRepoList(req.ctx.db, doer, q, w);
  const more = (w.page - 1) * REPOS_PER_PAGE + list.items.length < list.total;
  const base = webUrl(config, 'explore/repos');
  const body = html`<h1>Explore</h1>${exploreTabs(req, 'repos')}
<form method="get" action="${base}" role="search" aria-label="Explore repositories"><label for="explore-q">Search</label> <input id="explore-q" type="search" name="q" value="${q}"> <button type="submit">Search</button></form>
<h2>${q ? html`Results for “${q}”` : 'Recently updated'} <span class="count">${list.total}</span></h2>
${repoItems(config, list.items)}
${pager(base, w.page, more, q ? { q } : {})}`;
  sendPage(req, res, { title: 'Explore', body });
}

function profileHead(config: Config, u: User): SafeHtml {
  const facts = [
    u.website ? html`<li>${website(u.website)}</li>` : '',
    u.location ? html`<li>${u.location}</li>` : '',
    u.type === ORG_TYPE ? '' : html`<li>Joined ${when(u.created_unix)}</li>`,
  ];
  return html`<div class="profile"><img class="avatar big" src="${avatarUrl(config, u)}" alt="">
<div><h1>${u.name}${u.full_name ? html` <span class="meta">${u.full_name}</span>` : ''}</h1>
${u.description ? html`<p class="description">${u.description}</p>` : ''}<ul class="facts meta">${facts}</ul></div></div>`;
}

function userProfile(req: Request, p: UserProfile, page: number): SafeHtml {
  const { config } = req.ctx;
  return html`${profileHead(config, p.user)}\n${profileNav(req, p.user, 'repositories')}\n${repoSection(req, p.repos, userLink(config, p.user), page)}`;
}

function orgProfile(req: Request, p: OrgProfile, page: number): SafeHtml {
  const { config } = req.ctx;
  const member = (m: User) => html`<a href="${userLink(config, m)}" title="${m.name}"><img class="avatar" src="${avatarUrl(config, m)}" alt="${m.name}"></a> `;
  const members = p.members.length ? html`<h2>Members</h2>\n<p class="members">${p.members.map(member)}</p>` : '';
  const settings = p.manages ? html` · <a href="${webUrl(config, `org/${encodePath(p.org.name)}/settings`)}">Settings</a> · <a href="${webUrl(config, `org/${encodePath(p.org.name)}/teams/new`)}">New team</a>` : '';
  const teams = p.seesTeams ? html`<p><a href="${teamsLink(config, p.org)}">Teams</a>${settings}</p>` : '';
  return html`${profileHead(config, p.org)}\n${teams}\n${repoSection(req, p.repos, userLink(config, p.org), page)}\n${members}`;
}

/** GET /{username}: a user's or an organization's profile (404 when hidden from the viewer). */
export async function profile(req: Request, res: Response): Promise<void> {
  const tab = profileTabOf(req);
  if (tab) return profileTabPage(req, res, (u) => profileHead(req.ctx.config, u), tab);
  const w = pageWindow(req, REPOS_PER_PAGE);
  const q = typeof req.query.q === 'string' ? req.query.q.trim().slice(0, 200) : '';
  const p = await profileOf(req.ctx.db, String(req.params.owner), req.ctx.doer, w, q);
  const who = p.kind === 'user' ? p.user : p.org;
  const body = p.kind === 'user' ? userProfile(req, p, w.page) : orgProfile(req, p, w.page);
  sendPage(req, res, { title: who.full_name ? `${who.name} (${who.full_name})` : who.name, body });
}

const teamLink = (config: Config, org: User, lowerName: string) =>
  webUrl(config, `org/${encodePath(org.name)}/teams/${encodeURIComponent(lowerName)}`);

function orgCrumbs(config: Config, org: User, team?: string): SafeHtml {
  const tail = team ? html` / ${team}` : '';
  return html`<p class="crumbs"><a href="${userLink(config, org)}">${org.name}</a> / <a href="${teamsLink(config, org)}">Teams</a>${tail}</p>`;
}

function teamsBody(config: Config, t: TeamsPage, w: { page: number; offset: number }): SafeHtml {
  const row = (team: TeamsPage['teams'][number]) => {
    const api = toApiTeam(config, team, t.units, t.org);
    return html`<tr><td><a href="${teamLink(config, t.org, team.lower_name)}">${team.name}</a></td><td>${team.description}</td>
<td>${api.permission}</td><td>${team.num_members}</td><td>${team.num_repos}</td></tr>`;
  };
  const more = w.offset + t.teams.length < t.total;
  return html`${orgCrumbs(config, t.org)}<h1>Teams <span class="count">${t.total}</span></h1>
<table class="teams"><tr><th>Team</th><th>Description</th><th>Permission</th><th>Members</th><th>Repositories</th></tr>${t.teams.map(row)}</table>
${pager(teamsLink(config, t.org), w.page, more)}`;
}

/** GET /org/{org}/teams: the organization's teams, for its members and site admins. */
export async function teams(req: Request, res: Response): Promise<void> {
  const w = pageWindow(req, TEAMS_PER_PAGE);
  const t = await orgTeams(req.ctx.db, String(req.params.org), req.ctx.doer, w);
  sendPage(req, res, { title: `${t.org.name} teams`, body: teamsBody(req.ctx.config, t, w) });
}

function teamBody(config: Config, t: TeamPage): SafeHtml {
  const api = toApiTeam(config, t.team, t.units, t.org);
  const member = (m: User) => html`<li><img class="avatar" src="${avatarUrl(config, m)}" alt=""> <a href="${userLink(config, m)}">${m.name}</a>${m.full_name ? html` <span class="meta">${m.full_name}</span>` : ''}</li>`;
  const units = Object.entries(api.units_map).map(([unit, mode]) => html`<li><code>${unit}</code>: ${mode}</li>`);
  return html`${orgCrumbs(config, t.org, t.team.name)}<h1>${t.team.name} <span class="badge">${api.permission}</span></h1>
${t.team.description ? html`<p class="description">${t.team.description}</p>` : ''}
<p class="meta">${api.includes_all_repositories ? 'All repositories of the organization.' : 'Chosen repositories.'}${api.can_create_org_repo ? ' May create repositories.' : ''}</p>
<h2>Units</h2>\n<ul class="units">${units}</ul>
<h2>Members <span class="count">${t.team.num_members}</span></h2>
${t.members.length ? html`<ul class="list">${t.members.map(member)}</ul>` : html`<p class="meta">No members.</p>`}
<h2>Repositories <span class="count">${t.repos.length}</span></h2>\n${repoItems(config, t.repos)}`;
}

/** GET /org/{org}/teams/{team}: one team (by lower-cased name), its members and repositories. */
export async function team(req: Request, res: Response): Promise<void> {
  const t = await orgTeam(req.ctx.db, String(req.params.org), String(req.params.team), req.ctx.doer);
  sendPage(req, res, { title: `${t.org.name} / ${t.team.name}`, body: teamBody(req.ctx.config, t) });
}

/** `writer`: the visitor manages the releases (an Edit link on each). */
type ReleaseShow = { heading: 'h1' | 'h2'; readsCode: boolean; writer?: boolean };

function releaseBlock(config: Config, access: RepoAccess, item: ReleaseItem, show: ReleaseShow): SafeHtml {
  const r = toApiRelease(config, access, item);
  // As Gitea: a draft has no tag yet, and archives are code, so no source links then.
  const sources = !r.draft && show.readsCode
    ? html`<li><a href="${r.zipball_url}">Source code (ZIP)</a></li><li><a href="${r.tarball_url}">Source code (TAR.GZ)</a></li>` : '';
  const badges = [r.draft ? 'Draft' : '', r.prerelease ? 'Pre-release' : ''].filter(Boolean).map((b) => html` <span class="badge">${b}</span>`);
  const title = html`<a href="${r.html_url}">${r.name || r.tag_name}</a>${badges}`;
  const publisher = item.publisher ? html`<a href="${r.author.html_url}">${r.author.login}</a>` : r.author.login;
  const asset = (a: (typeof r.assets)[number]) => html`<li><a href="${a.browser_download_url}">${a.name}</a> <span class="meta">${a.size} bytes</span></li>`;
  return html`<article class="release">
${show.heading === 'h1' ? html`<h1>${title}</h1>` : html`<h2>${title}</h2>`}
<p class="meta"><code>${r.tag_name}</code> · ${publisher} released ${when(item.release.created_unix)}${show.writer ? html` · <a href="${repoLink(config, access, `releases/edit/${encodePath(r.tag_name)}`)}" aria-label="Edit release ${r.tag_name}">Edit</a>` : ''}</p>
${item.notesHtml ? html`<div class="markdown">${raw(item.notesHtml)}</div>` : ''}
${r.assets.length || sources ? html`<ul class="list assets">${r.assets.map(asset)}${sources}</ul>` : ''}
</article>`;
}

/** GET /{owner}/{repo}/releases: the releases the viewer may see, newest first, 10 a page. */
export async function releases(req: Request, res: Response): Promise<void> {
  const { config } = req.ctx;
  const access = repoOf(req);
  const w = pageWindow(req, RELEASES_PER_PAGE);
  const { items, total } = await releasesPage(req.ctx.h, access, req.ctx.doer, w);
  const readsCode = unitsOf(res).has('repo.code');
  const writer = !access.repo.is_archived && (await mayWriteReleases(req.ctx.db, access, req.ctx.doer));
  const list = items.length ? items.map((i) => releaseBlock(config, access, i, { heading: 'h2', readsCode, writer })) : html`<p class="meta">No releases.</p>`;
  const more = w.offset + items.length < total;
  const create = writer ? html`<p><a class="button primary" href="${repoLink(config, access, 'releases/new')}">New release</a></p>` : '';
  const body = html`${repoHeader(config, access, unitsOf(res), 'releases')}\n${create}${list}\n${pager(repoLink(config, access, 'releases'), w.page, more)}`;
  sendPage(req, res, { title: 'Releases', body });
}

/** GET /{owner}/{repo}/releases/tag/{tag}: one release (the tag may hold slashes). */
export async function release(req: Request, res: Response): Promise<void> {
  const { config } = req.ctx;
  const access = repoOf(req);
  const item = await releasePage(req.ctx.h, access, req.ctx.doer, pathParam(req, 'tag'));
  const writer = !access.repo.is_archived && (await mayWriteReleases(req.ctx.db, access, req.ctx.doer));
  const body = html`${repoHeader(config, access, unitsOf(res), 'releases')}\n${releaseBlock(config, access, item, { heading: 'h1', readsCode: unitsOf(res).has('repo.code'), writer })}`;
  sendPage(req, res, { title: item.release.title || item.release.tag_name, body });
}
