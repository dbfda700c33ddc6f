import { describe, expect, it } from 'vitest';
import { cutDiffAroundLine } from '../../src/lib/diff-hunk';

const patch = [
  'diff --git a/f.txt b/f.txt',
  'index 1111111..2222222 100644',
  '--- a/f.txt',
  '+++ b/f.txt',
  '@@ -1,7 +1,7 @@',
  ' one',
  ' two',
  ' three',
  '-four',
  '+FOUR',
  ' five',
  ' six',
  ' seven',
  '@@ -20,3 +20,4 @@ section',
  ' twenty',
  '+added',
  ' twenty-one',
].join('\n');

const head = 'diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n';

describe('cutDiffAroundLine', () => {
  it('keeps the last four lines up to a new-side line, with a recomputed header', () => {
    expect(cutDiffAroundLine(patch, 5, false)).toBe(`${head}@@ -3,3 +3,3 @@\n three\n-four\n+FOUR\n five`);
  });

  it('finds old-side lines, skipping added ones', () => {
    expect(cutDiffAroundLine(patch, 4, true)).toBe(`${head}@@ -1,4 +1,3 @@\n one\n two\n three\n-four`);
  });

  it('starts a window at the hunk start, in a later hunk', () => {
    expect(cutDiffAroundLine(patch, 21, false)).toBe(`${head}@@ -20,1 +20,2 @@\n twenty\n+added`);
  });

  it('answers nothing for a line the diff does not show', () => {
    expect(cutDiffAroundLine(patch, 12, false)).toBe('');
    expect(cutDiffAroundLine(patch, 0, false)).toBe('');
  });
});
