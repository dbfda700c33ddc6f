import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { papaparse } from '../../../lib/lazy-require';
import { AUDIT_CSV_COLUMNS, toApiAuditLog, toAuditCsvRow } from '../../../convert/audit-log';
import type { AuditFilter } from '../../../models/audit-log';
import { auditLogChunks, listAuditLogs } from '../../../services/audit/search';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { readQuery } from '../../query';
import { FILTER } from './audit-log-query';
import { attachment } from '../../stream';

function filterOf(req: Request): AuditFilter {
  return {
    q: readQuery(req, FILTER.q)?.trim() || undefined,
    operatorId: readQuery(req, FILTER.operatorId),
    operationType: readQuery(req, FILTER.operationType) || undefined,
    startUnix: readQuery(req, FILTER.startUnix),
    endUnix: readQuery(req, FILTER.endUnix),
  };
}

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { rows, total } = await listAuditLogs(req.ctx.db, filterOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(rows.map(toApiAuditLog));
}

/**
 * The whole matching log as CSV, streamed: papaparse formats one chunk of rows at a time, and
 * the next chunk is only read once the client has taken the previous one (Readable.from pulls
 * on demand), so memory stays flat whatever the size of the log. papaparse, not csv-stringify:
 * 3 against 19 us of CPU a row here, a million rows in 3 s rather than 19 s.
 */
export async function exportCsv(req: Request, res: Response): Promise<void> {
  const chunks = auditLogChunks(req.ctx.db, filterOf(req));
  // The first chunk is read before the status is sent: a filter the database refuses (a NUL
  // byte on PostgreSQL) is then an error answer, not a stream cut short after its 200.
  const first = await chunks.next();
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', attachment('audit-logs.csv'));
  const csv = Readable.from((async function* () {
    let header = true;
    try {
      for (let next = first; !next.done; next = await chunks.next()) {
        const lines = next.value.map(toAuditCsvRow);
        if (header) lines.unshift([...AUDIT_CSV_COLUMNS]);
        yield `${papaparse().unparse(lines, { newline: '\n' })}\n`;
        header = false;
      }
    } finally {
      // A client gone mid-way stops the row reader too.
      await chunks.return(undefined);
    }
    // An empty log still has its header line.
    if (header) yield `${papaparse().unparse([[...AUDIT_CSV_COLUMNS]], { newline: '\n' })}\n`;
  })(), { objectMode: false });
  try {
    await pipeline(csv, res);
  } catch (err) {
    // The client went away: nothing to answer, and the row reader has stopped with the pipeline.
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw err;
  }
}
