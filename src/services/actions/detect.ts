import type { Repository, User } from '../../db/schema';
import { backgroundError } from '../../lib/background-log';
import { workflowDisabled } from '../../models/actions-engine';
import { commitTitle } from './enabled';
import { insertPlannedRun } from './run-create';
import { runCreated } from './runs';
import { listWorkflowFiles, readWorkflowFile, type WorkflowFile } from './workflow-files';
import { matchingEvent, type Trigger } from './workflow/match';
import { readEvents } from './workflow/parse';
import type { Hearth } from '../../hearth';

// From one event to runs (Gitea's DetectWorkflows + handleWorkflows): every enabled workflow
// file at the event's commit whose `on:` matches gets a run. A file whose `on:` cannot be read
// is skipped, as Gitea does, except when a push changed that very file: then the push gets a
// failed run saying why, so a broken workflow does not go unnoticed.

export type Detection = {
  repo: Repository; owner: User; doer: User; dir: string;
  /** The commit whose workflow files are read and run. */
  sha: string; ref: string;
  trigger: Trigger;
  payload: Record<string, unknown>;
  isForkPull?: boolean;
  /** push: the files changed, to report broken workflow files it touched. */
  touched?: string[];
};

async function startRun(h: Hearth, d: Detection, file: WorkflowFile, content: string, title: string): Promise<void> {
  const run = await insertPlannedRun(h, {
    repo: d.repo, owner: d.owner, doer: d.doer, workflowId: file.id, content, ref: d.ref, sha: d.sha,
    event: d.trigger.event, payload: d.payload, title, isForkPull: d.isForkPull,
  });
  await runCreated(h, run.id);
}

/** Creates the runs of the workflows matching `d`; returns how many. */
export async function detectRuns(h: Hearth, d: Detection): Promise<number> {
  const files = await listWorkflowFiles(d.dir, d.sha);
  if (!files.length) return 0;
  const title = await commitTitle(d.dir, d.sha);
  let started = 0;
  for (const file of files) {
    try {
      if (await workflowDisabled(h.db, d.repo.id, file.id)) continue;
      const content = await readWorkflowFile(d.dir, file);
      let events;
      try {
        events = readEvents(content);
      } catch {
        // Unreadable `on:` (or YAML): reported once, by the push that changed the file.
        if (d.trigger.event === 'push' && d.touched?.includes(file.path)) {
          await startRun(h, d, file, content, title);
          started++;
        }
        continue;
      }
      if (!(await matchingEvent(events, d.trigger))) continue;
      await startRun(h, d, file, content, title);
      started++;
    } catch (err) {
      backgroundError({ err, repo: d.repo.id, workflow: file.id }, 'actions: workflow detection failed');
    }
  }
  return started;
}
