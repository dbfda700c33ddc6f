import { describe, expect, it } from 'vitest';
import { compileGlob, compileGlobOrLiteral, hasGlobSyntax } from '../../src/lib/glob';
import { effectiveRule, filePatterns, matchesFile, toRule } from '../../src/services/repo/protection-rules';

const branchGlob = (p: string) => compileGlob(p, '/');

describe('glob matching as Gitea (gobwas/glob)', () => {
  it('`*` stays within a segment, `**` spans segments', () => {
    expect(branchGlob('release/*').test('release/1.0')).toBe(true);
    expect(branchGlob('release/*').test('release/1/x')).toBe(false);
    expect(branchGlob('release/**').test('release/1/x')).toBe(true);
    expect(branchGlob('**').test('any/thing/at/all')).toBe(true);
    expect(branchGlob('*').test('a/b')).toBe(false);
  });

  it('knows ?, classes, alternatives and escapes', () => {
    expect(branchGlob('v?').test('v1')).toBe(true);
    expect(branchGlob('v?').test('v/')).toBe(false);
    expect(branchGlob('[a-c]x').test('bx')).toBe(true);
    expect(branchGlob('[!a-c]x').test('bx')).toBe(false);
    expect(branchGlob('{main,dev}').test('dev')).toBe(true);
    expect(branchGlob('{main,dev}').test('devx')).toBe(false);
    expect(branchGlob('a\\*').test('a*')).toBe(true);
    expect(branchGlob('a\\*').test('ab')).toBe(false);
    expect(branchGlob('a.b').test('axb')).toBe(false);
  });

  it('treats invalid patterns literally when asked, and spots glob syntax', () => {
    expect(() => compileGlob('[abc')).toThrow();
    expect(compileGlobOrLiteral('[abc').test('[abc')).toBe(true);
    expect(hasGlobSyntax('feature/x')).toBe(false);
    expect(hasGlobSyntax('feature/*')).toBe(true);
  });

  it('file patterns stop `*` at dots and slashes, case-insensitively', () => {
    const p = filePatterns('*.lock; docs/** ;[bad');
    expect(p).toHaveLength(2);
    expect(matchesFile(p, 'Yarn.LOCK')).toBe(true);
    expect(matchesFile(p, 'sub/yarn.lock')).toBe(false);
    expect(matchesFile(p, 'docs/a/b.md')).toBe(true);
  });
});

describe('effective rule', () => {
  const row = (id: number, rule_name: string, priority: number) =>
    toRule({ id, repo_id: 1, rule_name, priority, settings: '{}', created_unix: id, updated_unix: id });

  it('prefers the exact name (case-insensitively), then the lowest priority number', () => {
    const rules = [row(1, '**', 1), row(2, 'release/*', 2), row(3, 'Main', 3)];
    expect(effectiveRule(rules, 'main')?.row.rule_name).toBe('Main');
    expect(effectiveRule(rules, 'release/1')?.row.rule_name).toBe('**');
    expect(effectiveRule([row(1, '**', 2), row(2, 'release/*', 1)], 'release/1')?.row.rule_name).toBe('release/*');
    expect(effectiveRule([row(2, 'release/*', 1)], 'other')).toBeNull();
  });
});
