export const nowUnix = (): number => Math.floor(Date.now() / 1000);

/** Unix seconds to ISO 8601 with the server's offset, as Gitea renders times. */
export function isoTime(unix: number): string {
  return new Date(unix * 1000).toISOString().replace('.000Z', 'Z');
}
