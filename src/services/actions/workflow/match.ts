import { compileGlobOrLiteral } from '../../../lib/glob';
import type { WorkflowEvent } from './events';
import { matchesIgnore, matchesInclude } from './patterns';

// Whether an event of the workflow's `on:` matches what happened, as Gitea's detectMatched:
// every filter given must match (branches, branches-ignore, tags, tags-ignore, paths,
// paths-ignore, types); with both branch and tag filters only one of the two kinds needs to;
// pull_request without `types` runs on opened, reopened and synchronize.

export type Trigger = {
  /** The GitHub event name: push, pull_request, pull_request_target, issues, issue_comment, release, create, delete, workflow_dispatch, schedule. */
  event: string;
  /** GitHub's activity type (opened, synchronize, labeled, created, published, edited...). */
  action?: string;
  /** push: the full ref; pull_request: the base branch name. */
  ref?: string;
  /** The files the push (or pull request) changed, read only when a paths filter asks. */
  changedFiles?: () => Promise<string[]>;
};

const typeMatches = (vals: string[], action: string) => vals.some((v) => compileGlobOrLiteral(v, '/').test(action));

function safe(fn: () => boolean): boolean {
  try {
    return fn();
  } catch {
    return false; // an invalid pattern matches nothing, as Gitea's CompilePatterns error
  }
}

async function pathsMatch(cond: string, vals: string[], t: Trigger): Promise<boolean> {
  const files = t.changedFiles ? await t.changedFiles() : [];
  return safe(() => (cond === 'paths' ? matchesInclude(vals, files) : matchesIgnore(vals, files)));
}

async function matchPush(evt: WorkflowEvent, t: Trigger): Promise<boolean> {
  const acts = Object.entries(evt.acts);
  if (!acts.length) return true;
  const ref = t.ref ?? '';
  const branch = ref.startsWith('refs/heads/') ? ref.slice(11) : null;
  const tag = ref.startsWith('refs/tags/') ? ref.slice(10) : null;
  let times = 0;
  let branchFilter = false;
  let tagFilter = false;
  for (const [cond, vals] of acts) {
    if (cond === 'branches' || cond === 'branches-ignore') {
      branchFilter = true;
      if (branch !== null && safe(() => (cond === 'branches' ? matchesInclude(vals, [branch]) : matchesIgnore(vals, [branch])))) times++;
    } else if (cond === 'tags' || cond === 'tags-ignore') {
      tagFilter = true;
      if (tag !== null && safe(() => (cond === 'tags' ? matchesInclude(vals, [tag]) : matchesIgnore(vals, [tag])))) times++;
    } else if (cond === 'paths' || cond === 'paths-ignore') {
      if (await pathsMatch(cond, vals, t)) times++;
    }
  }
  if (branchFilter && tagFilter) times++;
  return times === acts.length;
}

async function matchPull(evt: WorkflowEvent, t: Trigger): Promise<boolean> {
  const action = t.action ?? '';
  const types = evt.acts.types;
  const typeOk = types ? typeMatches(types, action) : ['opened', 'reopened', 'synchronize'].includes(action);
  if (!typeOk) return false;
  for (const [cond, vals] of Object.entries(evt.acts)) {
    if (cond === 'types') continue;
    const base = (t.ref ?? '').replace(/^refs\/heads\//, '');
    if (cond === 'branches' && !safe(() => matchesInclude(vals, [base]))) return false;
    if (cond === 'branches-ignore' && !safe(() => matchesIgnore(vals, [base]))) return false;
    if ((cond === 'paths' || cond === 'paths-ignore') && !(await pathsMatch(cond, vals, t))) return false;
    if (!['branches', 'branches-ignore', 'paths', 'paths-ignore'].includes(cond)) return false;
  }
  return true;
}

function matchTypes(evt: WorkflowEvent, t: Trigger): boolean {
  for (const [cond, vals] of Object.entries(evt.acts)) {
    if (cond !== 'types' || !typeMatches(vals, t.action ?? '')) return false;
  }
  return true;
}

/** Whether `evt` (one entry of `on:`) matches the trigger. */
export async function eventMatches(evt: WorkflowEvent, t: Trigger): Promise<boolean> {
  if (evt.name !== t.event) return false;
  switch (t.event) {
    case 'push': return matchPush(evt, t);
    case 'pull_request': case 'pull_request_target': return matchPull(evt, t);
    case 'issues': case 'issue_comment': case 'release': case 'pull_request_review': return matchTypes(evt, t);
    // No filters (Gitea ignores any given): create, delete, fork, workflow_dispatch, schedule.
    default: return true;
  }
}

/** The first event of the workflow that matches, or null. */
export async function matchingEvent(events: WorkflowEvent[], t: Trigger): Promise<WorkflowEvent | null> {
  for (const evt of events) if (await eventMatches(evt, t)) return evt;
  return null;
}
