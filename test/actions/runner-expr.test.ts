import { describe, expect, it } from 'vitest';
import { evalIf, evaluate, EXPR_FUNCTIONS, ExprError, interpolate, singleExpression } from '../../src/lib/actions-expr';

const ctx = {
  github: { event_name: 'push', ref: 'refs/heads/main', event: { inputs: { name: 'World' }, number: 7 } },
  env: { GREETING: 'Hello', EMPTY: '' },
  matrix: { os: 'linux', node: 20, list: ['a', 'B'] },
  needs: { build: { result: 'success', outputs: { v: '1' } }, lint: { result: 'failure', outputs: {} } },
  steps: { 'my-step': { outputs: { answer: '42' }, outcome: 'success', conclusion: 'success' } },
  secrets: { TOKEN: 's3cr3t' },
};
const ok = { success: true, failure: false, cancelled: false };
const failed = { success: false, failure: true, cancelled: false };
const cancelled = { success: false, failure: false, cancelled: true };

describe('literals and access', () => {
  it.each([
    ['true', true], ['FALSE', false], ['null', null], ['42', 42], ['-1.5', -1.5], ['0xff', 255],
    ['1e3', 1000], ["'it''s'", "it's"], ["''", ''],
  ])('%s', (expr, value) => expect(evaluate(expr, ctx)).toEqual(value));

  it('reads contexts, properties and indexes, case-insensitively', () => {
    expect(evaluate('github.event_name', ctx)).toBe('push');
    expect(evaluate('GITHUB.EVENT.inputs.NAME', ctx)).toBe('World');
    expect(evaluate("github['event']['number']", ctx)).toBe(7);
    expect(evaluate('matrix.list[1]', ctx)).toBe('B');
    expect(evaluate('steps.my-step.outputs.answer', ctx)).toBe('42');
    expect(evaluate('matrix.list[5]', ctx)).toBeNull();
    expect(evaluate('github.nope.deeper', ctx)).toBeNull();
    expect(evaluate('unknown_context', ctx)).toBeNull();
  });

  it('filters objects with .* and maps properties over the result', () => {
    expect(evaluate('needs.*.result', ctx)).toEqual(['success', 'failure']);
    expect(evaluate("contains(needs.*.result, 'FAILURE')", ctx)).toBe(true);
    expect(evaluate("contains(needs.*.result, 'cancelled')", ctx)).toBe(false);
  });
});

describe('operators', () => {
  it.each([
    ["'abc' == 'ABC'", true], ["'a' != 'b'", true], ['1 == 1.0', true], ["'1' == 1", true],
    ['null == 0', true], ["'' == 0", true], ['true == 1', true], ["'x' == 1", false],
    ['2 > 1', true], ["'b' > 'A'", true], ['1 <= 1', true], ["'abc' < 5", false],
    ['!true', false], ['!0', true], ["!''", true], ['!matrix', false],
    ["(1 == 1) && 'yes'", 'yes'], ["0 && 'yes'", 0], ["'' || 'fallback'", 'fallback'], ["'v' || 'fallback'", 'v'],
    ['1 == 1 && 2 == 2 || false', true], ['false || 1 < 2 && 3 > 2', true],
    ["github.event_name == 'push' && !startsWith(github.ref, 'refs/tags/')", true],
    ['matrix == matrix', true], ['matrix.list == matrix.list', true], ["fromJSON('[]') == fromJSON('[]')", false],
  ])('%s', (expr, value) => expect(evaluate(expr, ctx)).toEqual(value));
});

describe('functions', () => {
  it.each([
    ["contains('Hello world', 'WORLD')", true], ["contains(matrix.list, 'b')", true], ["contains(matrix.list, 'c')", false],
    ["startsWith(github.ref, 'refs/HEADS/')", true], ["endsWith(github.ref, '/main')", true],
    ["format('{0}, {1}!', env.GREETING, 'you')", 'Hello, you!'], ["format('{{0}} {0}', 1)", '{0} 1'],
    ['join(matrix.list)', 'a,B'], ["join(matrix.list, ' | ')", 'a | B'], ["join('x', '-')", 'x'],
    ["fromJSON('{\"a\": [1, 2]}').a[1]", 2], ["fromJSON('true')", true],
    ['toJSON(matrix.list)', '[\n  "a",\n  "B"\n]'], ['toJson(null)', 'null'],
    ['success()', true], ['failure()', false], ['always()', true], ['cancelled()', false],
  ])('%s', (expr, value) => expect(evaluate(expr, ctx)).toEqual(value));

  it('hashFiles is the caller\'s', () => {
    expect(() => evaluate("hashFiles('**/x')", ctx)).toThrow(ExprError);
    expect(evaluate("hashFiles('a', 'b')", ctx, { hashFiles: (p) => p.join('+') })).toBe('a+b');
    const carrying = { ...ctx, [EXPR_FUNCTIONS]: { hashFiles: (p: string[]) => `h(${p})` } };
    expect(interpolate("k-${{ hashFiles('x') }}", carrying)).toBe('k-h(x)');
    expect(evaluate('hashFiles', carrying)).toBeNull(); // not a context
  });

  it('rejects unknown functions, wrong arity and bad formats', () => {
    expect(() => evaluate('nope()', ctx)).toThrow(/Unrecognized function/);
    expect(() => evaluate("contains('a')", ctx)).toThrow(/arguments/);
    expect(() => evaluate("format('{1}', 'a')", ctx)).toThrow(/more arguments/);
    expect(() => evaluate("format('{x}', 'a')", ctx)).toThrow(/invalid/);
    expect(() => evaluate("fromJSON('{')", ctx)).toThrow(/fromJSON/);
  });
});

describe('syntax errors', () => {
  it.each(['', '1 ==', "'open", 'a.', '(1', 'a b', 'a ~ b', 'f(1,'])('%s', (expr) => {
    expect(() => evaluate(expr, ctx)).toThrow(ExprError);
  });
});

describe('interpolate', () => {
  it('replaces each expression with its string form', () => {
    expect(interpolate('${{ env.GREETING }}, ${{ github.event.inputs.name }}!', ctx)).toBe('Hello, World!');
    expect(interpolate('n=${{ github.event.number }} b=${{ true }} z=${{ null }}', ctx)).toBe('n=7 b=true z=');
    expect(interpolate('no expressions', ctx)).toBe('no expressions');
    expect(interpolate("${{ format('{0}}}', 'x') }}", ctx)).toBe('x}');
    expect(interpolate('${{ matrix.list }}', ctx)).toBe('[\n  "a",\n  "B"\n]');
  });

  it('fails on an unclosed expression', () => {
    expect(() => interpolate('echo ${{ env.X', ctx)).toThrow(ExprError);
  });

  it('singleExpression tells a whole-value expression apart', () => {
    expect(singleExpression(' ${{ fromJSON(x) }} ')).toBe(' fromJSON(x) ');
    expect(singleExpression('a ${{ x }}')).toBeNull();
    expect(singleExpression('${{ x }} and ${{ y }}')).toBeNull();
  });
});

describe('evalIf', () => {
  it('implies success() when no status function is called', () => {
    expect(evalIf("github.event_name == 'push'", ctx, ok)).toBe(true);
    expect(evalIf("github.event_name == 'push'", ctx, failed)).toBe(false);
    expect(evalIf("github.event_name == 'push'", ctx, cancelled)).toBe(false);
    expect(evalIf('', ctx, ok)).toBe(true);
    expect(evalIf('', ctx, failed)).toBe(false);
  });

  it('honours status functions', () => {
    expect(evalIf('failure()', ctx, failed)).toBe(true);
    expect(evalIf('failure()', ctx, ok)).toBe(false);
    expect(evalIf('always()', ctx, cancelled)).toBe(true);
    expect(evalIf('cancelled()', ctx, cancelled)).toBe(true);
    expect(evalIf('success()', ctx, cancelled)).toBe(false);
    expect(evalIf("always() && matrix.os == 'linux'", ctx, failed)).toBe(true);
    expect(evalIf("!cancelled() && needs.build.result == 'success'", ctx, failed)).toBe(true);
  });

  it('accepts the condition wrapped in ${{ }}', () => {
    expect(evalIf("${{ matrix.os == 'linux' }}", ctx, ok)).toBe(true);
    expect(evalIf("${{ matrix.os == 'mac' }}", ctx, ok)).toBe(false);
    expect(evalIf('${{ failure() }}', ctx, failed)).toBe(true);
    expect(evalIf("${{ env.EMPTY }} == 'x'", ctx, ok)).toBe(true);
  });

  it('is falsy for empty strings, zero and null', () => {
    expect(evalIf('env.EMPTY', ctx, ok)).toBe(false);
    expect(evalIf('0', ctx, ok)).toBe(false);
    expect(evalIf('github.nothing', ctx, ok)).toBe(false);
    expect(evalIf("'false'", ctx, ok)).toBe(true);
  });
});
