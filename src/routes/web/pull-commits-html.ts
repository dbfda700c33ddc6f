import { html, type SafeHtml } from '../../lib/html';
import { isWip } from '../../services/pull/pull-merge';
import type { CommitsPage } from '../../services/web/issue-pages-pull';
import { userLink, type View } from './issue-pages-html';
import { pager, repoLink, when } from './layout';
import { pullHeadHtml, pullUrl } from './pull-html';

// The "Commits" tab: the pull's commits (merge base..head) newest first, 50 a page, each with
// its subject, author, time, and links to the commit and to the tree at it.

export function commitsHtml(v: View, page: CommitsPage, n: number): SafeHtml {
  const { commits, users } = page.found;
  const row = (c: (typeof commits)[number]) => {
    const author = users.get(c.author.email);
    const [subject = '', ...rest] = c.message.split('\n');
    const body = rest.join('\n').trim();
    return html`<li><a href="${repoLink(v.config, v.access, `commit/${c.sha}`)}"><code>${c.sha.slice(0, 10)}</code></a> ${subject}
${body ? html`<details class="commit-body"><summary>More</summary><pre>${body}</pre></details>` : ''}
<div class="meta">${author ? userLink(v.config, author) : c.author.name} committed ${when(c.committer.date)} · <a href="${repoLink(v.config, v.access, `src/commit/${c.sha}`)}" aria-label="Browse the files at ${c.sha.slice(0, 10)}">Browse files</a></div></li>`;
  };
  const list = commits.length ? html`<ul class="list">${commits.map(row)}</ul>` : html`<p class="meta">No commits.</p>`;
  return html`${pullHeadHtml(v, page.pull, 'commits', isWip(page.pull.issue.issue.title))}
${list}
${pager(`${pullUrl(v, page.pull)}/commits`, n, page.hasMore)}`;
}
