import type { DB } from '../../db/connect';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import * as q from '../../models/actions-run-query';
import { removeArtifactFile } from './artifact-files';
import { removeRunChunks } from './artifacts-v3-chunks';
import { getJob, getRun } from './api-runs';
import type { Hearth } from '../../hearth';

// Deleting a run and reading a job's log through the REST API.

const DONE = new Set(['success', 'failure', 'cancelled', 'skipped']);

/** Gitea's DeleteActionRun: only a finished run; its jobs, tasks, logs and artifacts go with it. */
export async function deleteRun(h: Hearth, repoId: number, runId: number): Promise<void> {
  const { run } = await getRun(h.db, repoId, runId);
  if (!DONE.has(run.status)) throw new BadRequestError('this workflow run is not done');
  const files = await q.artifactsOfRun(h.db, run.id);
  await q.deleteRunRow(h.db, run.id);
  for (const a of files) await removeArtifactFile(h.blobs, a.storage_path);
  await removeRunChunks(h.blobs, run.id);
}

/** Gitea's log line: the time with 7 fractional digits, a space, the content. */
function logLine(timeMs: number, content: string): string {
  const iso = new Date(timeMs).toISOString(); // 2024-01-02T03:04:05.123Z
  return `${iso.slice(0, 23)}0000Z ${content}\n`;
}

export type JobLog = { filename: string; text: string };

/** The plain text log of a job's latest task (404 before it started or once cleaned up). */
export async function jobLog(db: DB, repoId: number, jobId: number): Promise<JobLog> {
  const v = await getJob(db, repoId, jobId);
  if (!v.task) throw new NotFoundError('job not started');
  if (v.task.log_expired) throw new NotFoundError('logs have been cleaned up');
  const rows = await q.logRows(db, v.task.id);
  const dot = v.run.workflow_id.indexOf('.');
  const workflow = dot > 0 ? v.run.workflow_id.slice(0, dot) : v.run.workflow_id;
  return { filename: `${workflow}-${v.job.name}-${v.task.id}.log`, text: rows.map((r) => logLine(r.time_ms, r.content)).join('') };
}
