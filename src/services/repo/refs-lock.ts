import { whenFree, withKeyLock } from '../../lib/keyed-lock';

/**
 * API commits and merges into one repository queue here: each reads the branch head after the
 * previous one moved it, instead of losing the compare-and-swap (409). A file's `sha` is still
 * checked against the head it lands on. Never nest: what runs inside must not merge.
 */
export const withRefsLock = <T>(repoId: number, fn: () => Promise<T>): Promise<T> => withKeyLock(`refs:${repoId}`, fn);

/** Waits for the repository's ref writer of the moment (a merge finishing its bookkeeping). */
export const refsSettled = (repoId: number): Promise<void> => whenFree(`refs:${repoId}`);
