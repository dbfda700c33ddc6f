import { afterAll, describe, expect, it } from 'vitest';
import { highlightLines, languageOf, splitHighlighted } from '../../src/lib/highlight';
import { closeHighlighter, highlightBlob } from '../../src/services/highlight';

// Per-line highlighted HTML for code pages: each line balanced, everything escaped, large
// files highlighted on the worker thread to the same result, cached by blob SHA.

afterAll(async () => { await closeHighlighter(); });

const balanced = (line: string) => (line.match(/<span/g) ?? []).length === (line.match(/<\/span>/g) ?? []).length;

describe('highlightLines', () => {
  it('marks up a TypeScript file line by line', () => {
    const lines = highlightLines('const a = 1;\n/* one\n   two */\nexport function f(): string { return "<b>"; }\n', 'src/x.ts');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('<span class="hljs-keyword">const</span>');
    // The comment runs over a line end: closed on the first line, reopened on the second.
    expect(lines[1]).toBe('<span class="hljs-comment">/* one</span>');
    expect(lines[2]).toBe('<span class="hljs-comment">   two */</span>');
    expect(lines[3]).toContain('&quot;&lt;b&gt;&quot;');
    for (const l of lines) expect(balanced(l), l).toBe(true);
  });

  it('escapes files of unknown languages and keeps their lines', () => {
    expect(languageOf('notes.unknownext')).toBe('');
    expect(highlightLines('<script>x</script>\n\nend', 'notes.unknownext')).toEqual(['&lt;script&gt;x&lt;/script&gt;', '', 'end']);
  });

  it('knows languages by extension and by well-known names', () => {
    expect(languageOf('a/b/main.go')).toBe('go');
    expect(languageOf('lib.rs')).toBe('rs');
    expect(languageOf('Dockerfile')).toBe('dockerfile');
    expect(languageOf('README')).toBe('');
  });

  it('re-balances nested spans across lines', () => {
    expect(splitHighlighted('<span class="a">x<span class="b">y\nz</span>w</span>')).toEqual([
      '<span class="a">x<span class="b">y</span></span>',
      '<span class="a"><span class="b">z</span>w</span>',
    ]);
  });
});

describe('highlightBlob', () => {
  it('highlights a large file on the worker thread to the same lines, then serves it from the cache', async () => {
    const text = 'function add(a, b) {\n  return a + b; // sum\n}\n'.repeat(2000);
    expect(text.length).toBeGreaterThan(48 * 1024);
    const lines = await highlightBlob('a'.repeat(40), 'big.js', text);
    expect(lines).toEqual(highlightLines(text, 'big.js'));
    expect(lines).toHaveLength(6000);
    expect(await highlightBlob('a'.repeat(40), 'big.js', 'ignored: cached by sha')).toBe(lines);
  });
});
