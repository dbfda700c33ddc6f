// Where a migration stands, for the page that shows it (Gitea's migration task: its status and
// the message naming the step, or the error). Kept in memory by owner/name: a failed
// migration's repository is removed, so its error outlives the row for a while (an hour), then
// the entry goes; a restart forgets them all, as nothing is running any more.

export type MigrationState = 'running' | 'finished' | 'failed';

export type MigrationStatus = {
  owner: string; repo: string; service: string; state: MigrationState;
  /** Who started it: a failed migration's error is for them (and site admins) only. */
  doer_id: number;
  /** The step under way or last reached: cloning, wiki, lfs, topics, labels, milestones, issues, pull_requests, releases, mirror, done. */
  stage: string;
  /** What the import brought (labels, issues, ...), once it has. */
  counts: Record<string, number>;
  /** The failure as the API answered it (credentials removed). */
  error: string;
  started_unix: number; updated_unix: number;
};

const KEEP_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 1000;
const entries = new Map<string, { status: MigrationStatus; endedAt: number }>();

const keyOf = (owner: string, repo: string) => `${owner.toLowerCase()}/${repo.toLowerCase()}`;
const now = () => Math.floor(Date.now() / 1000);

function prune(): void {
  const t = Date.now();
  for (const [k, e] of entries) if (e.endedAt && t - e.endedAt > KEEP_MS) entries.delete(k);
  // Oldest first: Map keeps insertion order.
  for (const k of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(k);
  }
}

/** The handle a running migration reports through. */
export type ProgressReporter = { stage(stage: string): void; counts(c: Record<string, number>): void; finish(): void; fail(error: string): void };

export function startProgress(owner: string, repo: string, service: string, doerId: number): ProgressReporter {
  prune();
  const key = keyOf(owner, repo);
  const status: MigrationStatus = {
    owner, repo, service, doer_id: doerId, state: 'running', stage: 'cloning', counts: {}, error: '', started_unix: now(), updated_unix: now(),
  };
  entries.delete(key);
  entries.set(key, { status, endedAt: 0 });
  const touch = (patch: Partial<MigrationStatus>, ended = false) => {
    Object.assign(status, patch, { updated_unix: now() });
    if (ended) entries.set(key, { status, endedAt: Date.now() });
  };
  return {
    stage: (stage) => touch({ stage }),
    counts: (counts) => touch({ counts }),
    finish: () => touch({ state: 'finished', stage: 'done' }, true),
    fail: (error) => touch({ state: 'failed', error }, true),
  };
}

/** The latest migration into owner/repo, running or ended within the hour; undefined if none. */
export function migrationStatus(owner: string, repo: string): MigrationStatus | undefined {
  prune();
  const e = entries.get(keyOf(owner, repo));
  return e ? { ...e.status, counts: { ...e.status.counts } } : undefined;
}
