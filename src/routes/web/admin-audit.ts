import type { Request, Response } from 'express';
import type { AuditLog } from '../../db/schema';
import { html, type SafeHtml } from '../../lib/html';
import type { AuditFilter } from '../../models/audit-log';
import { AUDIT_OPERATIONS } from '../../services/audit/operations';
import { listAuditLogs } from '../../services/audit/search';
import { assertSiteAdmin } from '../../services/user/admin-users';
import { formAction, formAlert, type FieldErrors } from './forms';
import { adminPage, pageWindow, selectField } from './admin-layout';
import { pager, webUrl, when } from './layout';

// /-/admin/audit-logs: the audit log, newest first, with the API's filters (operator, operation
// type, time range) and the target's name, and a link to the same rows as CSV.

const PER_PAGE = 50;
type Query = Record<string, string>;

const queryOf = (req: Request): Query => Object.fromEntries(['q', 'operation_type', 'target', 'since', 'until']
  .map((k) => [k, typeof req.query[k] === 'string' ? (req.query[k] as string).trim().slice(0, 200) : '']));

/** A YYYY-MM-DD day as unix seconds (its start, or its end for `until`); NaN when not a date. */
function dayUnix(day: string, end: boolean): number | undefined {
  if (!day) return undefined;
  const t = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(t)) return Number.NaN;
  return Math.floor(t / 1000) + (end ? 86399 : 0);
}

function filterOf(q: Query): { filter: AuditFilter; errors: FieldErrors | null } {
  const startUnix = dayUnix(q.since!, false);
  const endUnix = dayUnix(q.until!, true);
  if (Number.isNaN(startUnix)) return { filter: {}, errors: { since: 'Enter a date as YYYY-MM-DD.' } };
  if (Number.isNaN(endUnix)) return { filter: {}, errors: { until: 'Enter a date as YYYY-MM-DD.' } };
  return { filter: { q: q.q || undefined, operationType: q.operation_type || undefined, target: q.target || undefined, startUnix, endUnix }, errors: null };
}

const OPERATIONS = [{ value: '', label: 'Any' }, ...AUDIT_OPERATIONS.map((o) => ({ value: o, label: o }))];
const operationSelects = new Map<string, SafeHtml>();

/**
 * The operation select (60 options): the same markup for each chosen operation, made once per
 * process and kept (one per operation at most); an unknown value or an error is made each time.
 */
function operationSelect(chosen: string, errors: FieldErrors): SafeHtml {
  if (errors.operation_type || !OPERATIONS.some((o) => o.value === chosen)) return selectField('operation_type', 'Operation', OPERATIONS, chosen, errors);
  let select = operationSelects.get(chosen);
  if (!select) operationSelects.set(chosen, (select = selectField('operation_type', 'Operation', OPERATIONS, chosen)));
  return select;
}

function filterForm(req: Request, q: Query, errors: FieldErrors): SafeHtml {
  const input = (name: string, label: string, type = 'text') => {
    const error = errors[name];
    return html`<div class="field${error ? ' invalid' : ''}"><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${q[name] ?? ''}"${error ? html` aria-invalid="true" aria-describedby="f-${name}-error"` : ''}>${error ? html`<p class="error" id="f-${name}-error">${error}</p>` : ''}</div>`;
  };
  return html`<form class="stack" method="get" action="${webUrl(req.ctx.config, '-/admin/audit-logs')}" aria-label="Filter the audit log">${formAlert(errors[''])}
${input('q', 'Operator (part of the name)')}${operationSelect(q.operation_type ?? '', errors)}${input('target', 'Target (part of the name)')}
${input('since', 'From (day)', 'date')}${input('until', 'To (day)', 'date')}<button type="submit">Filter</button></form>`;
}

const row = (r: AuditLog): SafeHtml => html`<tr><td>${when(r.created_unix)}</td><td><code>${r.operation_type}</code></td><td>${r.operator_name}</td>
<td>${r.target_type}${r.target_name ? html`: ${r.target_name}` : ''}</td><td>${r.repo_name || r.owner_name}</td><td>${r.ip_address}</td><td>${r.message}</td></tr>`;

/** CSV of the same rows: the web's export route takes the API's filter names. */
function csvLink(req: Request, f: AuditFilter): string {
  const p = new URLSearchParams();
  if (f.q) p.set('q', f.q);
  if (f.operationType) p.set('operation_type', f.operationType);
  if (f.startUnix !== undefined) p.set('start_unix', String(f.startUnix));
  if (f.endUnix !== undefined) p.set('end_unix', String(f.endUnix));
  const qs = p.toString();
  return webUrl(req.ctx.config, `-/admin/audit-logs/export${qs ? `?${qs}` : ''}`);
}

/** GET /-/admin/audit-logs */
export async function auditPage(req: Request, res: Response): Promise<void> {
  assertSiteAdmin(req.ctx.doer);
  const q = queryOf(req);
  const w = pageWindow(req, PER_PAGE);
  const parsed = filterOf(q);
  let result: Awaited<ReturnType<typeof listAuditLogs>> = { rows: [], total: 0 };
  const errors = parsed.errors ?? await formAction(async () => { result = await listAuditLogs(req.ctx.db, parsed.filter, w); });
  const kept = Object.fromEntries(Object.entries(q).filter(([, v]) => v));
  adminPage(req, res, {
    tab: 'audit', title: `Audit log (${result.total})`, status: errors ? 422 : 200,
    body: html`${filterForm(req, q, errors ?? {})}
<p><a href="${csvLink(req, parsed.filter)}" download>Export as CSV</a>${parsed.filter.target ? html` <span class="meta">(without the target filter)</span>` : ''}</p>
<div class="scroll"><table class="list-table"><tr><th>Time</th><th>Operation</th><th>Operator</th><th>Target</th><th>Owner or repository</th><th>Address</th><th>Message</th></tr>${result.rows.map(row)}</table></div>
${pager(webUrl(req.ctx.config, '-/admin/audit-logs'), w.page, w.offset + result.rows.length < result.total, kept)}`,
  });
}

/** GET /-/admin/audit-logs/export: the API's CSV export, loaded with its first use. */
export async function auditExport(req: Request, res: Response): Promise<void> {
  assertSiteAdmin(req.ctx.doer);
  const { exportCsv } = await import('../api/v1/audit-logs');
  await exportCsv(req, res);
}
