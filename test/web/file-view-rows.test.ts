import { describe, expect, it } from 'vitest';
import { highlightLines } from '../../src/lib/highlight';
import { numberedLines } from '../../src/routes/web/file-view';

// A file's numbered rows: each row its own anchor, the highlighted lines as they came, and the
// table of a blob's lines made once and reused while those lines are (the same array), under
// the label it was made with.

describe('numbered lines', () => {
  const lines = highlightLines('const a = "<b>";\nlet b = 2;\n', 'x.ts');

  it('numbers every row as its anchor, the (escaped) lines as they are', () => {
    const out = numberedLines(lines, 'Content of x.ts').value;
    expect(out).toContain('aria-label="Content of x.ts"');
    expect(out).toContain('<tr id="L1"><td class="num"><a href="#L1">1</a></td><td>');
    expect(out).toContain('<tr id="L2"><td class="num"><a href="#L2">2</a></td><td>');
    expect(out).toContain('&lt;b&gt;');
    expect(out).not.toContain('<b>');
    expect(out.match(/<tr /g)).toHaveLength(2);
  });

  it('gives the same lines under another label their own table, and the first one back after', () => {
    const first = numberedLines(lines, 'Content of x.ts').value;
    const other = numberedLines(lines, 'Content of y.ts').value;
    expect(other).toContain('aria-label="Content of y.ts"');
    expect(other).not.toContain('x.ts');
    expect(other.replace('y.ts', 'x.ts')).toBe(first);
    expect(numberedLines(lines, 'Content of x.ts').value).toBe(first);
  });
});
