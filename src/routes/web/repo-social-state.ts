import type { Config } from '../../config/schema';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import type { RepoAccess } from '../../services/repo/repos';

// The watch, star and fork buttons of the repository header, with their counts: forms for a
// signed-in viewer (repo-social.ts reads their state before the page), the counts alone for
// others. The state is kept beside the request's repository, so the header, drawn by every
// repository page, needs no new argument; fork links to the fork page.

export type Social = { watching: boolean; starred: boolean; stars: boolean; fork: boolean; csrf: SafeHtml; back: string };
const states = new WeakMap<RepoAccess, Social>();

export const setSocial = (access: RepoAccess, s: Social): void => { states.set(access, s); };

const count = (n: number) => html` <span class="count">${n}</span>`;

export function socialButtons(config: Config, access: RepoAccess): SafeHtml {
  const { repo, owner } = access;
  const s = states.get(access);
  if (!s) return html`<p class="social meta">Watchers ${repo.num_watches} · Stars ${repo.num_stars} · Forks ${repo.num_forks}</p>`;
  const base = `${config.server.root_url}${encodePath(owner.name)}/${encodePath(repo.name)}`;
  const form = (action: string, label: string, pressed: boolean, n: number) =>
    html`<form method="post" action="${base}/action/${action}">${s.csrf}<input type="hidden" name="redirect_to" value="${s.back}"><button type="submit" aria-pressed="${pressed ? 'true' : 'false'}">${label}${count(n)}</button></form>`;
  return html`<div class="social">${form(s.watching ? 'unwatch' : 'watch', s.watching ? 'Unwatch' : 'Watch', s.watching, repo.num_watches)}
${s.stars ? form(s.starred ? 'unstar' : 'star', s.starred ? 'Unstar' : 'Star', s.starred, repo.num_stars) : ''}
${s.fork ? html`<a class="button" href="${base}/fork">Fork${count(repo.num_forks)}</a>` : ''}</div>`;
}
