/**
 * A copy of `bytes` in memory of its own, for what is kept long (caches). Buffer.from() copies a
 * small buffer into a shared pool slab (64 KB on Node 24), and a kept copy holds the whole slab:
 * the blob cache, bounded to 16 MiB by its entries' lengths, could hold 4,096 slabs (256 MB).
 */
export function ownedCopy(bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafeSlow(bytes.length);
  out.set(bytes);
  return out;
}
