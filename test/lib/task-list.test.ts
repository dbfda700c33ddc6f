import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/lib/markdown';
import { findTasks, mayHoldTasks, setTask, textDigest } from '../../src/lib/task-list';

// The nth task of a text is the nth checkbox the renderer draws, and ticking it changes only
// its own box.

const env = { linkBase: '', repoBase: null, rootUrl: 'http://h/', mentionable: new Set<string>() };
const boxes = (text: string) => [...renderMarkdown(text, env).matchAll(/<input type="checkbox" disabled( checked)? \/>/g)].map((m) => !!m[1]);

const TEXT = [
  'Plan:',
  '',
  '- [ ] first',
  '- [x] second',
  '  - [ ] nested',
  '',
  '```',
  '- [ ] not a task (code)',
  '```',
  '',
  '> 1. [X] quoted and numbered',
  '',
  'A [ ] in a paragraph is text.',
  '* [ ]',
  '* [ ] last',
].join('\n');

describe('task lists', () => {
  it('finds the tasks the renderer draws, in its order', () => {
    const tasks = findTasks(TEXT);
    expect(tasks.map((t) => t.checked)).toEqual(boxes(TEXT));
    expect(tasks.map((t) => t.checked)).toEqual([false, true, false, true, false]);
  });

  it('ticks and unticks one task, leaving the rest of the text as it was', () => {
    const ticked = setTask(TEXT, 0, true)!;
    expect(ticked.split('\n')[2]).toBe('- [x] first');
    expect(ticked.replace('- [x] first', '- [ ] first')).toBe(TEXT);
    const unticked = setTask(TEXT, 3, false)!;
    expect(unticked.split('\n')[10]).toBe('> 1. [ ] quoted and numbered');
    expect(boxes(setTask(TEXT, 2, true)!)).toEqual([false, true, true, true, false]);
    // Setting a task to what it is changes nothing.
    expect(setTask(TEXT, 1, true)).toBe(TEXT);
  });

  it('refuses a task that is not there', () => {
    expect(setTask(TEXT, 5, true)).toBeNull();
    expect(setTask(TEXT, -1, true)).toBeNull();
    expect(setTask('no tasks', 0, true)).toBeNull();
  });

  it('fingerprints texts', () => {
    expect(textDigest(TEXT)).toBe(textDigest(`${TEXT}`));
    expect(textDigest(TEXT)).not.toBe(textDigest(setTask(TEXT, 0, true)!));
  });

  it('says which texts may hold a task: every text with one, none without a box', () => {
    for (const text of [TEXT, '- [x] done', '1. [X] numbered', '> - [ ] quoted']) {
      expect(findTasks(text).length).toBeGreaterThan(0);
      expect(mayHoldTasks(text)).toBe(true);
    }
    for (const text of ['Comment 1: I think **this** is fine, see #1 and @root.', '- a list', '- [] no box', '- [y] no box']) {
      expect(findTasks(text)).toEqual([]);
      expect(mayHoldTasks(text)).toBe(false);
    }
  });
});
