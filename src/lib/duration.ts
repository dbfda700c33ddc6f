/** Gitea's SecToHours: "1 hour 2 minutes", hours and minutes only (planning-stable). */
export function secToHours(seconds: number): string {
  const part = (n: number, name: string) => (n === 1 ? `1 ${name}` : n > 1 ? `${n} ${name}s` : '');
  return [part(Math.floor(seconds / 3600), 'hour'), part(Math.floor(seconds / 60) % 60, 'minute')].filter(Boolean).join(' ');
}
