// Which events a webhook wants: Gitea's webhook_module.HookEvent, stored as JSON in
// webhook.events, with the API's event names (routers/api/v1/utils/hook.go updateHookEvents),
// the Hook answer's `events` (EventsArray) and the delivery check (HasEvent, checkBranch).

import { compileGlob } from '../../lib/glob';
import type { HookEvent } from './formats';

/**
 * The keys of the stored event map: the delivered event types, except that the three review
 * verdicts share one switch, `pull_request_review` (as Gitea's HookEvents map).
 */
export type HookEventKey =
  | Exclude<HookEvent, 'pull_request_review_approved' | 'pull_request_review_rejected' | 'pull_request_review_comment'>
  | 'pull_request_review';

export type HookEventSettings = {
  push_only: boolean;
  send_everything: boolean;
  choose_events: boolean;
  branch_filter: string;
  events: Partial<Record<HookEventKey, boolean>>;
};

/** Gitea's AllEvents(): what a send-everything hook lists. */
export const ALL_EVENTS: readonly HookEvent[] = [
  'create', 'delete', 'fork', 'push',
  'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment',
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment',
  'pull_request_sync', 'pull_request_review_request',
  'wiki', 'repository', 'release', 'package', 'status', 'workflow_run', 'workflow_job',
];

// Gitea lists a chosen hook's events in Go map order (random); a fixed order keeps answers stable.
const KEY_ORDER: readonly HookEventKey[] = [
  'create', 'delete', 'fork', 'push',
  'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment',
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review', 'pull_request_sync', 'pull_request_review_request',
  'wiki', 'repository', 'release', 'package', 'status', 'workflow_run', 'workflow_job',
];

// Switched on by their own name only.
const PLAIN: readonly HookEventKey[] = [
  'create', 'push', 'delete', 'fork', 'repository', 'wiki', 'release', 'package', 'status', 'workflow_run', 'workflow_job',
];
// `issues` in the option list switches the whole group on; `issues_only` the issues event alone.
const ISSUE_GROUP: Partial<Record<HookEventKey, string>> = {
  issues: 'issues_only', issue_assign: 'issue_assign', issue_label: 'issue_label',
  issue_milestone: 'issue_milestone', issue_comment: 'issue_comment',
};
const PULL_GROUP: Partial<Record<HookEventKey, string>> = {
  pull_request: 'pull_request_only', pull_request_assign: 'pull_request_assign', pull_request_label: 'pull_request_label',
  pull_request_milestone: 'pull_request_milestone', pull_request_comment: 'pull_request_comment',
  pull_request_review: 'pull_request_review', pull_request_review_request: 'pull_request_review_request',
  pull_request_sync: 'pull_request_sync',
};

/**
 * Gitea's three trigger choices. The API always stores choose_events (its updateHookEvents);
 * the web forms' "Push events" and "All events" store push_only and send_everything, as
 * Gitea's web forms, so the form shows that choice again.
 */
export type EventsMode = 'push_only' | 'send_everything' | 'choose_events';

/**
 * Gitea's API events option: names match case-insensitively, unknown ones are ignored, no names
 * at all means ["push"]. Every key is stored, true or false, as Gitea's map.
 */
export function eventsFromOption(events: string[] | undefined, branchFilter = '', mode: EventsMode = 'choose_events'): HookEventSettings {
  const given = new Set((events?.length ? events : ['push']).map((e) => e.toLowerCase()));
  const map: Partial<Record<HookEventKey, boolean>> = {};
  for (const key of PLAIN) map[key] = given.has(key);
  for (const [key, name] of Object.entries(ISSUE_GROUP)) map[key as HookEventKey] = given.has(name!) || given.has('issues');
  for (const [key, name] of Object.entries(PULL_GROUP)) map[key as HookEventKey] = given.has(name!) || given.has('pull_request');
  const ordered: Partial<Record<HookEventKey, boolean>> = {};
  for (const key of KEY_ORDER) ordered[key] = map[key] ?? false;
  return { push_only: mode === 'push_only', send_everything: mode === 'send_everything', choose_events: mode === 'choose_events', branch_filter: branchFilter, events: ordered };
}

const bool = (v: unknown): boolean => v === true;

/** Reads webhook.events; anything unreadable is a hook that wants nothing (as Gitea's AfterLoad). */
export function parseEventSettings(text: string): HookEventSettings {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) raw = parsed as Record<string, unknown>;
  } catch { /* left empty */ }
  const events: Partial<Record<HookEventKey, boolean>> = {};
  const stored = raw.events && typeof raw.events === 'object' ? raw.events as Record<string, unknown> : {};
  for (const key of KEY_ORDER) if (key in stored) events[key] = bool(stored[key]);
  return {
    push_only: bool(raw.push_only),
    send_everything: bool(raw.send_everything),
    choose_events: bool(raw.choose_events),
    branch_filter: typeof raw.branch_filter === 'string' ? raw.branch_filter : '',
    events,
  };
}

export const serializeEventSettings = (s: HookEventSettings): string => JSON.stringify(s);

/** Gitea's EventsArray: the Hook answer's `events`. */
export function eventsArray(s: HookEventSettings): string[] {
  if (s.send_everything) return [...ALL_EVENTS];
  if (s.push_only) return ['push'];
  return KEY_ORDER.filter((key) => s.events[key] === true);
}

/** Gitea's HasEvent: the three review verdicts are wanted through `pull_request_review`. */
export function hasEvent(s: HookEventSettings, event: HookEvent): boolean {
  if (s.send_everything) return true;
  if (s.push_only) return event === 'push';
  const key: HookEventKey = event === 'pull_request_review_approved' || event === 'pull_request_review_rejected'
    || event === 'pull_request_review_comment' ? 'pull_request_review' : event;
  return s.events[key] === true;
}

/**
 * Gitea's checkBranch: no filter or `*` passes everything; otherwise a gobwas glob without
 * separators (`*` crosses `/`), e.g. `{main,release/*}`. A filter that does not compile matches nothing.
 */
export function branchMatches(filter: string, branch: string): boolean {
  if (filter === '' || filter === '*') return true;
  try {
    return compileGlob(filter).test(branch);
  } catch {
    return false;
  }
}

/** Gitea's GlobPattern binding of `branch_filter`. */
export function isValidBranchFilter(filter: string): boolean {
  try {
    compileGlob(filter);
    return true;
  } catch {
    return false;
  }
}

/** The branch a ref names, or '' for other refs (tags...): a bare name counts as a branch. */
function branchOfRef(ref: string): string {
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  return ref.startsWith('refs/') ? '' : ref;
}

/**
 * Whether a hook fires for `event` on `ref` (Gitea's PrepareWebhook): the event must be wanted,
 * and for push, create and delete of a branch the branch must pass the filter. Tags, and every
 * other event (pull requests included: Gitea filters by payload branch, which only those three
 * payloads carry), ignore the filter. `ref` is a full ref name ("refs/heads/main",
 * "refs/tags/v1") or a branch name.
 */
export function hookWants(s: HookEventSettings, event: HookEvent, ref?: string): boolean {
  if (!hasEvent(s, event)) return false;
  if (!ref || (event !== 'push' && event !== 'create' && event !== 'delete')) return true;
  const branch = branchOfRef(ref);
  return branch === '' || branchMatches(s.branch_filter, branch);
}
