import type { Logger } from './logger';

// Work done after a request's outcome is decided (notifications, auto-merges) reports its
// failures here instead of failing the request; the app registers its logger at start.

type Sink = Pick<Logger, 'error' | 'info'>;

let sink: Sink | null = null;

export function setBackgroundLogger(l: Sink): void {
  sink = l;
}

export function backgroundError(fields: Record<string, unknown>, msg: string): void {
  if (sink) sink.error(fields, msg);
  else console.error(msg, fields);
}

export function backgroundInfo(fields: Record<string, unknown>, msg: string): void {
  sink?.info(fields, msg);
}
