import type { Hearth } from '../../hearth';
import { recoverPush } from '../repo/ref-intent';
import { recoverMerge } from './merge-recovery';
import { recoverRepoCreate } from './repo-create-recovery';
import { recoverOwnerMove, recoverRepoDelete, recoverRepoMove } from './repo-move-recovery';

/** Finishes or undoes one interrupted piece of work; returns a short account for the log. */
export type Recovery = (h: Hearth, payload: never) => Promise<string>;

export const RECOVERIES: Record<string, Recovery> = {
  'repo.create': recoverRepoCreate,
  'repo.move': recoverRepoMove,
  'owner.move': recoverOwnerMove,
  'repo.delete': recoverRepoDelete,
  'pull.merge': recoverMerge,
  push: recoverPush,
};
