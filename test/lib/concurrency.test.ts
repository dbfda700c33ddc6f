import { describe, expect, it } from 'vitest';
import { mapLimited } from '../../src/lib/concurrency';

describe('mapLimited', () => {
  it('keeps the order of the items and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimited([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it('handles no items', async () => {
    expect(await mapLimited([], 3, async (n: number) => n)).toEqual([]);
  });
});
