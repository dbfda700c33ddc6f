// The generated default avatar: a symmetric 5x5 pattern in one colour on a light background,
// drawn from a seed (the avatar URL's hash), so the same URL always shows the same PNG.

import crypto from 'node:crypto';
import { encodePng } from './decode';

const CELLS = 5;
const CELL = 48;
const MARGIN = CELL;
const SIZE = CELLS * CELL + 2 * MARGIN; // 336 pixels

export function identiconPng(seed: string): Buffer {
  const hash = crypto.createHash('sha256').update(seed).digest();
  const [r, g, b] = hslToRgb((hash[0]! * 360) / 256, 0.55, 0.5);
  const data = Buffer.alloc(SIZE * SIZE * 4, 0xf0);
  const on = (cx: number, cy: number) => (hash[1 + cy * 3 + Math.min(cx, CELLS - 1 - cx)]! & 1) === 1;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const at = (y * SIZE + x) * 4;
      const cx = Math.floor((x - MARGIN) / CELL);
      const cy = Math.floor((y - MARGIN) / CELL);
      const inside = cx >= 0 && cy >= 0 && cx < CELLS && cy < CELLS && on(cx, cy);
      if (inside) { data[at] = r; data[at + 1] = g; data[at + 2] = b; }
      data[at + 3] = 0xff;
    }
  }
  return encodePng({ width: SIZE, height: SIZE, data });
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
