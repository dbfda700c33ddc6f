import { resolveCommit } from '../../git/log';
import { backgroundError } from '../../lib/background-log';
import { nowUnix } from '../../lib/time';
import { workflowDisabled } from '../../models/actions-engine';
import { advanceSpec, dueSpecs, getSchedule, replaceSchedules } from '../../models/actions-engine-schedules';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { payloadContext } from '../webhook/payloads';
import type { Base } from './trigger-events';
import { actionsEnabled, commitTitle } from './enabled';
import { insertPlannedRun } from './run-create';
import { actionsUser } from './run-notify';
import { runCreated } from './runs';
import { listWorkflowFiles, readWorkflowFile } from './workflow-files';
import { readEvents } from './workflow/parse';
import { nextCron, parseCron } from './workflow/cron';
import type { Hearth } from '../../hearth';

// `on.schedule` (Gitea's action_schedule): the scheduled workflows of the default branch are
// recorded whenever it moves, each with its cron specs and their next time; the
// start_schedule_tasks cron task starts the due ones and computes their next time.

/** Re-reads the scheduled workflows of the default branch (after it moved). */
export async function refreshSchedules(h: Hearth, b: Base): Promise<void> {
  const ref = `refs/heads/${b.repo.default_branch}`;
  const files = await listWorkflowFiles(b.dir, ref);
  const commit = files.length ? (await resolveCommit(b.dir, ref)) ?? '' : '';
  const now = nowUnix();
  const c = await payloadContext(h, b.repo, b.doer);
  const rows = [];
  for (const f of files) {
    const content = await readWorkflowFile(b.dir, f);
    let crons: string[];
    try {
      crons = readEvents(content).flatMap((e) => (e.name === 'schedule' ? e.schedules : []));
    } catch {
      continue;
    }
    const specs = crons.flatMap((spec) => {
      try {
        return [{ spec, next: nextCron(parseCron(spec), now) }];
      } catch {
        return [];
      }
    });
    if (!specs.length) continue;
    rows.push({
      schedule: {
        repo_id: b.repo.id, owner_id: b.repo.owner_id, workflow_id: f.id, title: await commitTitle(b.dir, commit),
        trigger_user_id: b.doer.id, ref, commit_sha: commit, event: 'schedule',
        event_payload: JSON.stringify({ schedule: crons[0], repository: c?.repository ?? null, sender: c?.sender ?? null }),
        content, created_unix: now,
      },
      specs,
    });
  }
  await replaceSchedules(h.db, b.repo.id, rows);
}

async function startOne(h: Hearth, scheduleId: number): Promise<boolean> {
  const s = await getSchedule(h.db, scheduleId);
  const repo = s ? await getRepoById(h.db, s.repo_id) : undefined;
  const owner = repo ? await getUserById(h.db, repo.owner_id) : undefined;
  if (!s || !repo || !owner || !actionsEnabled(h.config, repo)) return false;
  if (await workflowDisabled(h.db, repo.id, s.workflow_id)) return false;
  const doer = (s.trigger_user_id > 0 ? await getUserById(h.db, s.trigger_user_id) : undefined) ?? actionsUser();
  const run = await insertPlannedRun(h, {
    repo, owner, doer, workflowId: s.workflow_id, content: s.content, ref: s.ref, sha: s.commit_sha, event: 'schedule',
    payload: JSON.parse(s.event_payload) as Record<string, unknown>, title: s.title, scheduleId: s.id,
  });
  await runCreated(h, run.id);
  return true;
}

/** The start_schedule_tasks cron task: starts every due schedule once, then moves it on. */
export async function startScheduleTasks(h: Hearth): Promise<string> {
  const now = nowUnix();
  let started = 0;
  for (const spec of await dueSpecs(h.db, now, 1000)) {
    let next = 0;
    try {
      next = nextCron(parseCron(spec.spec), now);
    } catch { /* a spec that no longer parses stops */ }
    await advanceSpec(h.db, spec.id, now, next);
    try {
      if (await startOne(h, spec.schedule_id)) started++;
    } catch (err) {
      backgroundError({ err, schedule: spec.schedule_id }, 'actions: scheduled run failed');
    }
  }
  return `${started} scheduled run(s) started`;
}
