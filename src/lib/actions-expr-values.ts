// Values in the Actions expression language: truthiness, string and number coercion, loose equality.

/** Lists produced by a `.*` filter: a property of such a list applies to each element. */
export const filtered = new WeakSet<unknown[]>();

export function truthy(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v !== '';
  return true;
}

/** GitHub's string form of a value: null is '', objects and arrays are JSON. */
export function toStr(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Object.is(v, -0) ? '0' : String(v);
  return JSON.stringify(v, null, 2);
}

export function toNum(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '') return 0;
    if (/^[-+]?0x[0-9a-f]+$/i.test(t)) return (t.startsWith('-') ? -1 : 1) * parseInt(t.replace(/^[-+]?0x/i, ''), 16);
    if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) || /^[-+]?infinity$/i.test(t)) return Number(t);
    return NaN;
  }
  return NaN;
}

const isPrimitive = (v: unknown) => v === null || v === undefined || typeof v !== 'object';

export function looseEquals(a: unknown, b: unknown): boolean {
  if (!isPrimitive(a) || !isPrimitive(b)) return a === b;
  a ??= null;
  b ??= null;
  if (typeof a === 'string' && typeof b === 'string') return a.toUpperCase() === b.toUpperCase();
  if (typeof a === typeof b) return a === b;
  return toNum(a) === toNum(b);
}

export function compare(op: string, a: unknown, b: unknown): boolean {
  let c: number;
  if (typeof a === 'string' && typeof b === 'string') {
    const x = a.toUpperCase();
    const y = b.toUpperCase();
    c = x < y ? -1 : x > y ? 1 : 0;
  } else {
    if (!isPrimitive(a) || !isPrimitive(b)) return false;
    const x = toNum(a);
    const y = toNum(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return false;
    c = x < y ? -1 : x > y ? 1 : 0;
  }
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

