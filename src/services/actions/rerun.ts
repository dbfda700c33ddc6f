import type { Hearth } from '../../hearth';
import type { ActionRunJob } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { getRun } from './api-runs';
import { rerunJobs } from './runs';

// Re-running a finished run (Gitea's web Rerun and RerunFailed): every job, the failed ones, or
// one job; a job re-runs with every job that needs it, directly or not, since their results
// came from the old one.

export type RerunWhat = { all: true } | { failed: true } | { jobId: number };

const parseNeeds = (job: ActionRunJob): string[] => {
  try {
    const v = JSON.parse(job.needs ?? '[]') as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/** The jobs of `roots` and every job needing one of them, transitively. */
export function withDependents(jobs: ActionRunJob[], roots: ActionRunJob[]): ActionRunJob[] {
  const ids = new Set(roots.map((j) => j.job_id));
  for (let grew = true; grew;) {
    grew = false;
    for (const j of jobs) {
      if (!ids.has(j.job_id) && parseNeeds(j).some((n) => ids.has(n))) { ids.add(j.job_id); grew = true; }
    }
  }
  return jobs.filter((j) => ids.has(j.job_id));
}

function chooser(what: RerunWhat): (jobs: ActionRunJob[]) => ActionRunJob[] {
  if ('all' in what) return (jobs) => jobs;
  if ('failed' in what) return (jobs) => withDependents(jobs, jobs.filter((j) => j.status === 'failure' || j.status === 'cancelled'));
  return (jobs) => {
    const job = jobs.find((j) => j.id === what.jobId);
    if (!job) throw new NotFoundError('job not found');
    return withDependents(jobs, [job]);
  };
}

/** The run must be the repository's (another repository's run is not found). */
export async function rerunRun(d: Hearth, repoId: number, runId: number, what: RerunWhat): Promise<void> {
  const { run } = await getRun(d.db, repoId, runId);
  await rerunJobs(d, run.id, chooser(what));
}
