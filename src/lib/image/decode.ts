// Pixels of a PNG, JPEG, GIF (first frame) or WebP image, with pure-JS decoders (plus libwebp in
// WebAssembly): the single executable carries no native image library.

import { jpegJs, omggif, pngjs } from '../lazy-require';
import type { ImageKind } from './image-size';
import { decodeWebp } from './webp';

/** 8-bit RGBA, row by row. */
export type Rgba = { width: number; height: number; data: Buffer };

export function decodeImage(kind: ImageKind, data: Buffer): Rgba {
  switch (kind) {
    case 'png': {
      const png = pngjs().PNG.sync.read(data);
      return { width: png.width, height: png.height, data: png.data };
    }
    case 'jpeg': {
      const img = jpegJs().decode(data, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 512 });
      return { width: img.width, height: img.height, data: Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length) };
    }
    case 'gif': {
      const gif = new (omggif().GifReader)(new Uint8Array(data.buffer, data.byteOffset, data.length));
      const pixels = Buffer.alloc(gif.width * gif.height * 4);
      gif.decodeAndBlitFrameRGBA(0, pixels);
      return { width: gif.width, height: gif.height, data: pixels };
    }
    case 'webp':
      return decodeWebp(data);
  }
}

export function encodePng(img: Rgba): Buffer {
  const { PNG } = pngjs();
  const png = new PNG({ width: img.width, height: img.height });
  img.data.copy(png.data);
  return PNG.sync.write(png);
}

/** The centred square of the image (Gitea's cropSquare). */
export function cropSquare(img: Rgba): Rgba {
  const side = Math.min(img.width, img.height);
  if (img.width === img.height) return img;
  const x0 = Math.floor((img.width - side) / 2);
  const y0 = Math.floor((img.height - side) / 2);
  const out = Buffer.alloc(side * side * 4);
  for (let y = 0; y < side; y++) {
    const from = ((y0 + y) * img.width + x0) * 4;
    img.data.copy(out, y * side * 4, from, from + side * 4);
  }
  return { width: side, height: side, data: out };
}

/**
 * Bilinear scaling to width x height. When shrinking by more than 2, each output pixel averages
 * the source box it covers first, so a 4096-pixel photo does not alias into noise at 512.
 */
export function scale(img: Rgba, width: number, height: number): Rgba {
  const out = Buffer.alloc(width * height * 4);
  const sx = img.width / width;
  const sy = img.height / height;
  const box = sx > 2 || sy > 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      if (box) averageBox(img, x * sx, y * sy, sx, sy, out, at);
      else bilinear(img, (x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5, out, at);
    }
  }
  return { width, height, data: out };
}

function bilinear(img: Rgba, fx: number, fy: number, out: Buffer, at: number): void {
  const x0 = Math.max(0, Math.min(img.width - 1, Math.floor(fx)));
  const y0 = Math.max(0, Math.min(img.height - 1, Math.floor(fy)));
  const x1 = Math.min(img.width - 1, x0 + 1);
  const y1 = Math.min(img.height - 1, y0 + 1);
  const dx = Math.max(0, Math.min(1, fx - x0));
  const dy = Math.max(0, Math.min(1, fy - y0));
  const d = img.data;
  const a = (y0 * img.width + x0) * 4;
  const b = (y0 * img.width + x1) * 4;
  const c0 = (y1 * img.width + x0) * 4;
  const c1 = (y1 * img.width + x1) * 4;
  for (let c = 0; c < 4; c++) {
    const top = d[a + c]! * (1 - dx) + d[b + c]! * dx;
    const bottom = d[c0 + c]! * (1 - dx) + d[c1 + c]! * dx;
    out[at + c] = Math.round(top * (1 - dy) + bottom * dy);
  }
}

function averageBox(img: Rgba, fx: number, fy: number, sx: number, sy: number, out: Buffer, at: number): void {
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(img.width, Math.max(x0 + 1, Math.floor(fx + sx)));
  const y1 = Math.min(img.height, Math.max(y0 + 1, Math.floor(fy + sy)));
  const sum = [0, 0, 0, 0];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const p = (y * img.width + x) * 4;
      for (let c = 0; c < 4; c++) sum[c]! += img.data[p + c]!;
    }
  }
  const n = (x1 - x0) * (y1 - y0);
  for (let c = 0; c < 4; c++) out[at + c] = Math.round(sum[c]! / n);
}
