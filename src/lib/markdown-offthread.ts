import path from 'node:path';
import { renderMarkdown, type RenderEnv } from './markdown';
import { SerialWorker, WorkerJobError } from './serial-worker';

// markdown-it renders about 4 MB a second: a large document posted to /markdown held the event
// loop for seconds (every other request waited). Documents past a few milliseconds of work go to
// a worker thread; small ones, nearly all, render here without the message round trip.

const INLINE_MAX = 32 * 1024;

const renderer = new SerialWorker<{ text: string; env: RenderEnv }, string>({
  name: 'markdown-worker',
  entry: path.join(__dirname, 'markdown-worker.ts'),
  timeoutMs: 60_000,
  idleMs: 10_000,
  maxWaiting: 8,
});

export class RenderRefusedError extends Error {}

/** renderMarkdown, off the event loop for large documents; RenderRefusedError when the thread cannot take it. */
export async function renderMarkdownOffThread(text: string, env: RenderEnv): Promise<string> {
  if (text.length <= INLINE_MAX) return renderMarkdown(text, env);
  try {
    return await renderer.run({ text, env });
  } catch (err) {
    if (!(err instanceof WorkerJobError) || err.reason === 'failed') throw err;
    throw new RenderRefusedError(err.reason === 'busy' ? 'too many large documents are being rendered; try again shortly'
      : err.reason === 'timeout' ? 'the document takes too long to render' : 'the document could not be rendered');
  }
}
