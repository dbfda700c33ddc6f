// Ruby's Marshal format 4.8 (the parts RubyGems' indexes use): specs.4.8.gz and the quick
// gemspecs are Marshal dumps that gem and bundler load. Written from the format's description
// (marshal.c's w_long and type bytes), only encoding.

export type RubyValue =
  | null | boolean | number | string | RubyValue[]
  | { kind: 'symbol'; name: string }
  /** An object with marshal_dump/marshal_load: "U", its class and one value. */
  | { kind: 'user-marshal'; className: string; value: RubyValue }
  /** An object with _dump/_load: "u", its class and the bytes of a nested dump of `value`. */
  | { kind: 'user-def'; className: string; value: RubyValue }
  /** A plain object: "o", its class and instance variables (names with their "@"). */
  | { kind: 'object'; className: string; ivars: [string, RubyValue][] }
  | { kind: 'hash'; entries: [RubyValue, RubyValue][] };

export const sym = (name: string): RubyValue => ({ kind: 'symbol', name });
export const gemVersion = (v: string): RubyValue => ({ kind: 'user-marshal', className: 'Gem::Version', value: [v] });

class Writer {
  private readonly parts: Buffer[] = [];
  private readonly symbols = new Map<string, number>();
  byte(b: number): void { this.parts.push(Buffer.from([b & 0xff])); }
  raw(b: Buffer): void { this.parts.push(b); }
  long(n: number): void {
    if (!Number.isInteger(n) || n > 0x3fffffff || n < -0x40000000) throw new RangeError(`not a Marshal fixnum: ${n}`);
    if (n === 0) return this.byte(0);
    if (n > 0 && n < 123) return this.byte(n + 5);
    if (n < 0 && n > -124) return this.byte(n - 5);
    const bytes: number[] = [];
    let x = n;
    for (let i = 0; i < 4; i++) {
      bytes.push(x & 0xff);
      x >>= 8;
      if ((n >= 0 && x === 0) || (n < 0 && x === -1)) break;
    }
    this.byte(n >= 0 ? bytes.length : -bytes.length);
    for (const b of bytes) this.byte(b);
  }
  symbol(name: string): void {
    const seen = this.symbols.get(name);
    if (seen !== undefined) { this.byte(0x3b); this.long(seen); return; }
    this.symbols.set(name, this.symbols.size);
    const b = Buffer.from(name, 'utf8');
    this.byte(0x3a); this.long(b.length); this.raw(b);
  }
  value(v: RubyValue): void {
    if (v === null) return this.byte(0x30);
    if (v === true) return this.byte(0x54);
    if (v === false) return this.byte(0x46);
    if (typeof v === 'number') { this.byte(0x69); return this.long(v); }
    if (typeof v === 'string') {
      // A UTF-8 string: "I", the bytes, one instance variable E = true.
      const b = Buffer.from(v, 'utf8');
      this.byte(0x49); this.byte(0x22); this.long(b.length); this.raw(b); this.long(1); this.symbol('E'); this.byte(0x54);
      return;
    }
    if (Array.isArray(v)) { this.byte(0x5b); this.long(v.length); for (const x of v) this.value(x); return; }
    if (v.kind === 'symbol') return this.symbol(v.name);
    if (v.kind === 'user-marshal') { this.byte(0x55); this.symbol(v.className); return this.value(v.value); }
    if (v.kind === 'hash') { this.byte(0x7b); this.long(v.entries.length); for (const [k, x] of v.entries) { this.value(k); this.value(x); } return; }
    if (v.kind === 'user-def') {
      const inner = marshalDump(v.value);
      this.byte(0x75); this.symbol(v.className); this.long(inner.length); this.raw(inner);
      return;
    }
    this.byte(0x6f); this.symbol(v.className); this.long(v.ivars.length);
    for (const [name, x] of v.ivars) { this.symbol(name); this.value(x); }
  }
  done(): Buffer { return Buffer.concat(this.parts); }
}

/** Marshal.dump(v): the 4.8 header, then the value. */
export function marshalDump(v: RubyValue): Buffer {
  const w = new Writer();
  w.byte(4); w.byte(8);
  w.value(v);
  return w.done();
}
