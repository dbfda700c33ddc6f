import type { Config } from '../../config/schema';
import { repoUrls } from '../../convert/repo';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import type { RepoAccess } from '../../services/repo/repos';
import type { HomePage, TreePage } from '../../services/web/code-pages';
import type { About } from '../../services/web/repo-about';
import { refSegment } from '../../services/web/refs';
import { codeRegion, repoLink, webUrl, when } from './layout';
import { commitLine } from './repo-view';

// A directory at a ref (each entry with its last commit's message and age, then the README),
// and what only the repository home shows: the clone box, the about box, and for an empty
// repository how to push to it.

export function treeView(config: Config, access: RepoAccess, page: TreePage): SafeHtml {
  const ref = encodePath(refSegment(page.target.ref));
  const rows = page.entries.map((e) => {
    const name = e.type === 'dir' ? `${e.entry.name}/` : e.entry.name;
    const link = e.type === 'submodule'
      ? html`${name}${e.submoduleUrl ? html` <span class="meta">@ ${e.entry.sha.slice(0, 10)}</span>` : ''}`
      : html`<a href="${repoLink(config, access, `src/${ref}/${encodePath(e.entry.path)}`)}">${name}</a>`;
    const c = e.last ? page.commits.get(e.last.sha) : undefined;
    const last = c ? html`<a class="message" href="${repoLink(config, access, `commit/${c.sha}`)}">${c.subject}</a>` : '';
    return html`<tr class="${e.type}"><td class="name">${link}</td><td class="last">${last}</td><td class="age">${c ? when(c.date) : ''}</td></tr>`;
  });
  const readme = page.readme
    ? html`<section class="markdown readme" id="readme" aria-labelledby="readme-title"><h2 id="readme-title"><a href="${repoLink(config, access, `src/${ref}/${encodePath(page.readme.path)}`)}">${page.readme.name}</a></h2>${raw(page.readme.html)}</section>`
    : '';
  const table = page.entries.length
    ? codeRegion('Files', html`<table class="tree"><caption class="vh">Files of ${page.target.path || access.repo.name}</caption><thead class="vh"><tr><th>Name</th><th>Last commit</th><th>Date</th></tr></thead><tbody>${rows}</tbody></table>`)
    : html`<p class="meta">This directory is empty.</p>`;
  return html`${commitLine(config, access, page.latest)}${table}\n${readme}`;
}

/** The HTTPS and SSH clone URLs, each with a copy button (the script's). */
export function cloneBox(config: Config, access: RepoAccess): SafeHtml {
  const urls = repoUrls(config, access.owner.name, access.repo.name);
  const row = (id: string, label: string, url: string) => html`<div class="clone-row"><label for="${id}">${label}</label><input id="${id}" type="text" readonly value="${url}"><button type="button" class="copy" data-copy-from="${id}" aria-label="Copy the ${label} URL" hidden>Copy</button></div>`;
  return html`<div class="clone" role="group" aria-label="Clone">${row('clone-https', 'HTTPS', urls.clone_url)}${row('clone-ssh', 'SSH', urls.ssh_url)}</div>`;
}

export function aboutBox(config: Config, access: RepoAccess, about: About, signedIn: boolean): SafeHtml {
  const site = /^https?:\/\//i.test(about.website) ? html`<p><a href="${about.website}" rel="nofollow noopener">${about.website}</a></p>` : '';
  const topics = about.topics.length
    ? html`<ul class="topics">${about.topics.map((t) => html`<li><a class="topic" href="${webUrl(config, `explore/repos?q=${encodeURIComponent(t)}&topic=1`)}">${t}</a></li>`)}</ul>` : '';
  const release = about.release
    ? html`<h3>Latest release</h3><p><a href="${repoLink(config, access, `releases/tag/${encodePath(about.release.tag)}`)}">${about.release.name}</a></p>` : '';
  const langs = about.languages.length
    ? html`<h3>Languages</h3><ul class="languages">${about.languages.map((l) => html`<li>${l.name} <span class="meta">${l.percent.toFixed(1)}%</span></li>`)}</ul>` : '';
  const fork = signedIn ? html`<p><a class="button" href="${repoLink(config, access, 'fork')}">Fork</a> <span class="meta">${access.repo.num_forks} fork${access.repo.num_forks === 1 ? '' : 's'}</span></p>` : '';
  return html`<aside class="about" aria-labelledby="about-title"><h2 id="about-title">About</h2>${fork}
${about.description ? html`<p>${about.description}</p>` : html`<p class="meta">No description.</p>`}${site}${topics}${release}${langs}</aside>`;
}

/** An empty repository: how to push a first commit to it, over HTTPS or SSH. */
export function emptyRepo(config: Config, access: RepoAccess, branch: string, writeLinks: SafeHtml): SafeHtml {
  const urls = repoUrls(config, access.owner.name, access.repo.name);
  const fresh = (url: string) => `git init\ngit checkout -b ${branch}\ntouch README.md\ngit add README.md\ngit commit -m "first commit"\ngit remote add origin ${url}\ngit push -u origin ${branch}`;
  const existing = (url: string) => `git remote add origin ${url}\ngit push -u origin ${branch}`;
  return html`<section class="empty-repo" aria-labelledby="empty-title"><h2 id="empty-title">This repository is empty</h2>
${writeLinks}
<h3>Create a new repository on the command line</h3>
${codeRegion('Commands over HTTPS', html`<pre>${fresh(urls.clone_url)}</pre>`)}
<p class="meta">Over SSH, the remote is <code>${urls.ssh_url}</code>.</p>
<h3>Push an existing repository from the command line</h3>
${codeRegion('Push over HTTPS', html`<pre>${existing(urls.clone_url)}</pre>`)}
${codeRegion('Push over SSH', html`<pre>${existing(urls.ssh_url)}</pre>`)}</section>`;
}

export type HomeTree = Exclude<HomePage, { kind: 'empty' }>;
