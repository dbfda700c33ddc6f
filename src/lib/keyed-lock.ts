// One process serves everything: operations that must not interleave (merges into one
// repository) queue on a key here instead of failing each other's compare-and-swap.

const tails = new Map<string, Promise<void>>();

/** Runs `fn` once every earlier holder of `key` has finished (in arrival order). */
export async function withKeyLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => { release = resolve; });
  const tail = before.then(() => mine);
  tails.set(key, tail);
  await before;
  try {
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
