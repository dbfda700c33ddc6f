// One process serves everything: operations that must not interleave (merges into one
// repository, a repository's pull request follow-ups) queue on a key here instead of failing
// each other's compare-and-swap or running side by side.

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

/** Settles once nothing holds or waits for `key`. */
export async function whenFree(key: string): Promise<void> {
  await tails.get(key);
}

/** Settles once nothing holds or waits for any key starting with `prefix`. */
export async function whenAllFree(prefix: string): Promise<void> {
  for (;;) {
    const busy = [...tails].filter(([key]) => key.startsWith(prefix)).map(([, tail]) => tail);
    if (!busy.length) return;
    await Promise.all(busy);
  }
}
