import path from 'node:path';

// Content sniffing after Go's http.DetectContentType (the part that matters for uploads), and
// Gitea's upload.Verify against [attachment] allowed_types.

const MAGIC: [type: string, test: (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1'))],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['image/bmp', (b) => b.subarray(0, 2).toString('latin1') === 'BM'],
  ['image/x-icon', (b) => b.subarray(0, 4).equals(Buffer.from([0, 0, 1, 0]))],
  ['application/pdf', (b) => b.subarray(0, 5).toString('latin1') === '%PDF-'],
  ['application/zip', (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))],
  ['application/x-gzip', (b) => b[0] === 0x1f && b[1] === 0x8b && b[2] === 0x08],
  ['application/x-rar-compressed', (b) => b.subarray(0, 7).toString('latin1') === 'Rar!\x1a\x07\x00'],
  ['video/mp4', (b) => b.subarray(4, 8).toString('latin1') === 'ftyp'],
  ['audio/mpeg', (b) => b.subarray(0, 3).toString('latin1') === 'ID3'],
  ['application/ogg', (b) => b.subarray(0, 5).toString('latin1') === 'OggS\x00'],
];

const HTML_START = /^\s*<(?:!DOCTYPE HTML|HTML|HEAD|SCRIPT|IFRAME|H1|DIV|FONT|TABLE|A|STYLE|TITLE|B|BODY|BR|P|!--)[\s>]/i;
const XML_START = /^\s*<\?xml/;

/** Bytes Go's sniffer takes as a sign of binary data. */
const isBinaryByte = (c: number) => c <= 0x08 || c === 0x0b || (c >= 0x0e && c <= 0x1a) || (c >= 0x1c && c <= 0x1f);

/** The MIME type of the first bytes of a file (Go's names: "text/plain; charset=utf-8"). */
export function detectContentType(head: Buffer): string {
  const b = head.subarray(0, 512);
  for (const [type, test] of MAGIC) if (test(b)) return type;
  const text = b.toString('latin1');
  if (HTML_START.test(text)) return 'text/html; charset=utf-8';
  if (XML_START.test(text)) return 'text/xml; charset=utf-8';
  return b.some(isBinaryByte) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

const forbidden = (type: string) => `This file extension or type is not allowed to be uploaded. Type: ${type}`;

/**
 * Null when the file may be uploaded under `allowedTypes` (comma or `|` separated extensions,
 * MIME types and `type/*` wildcards; empty allows everything), else the refusal message.
 */
export function checkAllowedType(head: Buffer, fileName: string, allowedTypes: string): string | null {
  const allowed = allowedTypes.replaceAll('|', ',').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (!allowed.length) return null;
  const full = detectContentType(head);
  const mime = full.split(';')[0]!.trim();
  const ext = path.posix.extname(fileName).toLowerCase();
  for (const entry of allowed) {
    if (entry === '*/*') return null;
    if (entry.startsWith('.') && entry === ext) return null;
    if (entry === mime) return null;
    if (entry.endsWith('/*') && mime.startsWith(entry.slice(0, -1))) return null;
  }
  return forbidden(full);
}
