import type { Milestone } from '../db/schema';
import { isoTime } from '../lib/time';

export type ApiMilestone = {
  id: number; title: string; description: string; state: 'open' | 'closed'; open_issues: number; closed_issues: number;
  created_at: string; updated_at: string | null; closed_at: string | null; due_on: string | null;
};

/** Gitea's ToAPIMilestone: closed_at only when closed, due_on only before 9999. */
export function toApiMilestone(m: Milestone): ApiMilestone {
  return {
    id: m.id,
    title: m.name,
    description: m.content,
    state: m.is_closed ? 'closed' : 'open',
    open_issues: m.num_issues - m.num_closed_issues,
    closed_issues: m.num_closed_issues,
    created_at: isoTime(m.created_unix),
    updated_at: isoTime(m.updated_unix),
    closed_at: m.is_closed && m.closed_unix ? isoTime(m.closed_unix) : null,
    due_on: m.deadline_unix && new Date(m.deadline_unix * 1000).getUTCFullYear() < 9999 ? isoTime(m.deadline_unix) : null,
  };
}
