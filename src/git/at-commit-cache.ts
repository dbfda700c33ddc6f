import { Lru } from '../lib/lru';

// What a full commit id holds never changes (its tree, the history below it): answers read at
// one are kept, so a file or directory read again costs no git process. Answers at a branch
// name or a short id are read every time.

const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A reader `(dir, commit, path) => answer` whose answers at full commit ids are kept (`max` of them). */
export function cachedAtCommit<T>(max: number, read: (dir: string, commit: string, path: string) => Promise<T>) {
  const cache = new Lru<string, T>(max);
  return async (dir: string, commit: string, path: string): Promise<T> => {
    if (!FULL_ID.test(commit)) return read(dir, commit, path);
    const key = `${dir}\0${commit}\0${path}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const found = await read(dir, commit, path);
    cache.set(key, found);
    return found;
  };
}
