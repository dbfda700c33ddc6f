import type { PushMirror } from '../db/schema';
import { goDuration } from '../lib/go-duration';
import { isoTime } from '../lib/time';

export type ApiPushMirror = {
  repo_name: string;
  remote_name: string;
  remote_address: string;
  created: string;
  last_update: string | null;
  last_error: string;
  interval: string;
  sync_on_commit: boolean;
};

/**
 * Gitea's ToPushMirror. The address never holds credentials (they are kept apart, sealed);
 * last_update is null until the first push (Gitea's AsTimePtr of a zero time).
 */
export function toApiPushMirror(m: PushMirror, repoName: string): ApiPushMirror {
  return {
    repo_name: repoName,
    remote_name: m.remote_name,
    remote_address: m.remote_address,
    created: isoTime(m.created_unix),
    last_update: m.last_update_unix ? isoTime(m.last_update_unix) : null,
    last_error: m.last_error,
    interval: goDuration(m.interval_seconds),
    sync_on_commit: m.sync_on_commit === 1,
  };
}
