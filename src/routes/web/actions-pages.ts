import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { html, type SafeHtml } from '../../lib/html';
import type { WorkflowView } from '../../services/actions/api-workflows';
import { runArtifactDownload } from '../../services/web/actions-artifacts';
import { jobLogFrom, jobPage, runPage, runsPage } from '../../services/web/actions-pages';
import { queryInt, queryString } from '../query';
import { attachment } from '../stream';
import { redirectDirect } from '../stored-send';
import { csrfInput } from './forms';
import { artifactList, jobRow, logSections, runPath, runRow, statusBadge } from './actions-html';
import { repoOf, unitsOf } from './guards';
import { indexParam } from './issue-view-pages';
import { pager, repoHeader, repoLink, sendPage, when } from './layout';

// The Actions pages (Gitea's /{owner}/{repo}/actions): the run list with its filters and the
// workflows beside it, a run with its jobs and artifacts, a job with its steps' logs. The
// writers' buttons post to actions-forms.ts. Without the script a running job's page is
// refreshed by hand; with it, the page polls the job's log endpoint (below) and appends lines.

const PAGE_SIZE = 20;
const STATUSES = ['queued', 'in_progress', 'waiting', 'success', 'failure', 'cancelled', 'skipped'];

const path = (req: Request, rest: string) => repoLink(req.ctx.config, repoOf(req), rest);
const writer = (res: Response) => res.locals.actionsMode === 'write';
const head = (req: Request, res: Response) => repoHeader(req.ctx.config, repoOf(req), unitsOf(res), 'actions');

function filtersForm(req: Request, workflows: WorkflowView[], f: Record<string, string>): SafeHtml {
  const option = (value: string, label: string, chosen: string) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="${path(req, 'actions')}" role="search" aria-label="Runs">
<div class="field"><label for="f-workflow">Workflow</label><select id="f-workflow" name="workflow">${option('', 'All workflows', f.workflow!)}${workflows.map((w) => option(w.id, w.name, f.workflow!))}</select></div>
<div class="field"><label for="f-status">Status</label><select id="f-status" name="status">${option('', 'Any status', f.status!)}${STATUSES.map((s) => option(s, s.replace('_', ' '), f.status!))}</select></div>
<div class="field"><label for="f-branch">Branch</label><input id="f-branch" name="branch" value="${f.branch}"></div>
<div class="field"><label for="f-actor">Actor</label><input id="f-actor" name="actor" value="${f.actor}"></div>
<div class="field"><button type="submit">Filter</button></div></form>`;
}

function workflowList(req: Request, res: Response, workflows: WorkflowView[], chosen: string): SafeHtml {
  const item = (w: WorkflowView) => html`<li><a href="${path(req, `actions?workflow=${encodeURIComponent(w.id)}`)}"${w.id === chosen ? html` aria-current="page"` : ''}>${w.name}</a>${w.disabled ? html` <span class="badge">Disabled</span>` : ''}
${writer(res) ? html`<div class="row-actions">${w.disabled ? '' : html`<a class="button" href="${path(req, `actions/run?workflow=${encodeURIComponent(w.id)}`)}" aria-label="Run ${w.name}">Run</a>`}
<form method="post" action="${path(req, `actions/${w.disabled ? 'enable' : 'disable'}?workflow=${encodeURIComponent(w.id)}`)}">${csrfInput(req, res)}<button type="submit" aria-label="${w.disabled ? 'Enable' : 'Disable'} ${w.name}">${w.disabled ? 'Enable' : 'Disable'}</button></form></div>` : ''}</li>`;
  return html`<nav class="side-col" aria-label="Workflows"><h2>Workflows</h2><ul class="plain">${workflows.map(item)}</ul></nav>`;
}

/** GET /{owner}/{repo}/actions */
export async function runsList(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const f = Object.fromEntries(['workflow', 'status', 'branch', 'actor'].map((k) => [k, queryString(req, k)?.trim() ?? '']));
  const status = STATUSES.includes(f.status!) ? f.status! : '';
  const n = Math.min(Math.max(queryInt(req, 'page') ?? 1, 1), 100_000);
  const window = { offset: (n - 1) * PAGE_SIZE, limit: PAGE_SIZE };
  const query = { workflow: f.workflow || undefined, status: status ? [status] : [], branch: f.branch || undefined, actor: f.actor || undefined };
  const { views, total, workflows } = await runsPage(req.ctx.h, access, query, window);
  const keep = Object.fromEntries(Object.entries({ ...f, status }).filter(([, v]) => v));
  sendPage(req, res, {
    title: `Actions · ${access.owner.name}/${access.repo.name}`,
    body: html`${head(req, res)}<div class="with-side"><div>${filtersForm(req, workflows, { ...f, status })}
<h2>${total} ${total === 1 ? 'run' : 'runs'}</h2>${views.length ? html`<ul class="list runs">${views.map((v) => runRow(req, v))}</ul>` : html`<p>No workflow run matches.</p>`}
${pager(path(req, 'actions'), n, n * PAGE_SIZE < total, keep)}</div>${workflowList(req, res, workflows, f.workflow!)}</div>`,
  });
}

function runButtons(req: Request, res: Response, p: Awaited<ReturnType<typeof runPage>>): SafeHtml {
  if (!writer(res)) return html``;
  const { run } = p.view;
  const button = (rest: string, label: string, kind = '') => html`<form method="post" action="${runPath(req, p.view, rest)}">${csrfInput(req, res)}<button type="submit"${kind ? html` class="${kind}"` : ''}>${label}</button></form>`;
  const done = ['success', 'failure', 'cancelled', 'skipped'].includes(run.status);
  const failed = p.jobs.some((j) => j.job.status === 'failure' || j.job.status === 'cancelled');
  return html`<div class="row-actions">${run.need_approval ? button('approve', 'Approve and run', 'primary') : ''}${done ? '' : button('cancel', 'Cancel run', 'danger')}
${done && !run.workflow_error ? html`${button('rerun', 'Re-run all jobs')}${failed ? button('rerun-failed', 'Re-run failed jobs') : ''}` : ''}</div>`;
}

function runHead(req: Request, res: Response, p: Awaited<ReturnType<typeof runPage>>): SafeHtml {
  const { run } = p.view;
  return html`<h2>${statusBadge(run.status)} ${run.title || run.workflow_id} <span class="meta">#${run.run_index}</span></h2>
<p class="meta">${run.workflow_id}: ${run.trigger_event || run.event} on <code>${run.ref.replace(/^refs\/(heads|tags)\//, '')}</code> at <code>${run.commit_sha.slice(0, 10)}</code> by ${p.view.trigger?.name ?? 'a schedule'}, ${when(run.created_unix)}</p>
${run.need_approval ? html`<p class="flash">This run waits for a writer's approval before it starts.</p>` : ''}${run.workflow_error ? html`<p class="flash error">${run.workflow_error}</p>` : ''}
${runButtons(req, res, p)}`;
}

/** GET /{owner}/{repo}/actions/runs/{run} */
export async function runView(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const p = await runPage(req.ctx.db, access, indexParam(req, 'run'));
  sendPage(req, res, {
    title: `${p.view.run.title || p.view.run.workflow_id} · Actions`,
    body: html`${head(req, res)}<p><a href="${path(req, 'actions')}">All runs</a></p>${runHead(req, res, p)}
<section><h2>Jobs</h2><ul class="list">${p.jobs.map((j) => jobRow(req, p.view, j))}</ul></section>${artifactList(req, p.view, p.artifacts, writer(res) ? csrfInput(req, res) : undefined)}`,
  });
}

const jobIndex = (req: Request) => (/^\d{1,6}$/.test(String(req.params.job)) ? Number(req.params.job) : -1);

/** GET /{owner}/{repo}/actions/runs/{run}/jobs/{job} */
export async function jobView(req: Request, res: Response): Promise<void> {
  const p = await jobPage(req.ctx.db, repoOf(req), indexParam(req, 'run'), jobIndex(req));
  const { job } = p;
  const running = !['success', 'failure', 'cancelled', 'skipped'].includes(job.job.status);
  const live = running ? runPath(req, p.view, `jobs/${job.index}/log?from=${p.lineCount}`) : '';
  const rerun = writer(res) && !running && !p.view.run.workflow_error && ['success', 'failure', 'cancelled', 'skipped'].includes(p.view.run.status)
    ? html`<form method="post" action="${runPath(req, p.view, `jobs/${job.index}/rerun`)}">${csrfInput(req, res)}<button type="submit">Re-run this job</button></form>` : '';
  sendPage(req, res, {
    title: `${job.job.name} · ${p.view.run.title || p.view.run.workflow_id}`,
    body: html`${head(req, res)}<p><a href="${runPath(req, p.view)}">Run #${p.view.run.run_index}: ${p.view.run.title}</a></p>
<div class="with-side"><div><h2>${statusBadge(job.job.status)} ${job.job.name}</h2>
${job.runnerName ? html`<p class="meta">On runner ${job.runnerName}</p>` : ''}${running ? html`<p class="meta" data-live-note>This job is still going: <a href="${runPath(req, p.view, `jobs/${job.index}`)}">refresh</a> to see more.</p>` : ''}${rerun}
${logSections(p.sections, live)}</div><nav class="side-col" aria-label="Jobs"><h2>Jobs</h2><ul class="plain">${p.jobs.map((j) => jobRow(req, p.view, j, job.index))}</ul></nav></div>`,
  });
}

/** GET .../jobs/{job}/log?from=N: the lines from N on and whether the job is done (the page script's poll). */
export async function jobLogJson(req: Request, res: Response): Promise<void> {
  const from = Math.max(0, queryInt(req, 'from') ?? 0);
  const { job, lines } = await jobLogFrom(req.ctx.db, repoOf(req), indexParam(req, 'run'), jobIndex(req), from);
  const done = ['success', 'failure', 'cancelled', 'skipped'].includes(job.job.status);
  res.setHeader('Cache-Control', 'no-store');
  res.json({ status: job.job.status, done, next: lines.length ? lines[lines.length - 1]!.idx + 1 : from, lines: lines.map((l) => l.content) });
}

/** GET .../runs/{run}/artifacts/{name}: the artifact's zip itself (Gitea's web answers the bytes, not a redirect, unless serve_direct). */
export async function artifactDownload(req: Request, res: Response): Promise<void> {
  const d = await runArtifactDownload(req.ctx.h, repoOf(req), indexParam(req, 'run'), String(req.params.name));
  // [storage] serve_direct: a v4 zip comes from the bucket (302, Gitea's DownloadArtifactV4ServeDirectOnly).
  if (d.key && await redirectDirect(req, res, req.ctx.config, req.ctx.h.blobs, d.key, { filename: d.filename, contentType: 'application/zip', status: 302 })) return;
  res.setHeader('Content-Type', 'application/zip');
  if (d.size !== undefined) res.setHeader('Content-Length', String(d.size));
  res.setHeader('Content-Disposition', attachment(d.filename));
  await pipeline(d.open(), res);
}
