import { describe, expect, it } from 'vitest';
import {
  ALL_EVENTS, branchMatches, eventsArray, eventsFromOption, hookWants, parseEventSettings, serializeEventSettings,
  type HookEventSettings,
} from '../../src/services/webhook/hook-events';

// Gitea's HookEvent rules, pure: the API's events option, EventsArray, HasEvent and the branch filter.

const chosen = (events: string[], filter = '') => eventsFromOption(events, filter);

describe('eventsFromOption (Gitea updateHookEvents)', () => {
  it('defaults to push when no events are given', () => {
    expect(eventsArray(eventsFromOption(undefined))).toEqual(['push']);
    expect(eventsArray(eventsFromOption([]))).toEqual(['push']);
    expect(eventsFromOption([]).choose_events).toBe(true);
  });

  it('"issues" switches the whole issues group on, "issues_only" the issues event alone', () => {
    expect(eventsArray(chosen(['issues']))).toEqual(['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment']);
    expect(eventsArray(chosen(['issues_only']))).toEqual(['issues']);
    expect(eventsArray(chosen(['issue_comment']))).toEqual(['issue_comment']);
  });

  it('"pull_request" switches the pull request group on, reviews included', () => {
    expect(eventsArray(chosen(['pull_request']))).toEqual([
      'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
      'pull_request_review', 'pull_request_sync', 'pull_request_review_request',
    ]);
    expect(eventsArray(chosen(['pull_request_only']))).toEqual(['pull_request']);
  });

  it('matches names case-insensitively and ignores unknown ones', () => {
    expect(eventsArray(chosen(['PUSH', 'Create', 'nonsense', 'release']))).toEqual(['create', 'push', 'release']);
    // The verdict names are not options: only pull_request_review is.
    expect(eventsArray(chosen(['pull_request_review_approved']))).toEqual([]);
  });

  it('keeps the branch filter and survives a round trip through the stored JSON', () => {
    const s = chosen(['push', 'issues'], 'main');
    const back = parseEventSettings(serializeEventSettings(s));
    expect(back).toEqual(s);
    expect(JSON.parse(serializeEventSettings(s))).toMatchObject({ push_only: false, send_everything: false, choose_events: true, branch_filter: 'main' });
  });
});

describe('eventsArray (Gitea EventsArray)', () => {
  const base: HookEventSettings = { push_only: false, send_everything: false, choose_events: false, branch_filter: '', events: {} };

  it('lists every event for a send-everything hook and only push for a push-only one', () => {
    expect(eventsArray({ ...base, send_everything: true })).toEqual([...ALL_EVENTS]);
    expect(eventsArray({ ...base, push_only: true, events: { create: true } })).toEqual(['push']);
  });

  it('reads what it cannot parse as a hook wanting nothing', () => {
    expect(eventsArray(parseEventSettings('not json'))).toEqual([]);
    expect(eventsArray(parseEventSettings('{}'))).toEqual([]);
    expect(hookWants(parseEventSettings('{}'), 'push')).toBe(false);
  });
});

describe('hookWants (Gitea HasEvent and checkBranch)', () => {
  it('fires for the chosen events only', () => {
    const s = chosen(['push', 'issues_only']);
    expect(hookWants(s, 'push', 'refs/heads/main')).toBe(true);
    expect(hookWants(s, 'issues')).toBe(true);
    expect(hookWants(s, 'issue_comment')).toBe(false);
    expect(hookWants(s, 'create', 'refs/heads/main')).toBe(false);
  });

  it('send_everything fires for all, push_only for push only', () => {
    const base = chosen([]);
    expect(hookWants({ ...base, send_everything: true }, 'wiki')).toBe(true);
    expect(hookWants({ ...base, push_only: true }, 'push')).toBe(true);
    expect(hookWants({ ...base, push_only: true }, 'create')).toBe(false);
  });

  it('pull_request_review covers the three verdicts', () => {
    const s = chosen(['pull_request_review']);
    expect(hookWants(s, 'pull_request_review_approved')).toBe(true);
    expect(hookWants(s, 'pull_request_review_rejected')).toBe(true);
    expect(hookWants(s, 'pull_request_review_comment')).toBe(true);
    expect(hookWants(s, 'pull_request_comment')).toBe(false);
    expect(hookWants(chosen(['pull_request_comment']), 'pull_request_review_comment')).toBe(false);
  });

  it('applies the branch filter to push, create and delete of branches', () => {
    const s = chosen(['push', 'create', 'delete', 'pull_request'], '{main,release/*}');
    expect(hookWants(s, 'push', 'refs/heads/main')).toBe(true);
    expect(hookWants(s, 'push', 'refs/heads/release/1.0')).toBe(true);
    expect(hookWants(s, 'push', 'refs/heads/feature')).toBe(false);
    expect(hookWants(s, 'create', 'feature')).toBe(false);
    expect(hookWants(s, 'delete', 'release/2')).toBe(true);
  });

  it('lets tags and other events through whatever the filter', () => {
    const s = chosen(['push', 'create', 'pull_request'], 'main');
    expect(hookWants(s, 'push', 'refs/tags/v1.0')).toBe(true);
    expect(hookWants(s, 'create', 'refs/tags/v1.0')).toBe(true);
    // Gitea filters by the payload's branch, which pull request payloads do not carry.
    expect(hookWants(s, 'pull_request', 'refs/heads/feature')).toBe(true);
    expect(hookWants(s, 'push')).toBe(true);
  });

  it('compiles the filter as gobwas does without separators: * crosses /', () => {
    expect(branchMatches('', 'any/thing')).toBe(true);
    expect(branchMatches('*', 'any/thing')).toBe(true);
    expect(branchMatches('feature*', 'feature/x/y')).toBe(true);
    expect(branchMatches('f?o', 'f/o')).toBe(true);
    expect(branchMatches('main', 'mainline')).toBe(false);
    // A filter that does not compile matches nothing.
    expect(branchMatches('[main', 'main')).toBe(false);
  });
});
