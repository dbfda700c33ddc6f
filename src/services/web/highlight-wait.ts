import { escapeHtml } from '../../lib/html';
import { cachedHighlight, highlightBlob } from '../highlight';

// A page waits for the highlighter only so long: a blob it has not highlighted before (a large
// one goes to the highlighter's thread) that takes longer is shown plain this once, and its
// highlighted lines, cached by blob id when they come, serve the next view. A busy server then
// answers in tens of milliseconds instead of seconds.

/** How long a page waits for a blob's first highlighting (it takes ~50 ms for 2,000 lines). */
export const HIGHLIGHT_WAIT_MS = 100;

/** The text's lines, escaped, not highlighted. */
export const plainLines = (text: string): string[] => text.replace(/\n$/, '').split('\n').map(escapeHtml);

/** Highlighted lines, or null when they are not ready within HIGHLIGHT_WAIT_MS (they keep coming, for the cache). */
export async function highlightedWithin(sha: string, fileName: string, text: string): Promise<string[] | null> {
  const hit = cachedHighlight(sha, fileName);
  if (hit) return hit;
  const work = highlightBlob(sha, fileName, text);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), HIGHLIGHT_WAIT_MS); });
  try {
    return await Promise.race([work, late]);
  } catch {
    // A failed or refused highlighting (the thread is busy) shows the text plain.
    return null;
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}
