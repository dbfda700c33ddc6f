import type { Request, Response } from 'express';
import type { PackageView } from '../../convert/package';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { linkPackage, unlinkPackage } from '../../services/packages/link';
import { deleteVersion } from '../../services/packages/packages';
import { getVersion, incrementDownloadCount } from '../../services/packages/queries';
import { searchPackageViews } from '../../services/packages/views';
import { versionPage, type PackageOwner, type VersionPage } from '../../services/web/package-pages';
import { queryInt, queryString } from '../query';
import { sendPackageBlob } from '../packages/send-blob';
import { confirmPage, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { text } from './issue-actions';
import { pager, sendPage, webUrl, when } from './layout';

// An owner's packages (Gitea's /{owner}/-/packages): the list with its type filter and search,
// a package's page (its newest version) and a version's page with the install command of its
// client, its files (download links), the versions, the linked repository; writers link and
// unlink a repository and delete a version after a confirmation. The services are the API's.

export const TYPES = ['alpine', 'arch', 'cargo', 'chef', 'composer', 'conan', 'conda', 'container', 'cran', 'debian', 'generic', 'go', 'helm', 'maven', 'npm', 'nuget', 'pub', 'pypi', 'rpm', 'rubygems', 'swift', 'vagrant'];
const PAGE_SIZE = 20;

const ownerOf = (res: Response) => res.locals.packageOwner as PackageOwner;
const param = (req: Request, name: string) => String(req.params[name] ?? '');
const base = (req: Request, res: Response) => `${encodePath(ownerOf(res).owner.name)}/-/packages`;
const pkgPath = (req: Request, res: Response, v: PackageView, withVersion = true) =>
  `${base(req, res)}/${encodeURIComponent(v.pkg.type)}/${encodeURIComponent(v.pkg.name)}${withVersion ? `/${encodeURIComponent(v.version.version)}` : ''}`;
const head = (req: Request, res: Response) => html`<h1><a href="${webUrl(req.ctx.config, encodePath(ownerOf(res).owner.name))}">${ownerOf(res).owner.name}</a> · <a href="${webUrl(req.ctx.config, base(req, res))}">Packages</a></h1>`;

/** GET /{owner}/-/packages */
export async function packagesList(req: Request, res: Response): Promise<void> {
  const { owner } = ownerOf(res);
  const type = TYPES.includes(queryString(req, 'type') ?? '') ? queryString(req, 'type')! : '';
  const q = queryString(req, 'q')?.trim() ?? '';
  const n = Math.min(Math.max(queryInt(req, 'page') ?? 1, 1), 100_000);
  const { views, total } = await searchPackageViews(req.ctx.db, owner, req.ctx.doer, { type: type || undefined, query: q || undefined, offset: (n - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const row = (v: PackageView) => html`<li><a href="${webUrl(req.ctx.config, pkgPath(req, res, v))}">${v.pkg.name}</a>
<p class="meta"><span class="badge">${v.pkg.type}</span> ${v.version.version} · published ${when(v.version.created_unix)}${v.creator ? html` by ${v.creator.name}` : ''}${v.repo ? html` · ${v.repo.owner.name}/${v.repo.repo.name}` : ''}</p></li>`;
  sendPage(req, res, {
    title: `Packages · ${owner.name}`,
    body: html`${head(req, res)}<form class="filters" method="get" action="${webUrl(req.ctx.config, base(req, res))}" role="search" aria-label="Packages">
<div class="field"><label for="f-type">Type</label><select id="f-type" name="type"><option value="">All types</option>${TYPES.map((t) => html`<option${t === type ? html` selected` : ''}>${t}</option>`)}</select></div>
<div class="field"><label for="f-q">Name</label><input id="f-q" type="search" name="q" value="${q}"></div><div class="field"><button type="submit">Search</button></div></form>
${views.length ? html`<ul class="list">${views.map(row)}</ul>` : html`<p>No package matches.</p>`}
${pager(webUrl(req.ctx.config, base(req, res)), n, n * PAGE_SIZE < total, Object.fromEntries(Object.entries({ type, q }).filter(([, v]) => v)))}`,
  });
}

function linkBox(req: Request, res: Response, p: VersionPage, errors: FieldErrors): SafeHtml {
  const { view } = p;
  const repo = view.repo ? html`<p>Linked to <a href="${webUrl(req.ctx.config, `${encodePath(view.repo.owner.name)}/${encodePath(view.repo.repo.name)}`)}">${view.repo.owner.name}/${view.repo.repo.name}</a></p>` : html`<p>Not linked to a repository.</p>`;
  if (!ownerOf(res).writer) return html`<section><h2>Repository</h2>${repo}</section>`;
  const action = webUrl(req.ctx.config, `${pkgPath(req, res, view, false)}/-/${view.pkg.repo_id ? 'unlink' : 'link'}`);
  const form = view.pkg.repo_id
    ? html`<form method="post" action="${action}">${csrfInput(req, res)}${submitButton('Unlink', '')}</form>`
    : html`<form class="stack" method="post" action="${action}">${formAlert(errors[''])}${csrfInput(req, res)}${field({ name: 'repo_name', label: 'Repository of this owner', value: text(req, 'repo_name'), required: true }, errors)}${submitButton('Link', '')}</form>`;
  return html`<section id="link"><h2>Repository</h2>${repo}${form}</section>`;
}

function renderVersion(req: Request, res: Response, p: VersionPage, errors: FieldErrors = {}, status = 200): void {
  const { view, install } = p;
  const config = req.ctx.config;
  const files = html`<section><h2>Files</h2><ul class="list">${p.files.map((f) => html`<li><a href="${webUrl(config, `${pkgPath(req, res, view)}/files/${f.file.id}`)}" download>${f.file.name}</a><p class="meta">${f.blob.size} bytes · sha256 <code>${f.blob.hash_sha256.slice(0, 16)}</code></p></li>`)}</ul></section>`;
  const versions = html`<section><h2>Versions <span class="count">${p.total}</span></h2><ul class="plain">${p.versions.map((v) => html`<li>${v.version.id === view.version.id ? html`<strong>${v.version.version}</strong>` : html`<a href="${webUrl(config, pkgPath(req, res, v))}">${v.version.version}</a>`} <span class="meta">${when(v.version.created_unix)}</span></li>`)}</ul></section>`;
  const installBox = install ? html`<section><h2>Installation</h2>${install.setup ? html`<pre><code>${install.setup}</code></pre>` : ''}<div class="clone-row"><label for="install">Install</label><input id="install" type="text" readonly value="${install.command}"><button type="button" class="copy" data-copy-from="install" aria-label="Copy the install command" hidden>Copy</button></div></section>` : '';
  const del = ownerOf(res).writer ? html`<p><a class="button danger" href="${webUrl(config, `${pkgPath(req, res, view)}/delete`)}">Delete this version</a></p>` : '';
  sendPage(req, res, {
    title: `${view.pkg.name} ${view.version.version} · Packages`, status,
    body: html`${head(req, res)}<h2>${view.pkg.name} <span class="badge">${view.pkg.type}</span> ${view.version.version}</h2>
<p class="meta">Published ${when(view.version.created_unix)}${view.creator ? html` by ${view.creator.name}` : ''} · ${view.version.download_count} downloads</p>
<div class="with-side"><div>${installBox}${files}${del}</div><div class="side-col">${linkBox(req, res, p, errors)}${versions}</div></div>`,
  });
}

/** GET /{owner}/-/packages/{type}/{name} (its newest version) and .../{version} */
export async function packageVersion(req: Request, res: Response): Promise<void> {
  const version = req.params.version === undefined ? undefined : param(req, 'version');
  renderVersion(req, res, await versionPage(req.ctx.h, ownerOf(res).owner, req.ctx.doer, param(req, 'type'), param(req, 'name'), version));
}

/** GET .../{version}/files/{id}: the file's bytes, counted as a download when it is the version's lead file. */
export async function packageFile(req: Request, res: Response): Promise<void> {
  const p = await versionPage(req.ctx.h, ownerOf(res).owner, req.ctx.doer, param(req, 'type'), param(req, 'name'), param(req, 'version'));
  const found = p.files.find((f) => String(f.file.id) === param(req, 'id'));
  if (!found) throw new NotFoundError();
  if (found.file.is_lead && req.method === 'GET') await incrementDownloadCount(req.ctx.db, p.view.version);
  await sendPackageBlob(req, res, { blob: found.blob, filename: found.file.name, lastModified: found.file.created_unix });
}

const writerOnly = (res: Response) => {
  if (!ownerOf(res).writer) throw new ForbiddenError('Only writers of these packages change them.');
};
const versionOf = (req: Request, res: Response) => getVersion(req.ctx.db, ownerOf(res).owner, param(req, 'type'), param(req, 'name'), param(req, 'version'));

/** GET .../{version}/delete */
export async function deleteConfirm(req: Request, res: Response): Promise<void> {
  writerOnly(res);
  const { pkg, version } = await versionOf(req, res);
  confirmPage(req, res, {
    title: 'Delete package version', message: html`Version <strong>${version.version}</strong> of <strong>${pkg.name}</strong> and its files are deleted.`,
    action: webUrl(req.ctx.config, `${base(req, res)}/${encodeURIComponent(pkg.type)}/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version.version)}/delete`),
    button: 'Delete version', cancel: webUrl(req.ctx.config, `${base(req, res)}/${encodeURIComponent(pkg.type)}/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version.version)}`),
  });
}

/** POST .../{version}/delete */
export async function deletePost(req: Request, res: Response): Promise<void> {
  writerOnly(res);
  const { version } = await versionOf(req, res);
  await deleteVersion(req.ctx.h, req.ctx.doer!, version);
  redirectAfterPost(req, res, base(req, res));
}

/** POST /{owner}/-/packages/{type}/{name}/-/link and .../-/unlink */
export async function linkPost(req: Request, res: Response): Promise<void> {
  writerOnly(res);
  const { owner } = ownerOf(res);
  const [type, name] = [param(req, 'type'), param(req, 'name')];
  const errors = await formAction(() => linkPackage(req.ctx.db, req.ctx.doer!, owner, type, name, text(req, 'repo_name').trim()).catch((err: unknown) => {
    // A repository name that is not the owner's is the form's mistake (the package itself was found).
    throw err instanceof NotFoundError && err.message.startsWith('repository') ? new InvalidError('This owner has no repository of that name.', 'repo_name') : err;
  }));
  if (errors) return renderVersion(req, res, await versionPage(req.ctx.h, owner, req.ctx.doer, type, name), errors, 422);
  redirectAfterPost(req, res, `${base(req, res)}/${encodeURIComponent(type)}/${encodeURIComponent(name)}`, 'link');
}

export async function unlinkPost(req: Request, res: Response): Promise<void> {
  writerOnly(res);
  const [type, name] = [param(req, 'type'), param(req, 'name')];
  await unlinkPackage(req.ctx.db, req.ctx.doer!, ownerOf(res).owner, type, name);
  redirectAfterPost(req, res, `${base(req, res)}/${encodeURIComponent(type)}/${encodeURIComponent(name)}`, 'link');
}
