import type { User } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';
import type { Delivery } from './dispatch';
import { createPayload, deletePayload, isZero, pushPayload } from './push-payloads';

// The deliveries of moved refs, in Gitea's order (services/repository/push.go): a new ref is
// `create` then `push`; a deleted branch is `delete`; a deleted tag is `push` then `delete`.

export const PUSH_JOB = 'webhook.push';
export type PushJob = { repoId: number; doerId: number; updates: RefUpdate[] };

export function pushDeliveries(dir: string, pusher: User, updates: RefUpdate[]): Delivery[] {
  const out: Delivery[] = [];
  for (const u of updates) {
    const tag = u.ref.startsWith('refs/tags/');
    if (!tag && !u.ref.startsWith('refs/heads/')) continue;
    // The full ref: branch filters apply to branches only.
    const ref = u.ref;
    if (isZero(u.newId)) {
      if (tag) out.push({ event: 'push', ref, build: (c) => pushPayload(c, dir, pusher, u) });
      out.push({ event: 'delete', ref, build: (c) => deletePayload(c, u) });
      continue;
    }
    if (isZero(u.oldId)) out.push({ event: 'create', ref, build: (c) => createPayload(c, u) });
    out.push({ event: 'push', ref, build: (c) => pushPayload(c, dir, pusher, u) });
  }
  return out;
}
