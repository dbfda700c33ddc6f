import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/lib/lru';

describe('Lru', () => {
  it('drops the least recently used entry past its size', () => {
    const l = new Lru<string, number>(2);
    l.set('a', 1);
    l.set('b', 2);
    expect(l.get('a')).toBe(1);
    l.set('c', 3);
    expect(l.get('b')).toBeUndefined();
    expect([l.get('a'), l.get('c')]).toEqual([1, 3]);
  });

  it('keeps the total weight under its bound', () => {
    const l = new Lru<string, Buffer>(100, (b) => b.length, 10);
    l.set('a', Buffer.alloc(6));
    l.set('b', Buffer.alloc(6));
    expect(l.get('a')).toBeUndefined();
    expect(l.get('b')?.length).toBe(6);
    l.set('b', Buffer.alloc(4));
    l.set('c', Buffer.alloc(6));
    expect(l.get('b')?.length).toBe(4);
  });
});
