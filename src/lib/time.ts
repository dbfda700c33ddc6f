export const nowUnix = (): number => Math.floor(Date.now() / 1000);

// A listing renders the same few times again and again (0, a user's creation, a burst of
// issues made in one second): the recent ones are kept, which spares a Date and two strings each.
const ISO_CACHE_MAX = 4096;
const isoCache = new Map<number, string>();

/** Unix seconds to ISO 8601 with the server's offset, as Gitea renders times. */
export function isoTime(unix: number): string {
  let iso = isoCache.get(unix);
  if (iso === undefined) {
    iso = new Date(unix * 1000).toISOString().replace('.000Z', 'Z');
    if (isoCache.size >= ISO_CACHE_MAX) isoCache.clear();
    isoCache.set(unix, iso);
  }
  return iso;
}
