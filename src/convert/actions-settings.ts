import type { ActionSecret, ActionVariable } from '../db/schema';
import { isoTime } from '../lib/time';
import type { RunnerView } from '../services/actions/runners';

// Gitea's Secret (names and dates, never the value), ActionVariable and ActionRunner JSON.

export const toApiSecret = (s: ActionSecret) => ({ name: s.name, description: s.description, created_at: isoTime(s.created_unix) });

export const toApiVariable = (v: ActionVariable) => ({
  owner_id: v.owner_id, repo_id: v.repo_id, name: v.name, data: v.data, description: v.description,
});

function labelsOf(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch { return []; }
}

/**
 * Labels as Gitea's ToActionRunner: index ids, all of type `custom`. Gitea 1.25's ActionRunner
 * has no `disabled`: the state hearth's PATCH sets shows through the `disabled` list filter.
 */
export function toApiRunner(v: RunnerView) {
  const r = v.runner;
  return {
    id: r.id,
    name: r.name,
    status: v.online ? 'online' : 'offline',
    busy: v.busy,
    ephemeral: r.ephemeral === 1,
    labels: labelsOf(r.labels).map((name, id) => ({ id, name, type: 'custom' })),
  };
}
