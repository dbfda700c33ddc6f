// The parser of the GitHub Actions expression language (the text inside `${{ }}`): tokens, then an
// AST by precedence climbing. Precedence, loosest first: ||, &&, == !=, < <= > >=, !, then
// property access / index / call. Evaluation lives in actions-expr.ts.

export class ExprError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExprError';
  }
}

export type Node =
  | { type: 'literal'; value: unknown }
  | { type: 'name'; name: string }
  | { type: 'prop'; object: Node; name: string }
  | { type: 'index'; object: Node; index: Node }
  | { type: 'star'; object: Node }
  | { type: 'call'; name: string; args: Node[] }
  | { type: 'not'; operand: Node }
  | { type: 'binary'; op: string; left: Node; right: Node };

type Token =
  | { kind: 'num'; value: number; pos: number }
  | { kind: 'str'; value: string; pos: number }
  | { kind: 'id'; value: string; pos: number }
  | { kind: 'op'; value: string; pos: number };

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '[', ']', '.', ',', '*'];
const ID_START = /[A-Za-z_]/;
const ID_PART = /[A-Za-z0-9_-]/;
const NUMBER = /^-?(?:0x[0-9a-fA-F]+|0o[0-7]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/;

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= src.length) throw new ExprError(`Unterminated string at position ${i + 1}`);
        if (src[j] === "'") {
          if (src[j + 1] === "'") { value += "'"; j += 2; continue; }
          break;
        }
        value += src[j++];
      }
      out.push({ kind: 'str', value, pos: i });
      i = j + 1;
      continue;
    }
    const prev = out[out.length - 1];
    const valueBefore = prev && (prev.kind !== 'op' || prev.value === ')' || prev.value === ']');
    const num = /[0-9.]/.test(c) || (c === '-' && !valueBefore) ? NUMBER.exec(src.slice(i)) : null;
    if (num && !(c === '.' && valueBefore)) {
      out.push({ kind: 'num', value: parseNumber(num[0]), pos: i });
      i += num[0].length;
      continue;
    }
    if (ID_START.test(c)) {
      let j = i + 1;
      while (j < src.length && ID_PART.test(src[j]!)) j++;
      out.push({ kind: 'id', value: src.slice(i, j), pos: i });
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExprError(`Unexpected symbol: '${c}' at position ${i + 1}`);
    out.push({ kind: 'op', value: op, pos: i });
    i += op.length;
  }
  return out;
}

function parseNumber(text: string): number {
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const n = body.startsWith('0x') ? parseInt(body.slice(2), 16)
    : body.startsWith('0o') ? parseInt(body.slice(2), 8) : Number(body);
  return neg ? -n : n;
}

const BINARY_LEVELS: string[][] = [['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>=']];

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[], private readonly src: string) {}

  parse(): Node {
    if (this.tokens.length === 0) throw new ExprError('Empty expression');
    const node = this.binary(0);
    const rest = this.tokens[this.i];
    if (rest) throw this.unexpected(rest);
    return node;
  }

  private binary(level: number): Node {
    if (level >= BINARY_LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.tokens[this.i];
      if (!t || t.kind !== 'op' || !BINARY_LEVELS[level]!.includes(t.value)) return left;
      this.i++;
      left = { type: 'binary', op: t.value, left, right: this.binary(level + 1) };
    }
  }

  private unary(): Node {
    if (this.peekOp('!')) {
      this.i++;
      return { type: 'not', operand: this.unary() };
    }
    return this.postfix(this.primary());
  }

  private postfix(node: Node): Node {
    for (;;) {
      if (this.peekOp('.')) {
        this.i++;
        const t = this.next();
        if (t.kind === 'op' && t.value === '*') node = { type: 'star', object: node };
        else if (t.kind === 'id') node = { type: 'prop', object: node, name: t.value };
        else throw this.unexpected(t);
      } else if (this.peekOp('[')) {
        this.i++;
        if (this.peekOp('*')) {
          this.i++;
          node = { type: 'star', object: node };
        } else {
          node = { type: 'index', object: node, index: this.binary(0) };
        }
        this.expectOp(']');
      } else {
        return node;
      }
    }
  }

  private primary(): Node {
    const t = this.next();
    if (t.kind === 'num' || t.kind === 'str') return { type: 'literal', value: t.value };
    if (t.kind === 'op' && t.value === '(') {
      const inner = this.binary(0);
      this.expectOp(')');
      return inner;
    }
    if (t.kind !== 'id') throw this.unexpected(t);
    if (this.peekOp('(')) return this.call(t.value);
    const lower = t.value.toLowerCase();
    if (lower === 'true' || lower === 'false') return { type: 'literal', value: lower === 'true' };
    if (lower === 'null') return { type: 'literal', value: null };
    if (lower === 'nan') return { type: 'literal', value: NaN };
    if (lower === 'infinity') return { type: 'literal', value: Infinity };
    return { type: 'name', name: t.value };
  }

  private call(name: string): Node {
    this.i++;
    const args: Node[] = [];
    if (!this.peekOp(')')) {
      for (;;) {
        args.push(this.binary(0));
        if (!this.peekOp(',')) break;
        this.i++;
      }
    }
    this.expectOp(')');
    return { type: 'call', name, args };
  }

  private peekOp(value: string): boolean {
    const t = this.tokens[this.i];
    return !!t && t.kind === 'op' && t.value === value;
  }

  private expectOp(value: string): void {
    const t = this.next();
    if (t.kind !== 'op' || t.value !== value) throw this.unexpected(t);
  }

  private next(): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new ExprError(`Unexpected end of expression: '${this.src}'`);
    return t;
  }

  private unexpected(t: Token): ExprError {
    const shown = t.kind === 'str' ? `'${t.value}'` : String(t.value);
    return new ExprError(`Unexpected symbol: '${shown}' at position ${t.pos + 1} in expression: '${this.src}'`);
  }
}

const cache = new Map<string, Node>();

/** Parses one expression (without the `${{ }}`); parsed trees are cached, workflows repeat them. */
export function parseExpr(src: string): Node {
  const hit = cache.get(src);
  if (hit) return hit;
  const node = new Parser(tokenize(src), src.trim()).parse();
  if (cache.size > 2000) cache.clear();
  cache.set(src, node);
  return node;
}

/** Whether the tree calls one of the status functions (which turns off the implied success()). */
export function callsStatusFunction(node: Node): boolean {
  switch (node.type) {
    case 'call':
      return ['success', 'failure', 'always', 'cancelled'].includes(node.name.toLowerCase())
        || node.args.some(callsStatusFunction);
    case 'prop': case 'star': return callsStatusFunction(node.object);
    case 'index': return callsStatusFunction(node.object) || callsStatusFunction(node.index);
    case 'not': return callsStatusFunction(node.operand);
    case 'binary': return callsStatusFunction(node.left) || callsStatusFunction(node.right);
    default: return false;
  }
}
