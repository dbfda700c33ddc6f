// Within one process: operations that must not interleave (merges into one
// repository, a repository's pull request follow-ups) queue on a key here instead of failing
// each other's compare-and-swap or running side by side.

// Several nodes on one PostgreSQL (issue 35) also hold the key across nodes: a cluster lock
// (an advisory lock) registered by the node, taken once this process's turn has come.

const tails = new Map<string, Promise<void>>();

/** Holds `key` across the cluster while `fn` runs. */
export type ClusterKeyLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;
const clusterLocks: ClusterKeyLock[] = [];

/** Registers this node's cluster lock (the latest registered is used); returns its removal. */
export function useClusterKeyLock(lock: ClusterKeyLock): () => void {
  clusterLocks.push(lock);
  return () => {
    const at = clusterLocks.lastIndexOf(lock);
    if (at >= 0) clusterLocks.splice(at, 1);
  };
}

/** Runs `fn` once every earlier holder of `key` has finished (in arrival order), on any node of the cluster. */
export async function withKeyLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => { release = resolve; });
  const tail = before.then(() => mine);
  tails.set(key, tail);
  await before;
  try {
    const cluster = clusterLocks[clusterLocks.length - 1];
    return await (cluster ? cluster(key, fn) : fn());
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
