import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import type { StopwatchView } from '../services/issue/stopwatches';
import { secToHours } from '../lib/duration';
import type { TimeView } from '../services/issue/time-tracker';
import { toApiIssue } from './issue';

/** Gitea's ToTrackedTime: the issue is included when loaded. */
export function toApiTrackedTime(config: Config, v: TimeView, viewer: User | null) {
  return {
    id: v.time.id,
    created: isoTime(v.time.created_unix),
    time: v.time.time,
    user_id: v.time.user_id,
    user_name: v.user?.name ?? '',
    issue_id: v.time.issue_id,
    issue: v.issue ? toApiIssue(config, v.issue, viewer) : null,
  };
}

/** Gitea's ToStopWatches: seconds run so far and their human form. */
export function toApiStopwatch(v: StopwatchView, now: number) {
  const seconds = Math.max(0, now - v.sw.created_unix);
  return {
    created: isoTime(v.sw.created_unix),
    seconds,
    duration: secToHours(seconds),
    issue_index: v.issue.index,
    issue_title: v.issue.title,
    repo_owner_name: v.repo.owner.name,
    repo_name: v.repo.repo.name,
  };
}
