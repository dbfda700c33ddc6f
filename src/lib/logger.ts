import pino from 'pino';

export type Logger = pino.Logger;

export type LogOptions = {
  level: string;
  /** Empty: standard output. */
  file?: string;
  /** Empty: text on a terminal, JSON lines otherwise. */
  format?: '' | 'text' | 'json';
};

// Destinations of log files, reopened together on SIGHUP (after logrotate moved the file).
const files = new Set<pino.DestinationStream & { reopen: () => void }>();
let hupHandler = false;
function reopenOnHangup(dest: pino.DestinationStream & { reopen: () => void }): void {
  files.add(dest);
  if (hupHandler) return;
  hupHandler = true;
  process.on('SIGHUP', () => {
    for (const f of files) f.reopen();
  });
}

const LABELS = pino.levels.labels;
const CORE = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'app']);

const shown = (v: unknown): string => {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  if (v && typeof v === 'object' && 'message' in v && 'stack' in v) return JSON.stringify((v as Error).stack);
  return JSON.stringify(v) ?? String(v);
};

/** One pino JSON line as `<time> <LEVEL> <message> key=value ...`, for people and grep alike. */
export function textLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof o.time === 'number' ? new Date(o.time).toISOString() : '';
  const level = (LABELS[o.level as number] ?? String(o.level)).toUpperCase().padEnd(5);
  const fields = Object.entries(o).filter(([k, v]) => !CORE.has(k) && v !== undefined).map(([k, v]) => `${k}=${shown(v)}`);
  return `${[time, level, String(o.msg ?? ''), ...fields].filter(Boolean).join(' ')}\n`;
}

/** A stream pino writes JSON lines to, passing them on as text (no worker thread, unlike transports). */
function textStream(dest: pino.DestinationStream & { flush?: (cb?: (err?: Error) => void) => void }) {
  // flush: pino's logger.flush() calls the stream's own.
  return { write: (line: string) => dest.write(textLine(line)), flush: (cb?: (err?: Error) => void) => dest.flush?.(cb) };
}

type SonicBoomLike = pino.DestinationStream & NodeJS.EventEmitter & { flushSync: () => void };

/** What a log stream holds while it cannot write; later lines are dropped. */
const HELD_BYTES = 8 * 1024 * 1024;

/**
 * A log that cannot be written (a full disk, most often the data directory's own) must not stop
 * the server: pino re-throws the stream's error, which killed the process, whose exit then spun
 * in the stream's synchronous flush until the disk had room. Here the lines wait (up to
 * HELD_BYTES) and are written once it can; stderr says so once a minute; an exit meanwhile drops them.
 */
function survivesWriteErrors(dest: SonicBoomLike, what: string): void {
  let failing = false;
  let told = 0;
  dest.on('error', (err: NodeJS.ErrnoException) => {
    failing = true;
    if (Date.now() - told < 60_000) return;
    told = Date.now();
    process.stderr.write(`hearth: cannot write the ${what} (${err.code ?? err.message}): its lines wait until it can\n`);
  });
  dest.on('write', () => { failing = false; });
  const flushSync = dest.flushSync.bind(dest);
  dest.flushSync = () => { if (!failing) flushSync(); };
}

/**
 * JSON lines (or text) on stdout or appended to a file; no transports, so nothing runs in
 * worker threads. A string is the level alone (the CLI's quiet loggers).
 */
export function createLogger(opts: string | LogOptions): Logger {
  const o: LogOptions = typeof opts === 'string' ? { level: opts } : opts;
  let dest: pino.DestinationStream;
  if (o.file) {
    const file = pino.destination({ dest: o.file, append: true, mkdir: true, sync: false, maxLength: HELD_BYTES });
    survivesWriteErrors(file, `log file ${o.file}`);
    reopenOnHangup(file);
    dest = file;
  } else {
    dest = pino.destination({ dest: 1, sync: false, maxLength: HELD_BYTES });
    survivesWriteErrors(dest as SonicBoomLike, 'standard output');
  }
  const text = o.format === 'text' || (!o.format && !o.file && process.stdout.isTTY === true);
  return pino({ level: o.level, base: { app: 'hearth' } }, text ? textStream(dest) : dest);
}
