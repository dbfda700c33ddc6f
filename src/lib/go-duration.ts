/** Seconds as Go's time.Duration.String() writes whole seconds: "8h0m0s", "10m0s", "45s", "0s", "-5s". */
export function goDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const sign = seconds < 0 ? '-' : '';
  let rest = Math.abs(seconds);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  const s = rest - m * 60;
  if (h) return `${sign}${h}h${m}m${s}s`;
  if (m) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}
