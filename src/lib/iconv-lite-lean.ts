import { StringDecoder } from 'node:string_decoder';

// Stands in for iconv-lite inside the single executable (build.mjs aliases it): body-parser and
// raw-body only ask it whether a charset exists and to decode a body, and the API speaks UTF-8.
// iconv-lite's CJK tables are 480 KB of bundle, which the executable held twice in memory (its
// file pages and V8's copy of the source). These charsets are those Node decodes natively.

const NATIVE: Record<string, BufferEncoding> = {
  utf8: 'utf8', unicode11utf8: 'utf8', utf16le: 'utf16le', ucs2: 'utf16le', latin1: 'latin1',
  iso88591: 'latin1', binary: 'latin1', ascii: 'latin1', usascii: 'latin1',
};

const nativeOf = (encoding: string): BufferEncoding | undefined =>
  NATIVE[String(encoding).toLowerCase().replace(/[^0-9a-z]/g, '')];

function known(encoding: string): BufferEncoding {
  const native = nativeOf(encoding);
  // raw-body recognises an unknown charset by this message and answers 415.
  if (!native) throw new Error(`Encoding not recognized: '${encoding}' (searched as: '${encoding}')`);
  return native;
}

export const encodingExists = (encoding: string): boolean => nativeOf(encoding) !== undefined;

/** A streaming decoder: characters split across chunks are joined, as iconv-lite's are. */
export function getDecoder(encoding: string): { write(chunk: Buffer): string; end(): string | undefined } {
  const decoder = new StringDecoder(known(encoding));
  return { write: (chunk) => decoder.write(chunk), end: () => decoder.end() || undefined };
}

/** Decodes a whole body; a leading byte order mark is dropped, as iconv-lite does. */
export function decode(buffer: Buffer, encoding: string): string {
  const text = buffer.toString(known(encoding));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
