import crypto from 'node:crypto';
import type MarkdownIt from 'markdown-it';
import { markdownIt } from './lazy-require';

// Task lists in markdown source: the nth `- [ ]` / `- [x]` item, counted in the order the
// renderer shows its checkboxes (lib/markdown.ts's task rule: a list item whose paragraph
// opens with `[ ]` or `[x]`), ticked or unticked in the text itself. Block structure decides
// what counts, so a `[ ]` in a code block or a paragraph is never a task.

let parser: MarkdownIt | null = null;

/** The same block options as the renderer: what is a list item there is one here. */
function blocks(): MarkdownIt {
  parser ??= markdownIt()({ html: true, linkify: true, breaks: false, typographer: false });
  return parser;
}

const MARKER = /^\[([ xX])\]\s/;
// The task's line: container prefixes (blockquotes), an optional list marker, then the box.
const LINE = /^((?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)\[([ xX])\]/;

export type Task = { line: number; checked: boolean };

/** Every task of the text, in the order the rendered page numbers its checkboxes (0-based). */
export function findTasks(text: string): Task[] {
  const tokens = blocks().parse(text, {});
  const out: Task[] = [];
  tokens.forEach((t, i) => {
    if (t.type !== 'inline' || tokens[i - 1]?.type !== 'paragraph_open' || tokens[i - 2]?.type !== 'list_item_open') return;
    const m = MARKER.exec(t.content);
    if (m && t.map) out.push({ line: t.map[0], checked: m[1] !== ' ' });
  });
  return out;
}

/** The text with task `n` set to `checked`, or null when there is no such task. */
export function setTask(text: string, n: number, checked: boolean): string | null {
  const task = Number.isSafeInteger(n) && n >= 0 ? findTasks(text)[n] : undefined;
  if (!task) return null;
  const lines = text.split('\n');
  const line = lines[task.line];
  const m = line === undefined ? null : LINE.exec(line);
  if (!m || line === undefined) return null;
  lines[task.line] = `${m[1]}[${checked ? 'x' : ' '}]${line.slice(m[0].length)}`;
  return lines.join('\n');
}

/**
 * Whether the text may hold a task at all (a `[ ]` or `[x]` anywhere): a page fingerprints
 * only those (textDigest), as no other text gets a task form.
 */
export const mayHoldTasks = (text: string): boolean => /\[[ xX]\]/.test(text);

/** A short fingerprint of a text: a toggle posted against an older text is refused. */
export const textDigest = (text: string): string => crypto.createHash('sha256').update(text).digest('base64url').slice(0, 16);
