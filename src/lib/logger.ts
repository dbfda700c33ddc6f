import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines on stdout; no transports, so nothing runs in worker threads. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { app: 'hearth' } }, pino.destination({ dest: 1, sync: false }));
}
