import path from 'node:path';
import { UnavailableError } from '../lib/errors';
import { highlightLines } from '../lib/highlight';
import { Lru } from '../lib/lru';
import { SerialWorker, WorkerJobError } from '../lib/serial-worker';

// Highlighted blobs for the code pages: cached by blob SHA (and file name, which picks the
// language), and highlighted off the request thread past a size where it would hold the event
// loop for more than a few milliseconds (highlight.js does ~1-2 MB a second).

const INLINE_MAX = 48 * 1024;
const cache = new Lru<string, string[]>(500, (lines) => lines.reduce((n, l) => n + l.length, 0), 64 * 1024 * 1024);

const worker = new SerialWorker<{ text: string; fileName: string }, string[]>({
  name: 'highlight-worker',
  entry: path.join(__dirname, '..', 'lib', 'highlight-worker.ts'),
  timeoutMs: 30_000,
  idleMs: 10_000,
  maxWaiting: 8,
});

const keyOf = (sha: string, fileName: string) => `${sha}\0${path.posix.extname(fileName) || path.posix.basename(fileName)}`;

/** The blob's lines if highlighted before: a page then needs not read the blob at all. */
export const cachedHighlight = (sha: string, fileName: string): string[] | undefined => cache.get(keyOf(sha, fileName));

/** The blob's lines as highlighted HTML (escaped, safe to put in a page). */
export async function highlightBlob(sha: string, fileName: string, text: string): Promise<string[]> {
  const key = keyOf(sha, fileName);
  const hit = cache.get(key);
  if (hit) return hit;
  let lines: string[];
  if (text.length <= INLINE_MAX) lines = highlightLines(text, fileName);
  else {
    try {
      lines = await worker.run({ text, fileName });
    } catch (err) {
      if (err instanceof WorkerJobError && err.reason !== 'failed') throw new UnavailableError('the file takes too long to highlight; try again shortly');
      throw err;
    }
  }
  cache.set(key, lines);
  return lines;
}

/** Stops the highlighter's thread (tests, shutdown). */
export const closeHighlighter = (): Promise<void> => worker.close();
