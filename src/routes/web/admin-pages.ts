import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { html, type SafeHtml } from '../../lib/html';
import { encodePath } from '../../lib/html';
import { runCronTask } from '../../services/cron/cron-admin';
import type { NodeView } from '../../services/cluster/node';
import type { CronRow } from '../../services/cron/types';
import { listAllOrgs } from '../../services/org/orgs';
import { assertSiteAdmin } from '../../services/user/admin-users';
import { adminDashboard, configSummary } from '../../services/web/admin-dashboard';
import { doerOf } from '../context';
import { csrfInput, redirectAfterPost } from './forms';
import { adminPage, pageWindow } from './admin-layout';
import { webhookPages } from './webhook-forms';
import { pager, webUrl, when } from './layout';

// The site administration's dashboard (version, uptime, Gitea's counts, the cron tasks with
// "run now", the nodes on PostgreSQL), the organizations list and the configuration summary.

const ORGS_PER_PAGE = 50;

function duration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return [d ? `${d} days` : '', h ? `${h} hours` : '', `${m} minutes`].filter(Boolean).join(', ');
}

const COUNTED: [string, string][] = [
  ['users', 'Users'], ['organizations', 'Organizations'], ['repositories', 'Repositories'], ['mirrors', 'Mirrors'],
  ['issues_open', 'Open issues'], ['issues_closed', 'Closed issues'], ['pulls', 'Pull requests'], ['comments', 'Comments'],
  ['labels', 'Labels'], ['milestones', 'Milestones'], ['releases', 'Releases'], ['teams', 'Teams'], ['stars', 'Stars'],
  ['webhooks', 'Webhooks'], ['publickeys', 'Public keys'], ['attachments', 'Attachments'], ['oauths', 'OAuth2 applications'],
  ['jobs_pending', 'Queued jobs'], ['jobs_failed', 'Failed jobs'],
];

function cronRow(req: Request, res: Response, t: CronRow): SafeHtml {
  const last = t.last ? html`${t.last.status}${t.last.message ? html`: ${t.last.message}` : ''}` : html`<span class="meta">never</span>`;
  const run = html`<form class="inline" method="post" action="${webUrl(req.ctx.config, `-/admin/cron/${encodePath(t.name)}`)}">${csrfInput(req, res)}<button type="submit" aria-label="Run now ${t.name}">Run now</button></form>`;
  return html`<tr id="cron-${t.name}"><td><code>${t.name}</code></td><td>${t.schedule}</td><td>${t.next ? when(t.next) : '-'}</td>
<td>${t.prev ? when(t.prev) : '-'}</td><td>${String(t.execTimes)}</td><td>${t.running ? 'running' : last}</td><td>${run}</td></tr>`;
}

function nodeRow(n: NodeView): SafeHtml {
  const state = [n.alive ? 'live' : 'silent', n.leader ? 'cron leader' : '', n.self ? 'answered this page' : ''].filter(Boolean).join(', ');
  return html`<tr id="node-${n.id}"><td><code>${n.id.slice(0, 8)}</code></td><td>${n.host}</td><td>${String(n.pid)}</td><td>${when(new Date(n.startedMs))}</td>
<td>${String(n.heartbeatAgeSeconds)} s ago</td><td>${state}</td></tr>`;
}

/** The nodes sharing the database (PostgreSQL): a silent one is adopted once past node_timeout. */
function nodesTable(nodes: NodeView[]): SafeHtml {
  return html`<h2 id="nodes">Nodes</h2><div class="scroll"><table class="list-table nodes"><tr><th>Node</th><th>Host</th><th>Process</th><th>Started</th><th>Last heartbeat</th><th>State</th></tr>${nodes.map(nodeRow)}</table></div>`;
}

/** GET /-/admin */
export async function dashboardPage(req: Request, res: Response): Promise<void> {
  const d = await adminDashboard(req.ctx.h, req.ctx.doer);
  const counts = COUNTED.map(([k, label]) => html`<tr><th scope="row">${label}</th><td>${String(d.stats[k as keyof typeof d.stats])}</td></tr>`);
  const tasks = d.cron.length
    ? html`<div class="scroll"><table class="cron"><tr><th>Task</th><th>Schedule</th><th>Next run</th><th>Last run</th><th>Runs</th><th>Last result</th><th>Action</th></tr>${d.cron.map((t) => cronRow(req, res, t))}</table></div>`
    : html`<p class="meta">No scheduled tasks.</p>`;
  adminPage(req, res, {
    tab: 'dashboard', title: 'Site administration',
    body: html`<p>Version <code>${d.version}</code> · up ${duration(d.uptimeSeconds)}</p>
<h2>Statistics</h2><table class="stats">${counts}</table>
<h2 id="cron">Scheduled tasks</h2>${tasks}${d.nodes ? nodesTable(d.nodes) : ''}`,
  });
}

/** POST /-/admin/cron/{task}: starts the task now (in the background), 303 back to the table. */
export async function cronRunPost(req: Request, res: Response): Promise<void> {
  assertSiteAdmin(req.ctx.doer);
  await runCronTask(req.ctx.db, String(req.params.task), doerOf(req).name);
  redirectAfterPost(req, res, '/-/admin?done=cron-started', 'cron');
}

/** GET /-/admin/orgs: every organization, whatever its visibility. */
export async function orgsPage(req: Request, res: Response): Promise<void> {
  assertSiteAdmin(req.ctx.doer);
  const w = pageWindow(req, ORGS_PER_PAGE);
  const { orgs, total } = await listAllOrgs(req.ctx.db, w);
  const { config } = req.ctx;
  const row = (o: User) => html`<tr><td><a href="${webUrl(config, encodePath(o.name))}">${o.name}</a></td><td>${o.full_name}</td><td>${['public', 'limited', 'private'][o.visibility] ?? ''}</td><td>${when(o.created_unix)}</td></tr>`;
  adminPage(req, res, {
    tab: 'orgs', title: `Organizations (${total})`,
    body: html`<div class="scroll"><table class="list-table"><tr><th>Name</th><th>Full name</th><th>Visibility</th><th>Created</th></tr>${orgs.map(row)}</table></div>
${pager(webUrl(config, '-/admin/orgs'), w.page, w.offset + orgs.length < total)}`,
  });
}

/** GET /-/admin/config: the configuration as read, secrets masked. */
export function configPage(req: Request, res: Response): void {
  const rows = configSummary(req.ctx.config, req.ctx.doer);
  adminPage(req, res, {
    tab: 'config', title: 'Configuration',
    body: html`<div class="scroll"><table class="config"><tr><th>Key</th><th>Value</th></tr>${rows.map((r) => html`<tr><td><code>${r.key}</code></td><td>${r.value}</td></tr>`)}</table></div>`,
  });
}

/** The site's system and default webhooks (webhook-forms.ts), framed by the administration. */
export const siteHooks = webhookPages(async (req) => {
  assertSiteAdmin(req.ctx.doer);
  return {
    scope: { site: true }, base: '/-/admin/hooks', site: true,
    frame: (rq, rs, title, body, status) => adminPage(rq, rs, { tab: 'hooks', title, body, status }),
  };
});
