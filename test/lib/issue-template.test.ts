import { describe, expect, it } from 'vitest';
import { parseIssueConfig, parseIssueTemplate, templateKind } from '../../src/lib/issue-template';
import { checkAllowedType, detectContentType } from '../../src/lib/content-type';

const form = (body: string) => `name: N\nabout: A\nbody:\n${body}`;

describe('issue templates', () => {
  it('knows template files by extension, leaving config.yaml out', () => {
    expect(templateKind('.gitea/ISSUE_TEMPLATE/bug.md')).toBe('md');
    expect(templateKind('x/feature.yml')).toBe('yaml');
    expect(templateKind('x/config.yaml')).toBe('');
    expect(templateKind('x/notes.txt')).toBe('');
  });

  it('reads labels as a list or a comma-separated string, and description as about', () => {
    const it1 = parseIssueTemplate('a.md', '---\nname: X\ndescription: D\nlabels: "a, b,,c"\n---\nbody');
    expect(it1).toMatchObject({ name: 'X', about: 'D', labels: ['a', 'b', 'c'], content: 'body' });
  });

  it('reports Gitea\'s validation errors with the field position', () => {
    const cases: [string, string][] = [
      ['name: N\nabout: A\n', '\'body\' is required'],
      [form('  - type: input\n    attributes: {}\n'), 'body[0](input): \'label\' is required'],
      [form('  - type: nope\n    attributes: {label: L}\n'), 'body[0](nope): unknown type'],
      [form('  - type: input\n    id: a b\n    attributes: {label: L}\n'), 'body[0](input): \'id\' should contain only alphanumeric, \'-\' and \'_\''],
      [form('  - type: input\n    id: x\n    attributes: {label: L}\n  - type: textarea\n    id: x\n    attributes: {label: M}\n'), 'body[1](textarea): \'id\' should be unique'],
      [form('  - type: dropdown\n    attributes: {label: L}\n'), 'body[0](dropdown): \'options\' is required and should be a array'],
      [form('  - type: dropdown\n    attributes: {label: L, options: [a], default: 3}\n'), 'body[0](dropdown): the value of \'default\' is out of range'],
      [form('  - type: checkboxes\n    attributes:\n      label: L\n      options: [x]\n'), 'body[0](checkboxes), option[0]: should be a dictionary'],
      [form('  - type: input\n    attributes: {label: L}\n    validations: {required: true}\n    visible: [content]\n'), 'body[0](input): can not require a hidden field'],
      ['about: A\nbody: []\n', '\'name\' is required'],
    ];
    for (const [text, message] of cases) expect(() => parseIssueTemplate('f.yaml', text), text).toThrow(message);
  });

  it('checks contact links of the configuration', () => {
    expect(parseIssueConfig('')).toEqual({ blank_issues_enabled: true, contact_links: [] });
    expect(() => parseIssueConfig('contact_links:\n  - name: a\n    url: https://x\n')).toThrow('contact_link at position 1 is missing about key');
    expect(() => parseIssueConfig('contact_links:\n  - name: a\n    url: not a url\n    about: b\n')).toThrow('not a url is not a valid URL');
  });
});

describe('upload types', () => {
  it('sniffs content as Go does for the common cases', () => {
    expect(detectContentType(Buffer.from('hello'))).toBe('text/plain; charset=utf-8');
    expect(detectContentType(Buffer.from('<!DOCTYPE html><p>'))).toBe('text/html; charset=utf-8');
    expect(detectContentType(Buffer.from([0, 1, 2]))).toBe('application/octet-stream');
    expect(detectContentType(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
  });

  it('allows by extension, MIME type or wildcard, everything when empty', () => {
    expect(checkAllowedType(Buffer.from('x'), 'a.txt', '')).toBeNull();
    expect(checkAllowedType(Buffer.from('x'), 'a.TXT', '.txt')).toBeNull();
    expect(checkAllowedType(Buffer.from('x'), 'a', 'text/*')).toBeNull();
    expect(checkAllowedType(Buffer.from('x'), 'a', 'image/png|*/*')).toBeNull();
    expect(checkAllowedType(Buffer.from('x'), 'a.bin', 'image/*')).toMatch(/not allowed/);
  });
});
