// An image's type and dimensions from its header alone (Go's image.DecodeConfig): limits are
// checked before any pixel is decoded, so a small file claiming 60000x60000 costs nothing.

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp';
export type ImageInfo = { kind: ImageKind; width: number; height: number };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function imageKind(b: Buffer): ImageKind | undefined {
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (/^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1'))) return 'gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}

/** Type and size, or undefined when the header is not one of the four formats or is cut short. */
export function imageInfo(b: Buffer): ImageInfo | undefined {
  const kind = imageKind(b);
  const size = kind && SIZE_READERS[kind](b);
  return kind && size ? { kind, ...size } : undefined;
}

type Size = { width: number; height: number } | undefined;

const SIZE_READERS: Record<ImageKind, (b: Buffer) => Size> = {
  png: (b) => (b.length >= 24 && b.subarray(12, 16).toString('latin1') === 'IHDR'
    ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : undefined),
  gif: (b) => (b.length >= 10 ? { width: b.readUInt16LE(6), height: b.readUInt16LE(8) } : undefined),
  jpeg: jpegSize,
  webp: webpSize,
};

/** The first start-of-frame segment's size (SOF0-SOF15 but DHT, JPG and DAC). */
function jpegSize(b: Buffer): Size {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) { at += 1; continue; }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue; }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    at += 2 + b.readUInt16BE(at + 2);
  }
  return undefined;
}

/** Simple lossy (VP8), lossless (VP8L) and extended (VP8X) headers. */
function webpSize(b: Buffer): Size {
  if (b.length < 30) return undefined;
  const chunk = b.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}
