import { describe, expect, it } from 'vitest';
import { decode, encodingExists, getDecoder } from '../../src/lib/iconv-lite-lean';

// The executable's stand-in for iconv-lite (build.mjs): what body-parser and raw-body ask of it.

describe('the lean charset module', () => {
  it('knows the charsets Node decodes, by iconv-lite spellings', () => {
    for (const name of ['utf-8', 'UTF8', 'utf-16le', 'ucs-2', 'latin1', 'ISO-8859-1', 'us-ascii']) expect(encodingExists(name), name).toBe(true);
    for (const name of ['shift_jis', 'gbk', 'koi8-r', '']) expect(encodingExists(name), name).toBe(false);
  });

  it('refuses an unknown charset with the message raw-body turns into 415', () => {
    expect(() => getDecoder('shift_jis')).toThrow(/^Encoding not recognized: /);
    expect(() => decode(Buffer.from('x'), 'gbk')).toThrow(/^Encoding not recognized: /);
  });

  it('joins a character split across chunks', () => {
    const bytes = Buffer.from('héllo €', 'utf8');
    const d = getDecoder('utf-8');
    const parts = [...bytes].map((b) => d.write(Buffer.from([b])));
    expect(parts.join('') + (d.end() ?? '')).toBe('héllo €');
  });

  it('decodes whole bodies, dropping a byte order mark', () => {
    expect(decode(Buffer.from('\ufeff{"a":1}', 'utf8'), 'utf-8')).toBe('{"a":1}');
    expect(decode(Buffer.from('{"é":1}', 'utf16le'), 'utf-16le')).toBe('{"é":1}');
    expect(decode(Buffer.from([0xe9]), 'iso-8859-1')).toBe('é');
  });
});
