import type { Request } from 'express';
import type { ActionTaskLog } from '../../db/schema';
import type { ArtifactMeta } from '../../models/actions-run-query';
import { actionsStatus, branchOf, type JobView, type RunView } from '../../convert/actions-run';
import { encodePath, escapeHtml, html, raw, type SafeHtml } from '../../lib/html';
import type { LogSection } from '../../services/web/actions-pages';
import { repoOf } from './guards';
import { repoLink, when } from './layout';

// The markup of the Actions pages: status words, a run's row, a job's row, and the job log,
// which may hold tens of thousands of lines: each line is escaped once and becomes one <li> of
// an ordered list, joined into one string (no template call per line).

const WORDS: Record<string, string> = {
  success: 'Success', failure: 'Failure', cancelled: 'Cancelled', skipped: 'Skipped',
  waiting: 'Queued', blocked: 'Waiting', running: 'Running', unknown: 'Unknown',
};

/** A status as a word with its class (`st-success`...), which the stylesheet colours. */
export const statusBadge = (status: string): SafeHtml =>
  html`<span class="badge st-${status}">${WORDS[status] ?? status}</span>`;

export const runPath = (req: Request, v: RunView, rest = '') =>
  repoLink(req.ctx.config, repoOf(req), `actions/runs/${v.run.run_index}${rest ? `/${rest}` : ''}`);

export function runRow(req: Request, v: RunView): SafeHtml {
  const { run } = v;
  const branch = branchOf(run.ref) || run.ref.replace(/^refs\/tags\//, '');
  return html`<li>${statusBadge(run.status)} <a href="${runPath(req, v)}">${run.title || run.workflow_id}</a>
<p class="meta">${run.workflow_id} #${run.run_index}: ${run.trigger_event || run.event}${branch ? html` on <code>${branch}</code>` : ''} by ${v.trigger?.name ?? 'a schedule'}, ${when(run.created_unix)}</p></li>`;
}

export function jobRow(req: Request, run: RunView, j: JobView, current = -1): SafeHtml {
  const label = html`${statusBadge(j.job.status)} ${j.job.name}`;
  return html`<li>${j.index === current ? html`<strong aria-current="page">${label}</strong>` : html`<a href="${runPath(req, run, `jobs/${j.index}`)}">${label}</a>`}</li>`;
}

/**
 * A run's artifacts, each a download link; with `csrf` (a writer's page), each also a delete
 * form (POST .../artifacts/{name}/delete).
 */
export function artifactList(req: Request, run: RunView, artifacts: ArtifactMeta[], csrf?: SafeHtml): SafeHtml {
  if (!artifacts.length) return html``;
  const remove = (name: string) => (csrf
    ? html`<form class="inline" method="post" action="${runPath(req, run, `artifacts/${encodePath(name)}/delete`)}">${csrf}<button type="submit" class="danger" aria-label="Delete artifact ${name}">Delete</button></form>`
    : '');
  return html`<section id="artifacts" aria-labelledby="artifacts-h"><h2 id="artifacts-h">Artifacts</h2><ul class="list">${artifacts.map((a) => html`<li>${a.status === 'expired'
    ? html`${a.artifact_name} <span class="meta">(expired)</span>`
    : html`<a href="${runPath(req, run, `artifacts/${encodePath(a.artifact_name)}`)}" download>${a.artifact_name}</a><p class="meta">${a.file_size} bytes</p>`}${remove(a.artifact_name)}</li>`)}</ul></section>`;
}

/** One list of log lines, numbered from the first line's place in the whole log. */
export function logLines(lines: ActionTaskLog[], live = ''): SafeHtml {
  let out = '';
  for (const l of lines) out += `<li>${escapeHtml(l.content)}</li>`;
  const start = lines.length ? lines[0]!.idx + 1 : 1;
  return raw(`<ol class="log" start="${start}"${live ? ` data-live="${escapeHtml(live)}"` : ''}>${out}</ol>`);
}

/** The job's steps, each a <details> with its status and its lines; the live list gets the script's updates. */
export function logSections(sections: LogSection[], live: string): SafeHtml {
  const last = sections.length - 1;
  return html`${sections.map((s, i) => {
    const name = s.step ? s.step.name || `Step ${s.step.idx + 1}` : 'Set up job';
    const status = s.step ? s.step.status : 'success';
    const region = html`<div class="code-region" role="region" aria-label="Log of ${name}" tabindex="0">${logLines(s.lines, i === last ? live : '')}</div>`;
    return html`<details class="step" open><summary>${statusBadge(status)} ${name}</summary>${region}</details>`;
  })}${sections.length ? '' : html`<div class="code-region" role="region" aria-label="Log" tabindex="0">${logLines([], live)}</div>`}`;
}

/** The word the API uses for a status (the filter's values). */
export const apiStatus = (s: string) => { const a = actionsStatus(s); return a.conclusion || a.status; };
