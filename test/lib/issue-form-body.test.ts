import { describe, expect, it } from 'vitest';
import { checkFormValues, formToMarkdown, type FormValues } from '../../src/lib/issue-form-body';
import type { IssueFormField } from '../../src/lib/issue-template';

// An issue form's answers into the issue's markdown, and their checks.

const f = (type: string, id: string, attributes: Record<string, unknown>, validations: Record<string, unknown> = {}, visible = ['form', 'content']): IssueFormField =>
  ({ type, id, attributes, validations, visible });
const values = (text: Record<string, string>, chosen: Record<string, number[]> = {}): FormValues =>
  ({ text: new Map(Object.entries(text)), chosen: new Map(Object.entries(chosen)) });

describe('formToMarkdown', () => {
  it('writes each field under its label, blanks as _No response_, a rendered textarea fenced past its backticks', () => {
    const fields = [
      f('markdown', 'intro', { value: 'Thanks' }, {}, ['form']),
      f('input', 'name', { label: 'Name' }),
      f('textarea', 'logs', { label: 'Logs', render: 'shell' }),
      f('dropdown', 'os', { label: 'OS', options: ['linux', 'mac', 'windows'] }),
      f('input', 'hidden', { label: 'Secret' }, {}, ['form']),
      f('input', 'quiet', { label: 'Quiet', hide_label: true }),
    ];
    const md = formToMarkdown(fields, values({ name: '', logs: 'a ``` b', quiet: 'x', hidden: 'not written' }, { os: [0, 2] }));
    expect(md).toBe('### Name\n\n_No response_\n\n### Logs\n\n````shell\na ``` b\n````\n\n### OS\n\nlinux, windows\n\nx\n\n');
  });

  it('writes checkboxes as a task list, leaving out options hidden from the content', () => {
    const boxes = f('checkboxes', 'terms', { label: 'Terms', options: [{ label: 'Read' }, { label: 'Agreed', visible: ['form'] }, { label: 'Searched' }] });
    expect(formToMarkdown([boxes], values({}, { terms: [2] }))).toBe('### Terms\n\n- [ ] Read\n- [x] Searched\n\n');
  });
});

describe('checkFormValues', () => {
  it('refuses missing required answers, unticked required boxes and text not matching the regex', () => {
    const fields = [
      f('input', 'name', { label: 'Name' }, { required: true }),
      f('input', 'version', { label: 'Version' }, { regex: '^\\d+\\.\\d+$' }),
      f('dropdown', 'os', { label: 'OS', options: ['a'] }, { required: true }),
      f('checkboxes', 'terms', { label: 'Terms', options: [{ label: 'Agree', required: true }] }),
    ];
    expect([...checkFormValues(fields, values({ version: 'one' })).keys()]).toEqual(['name', 'version', 'os', 'terms']);
    expect(checkFormValues(fields, values({ name: 'n', version: '1.2' }, { os: [0], terms: [0] })).size).toBe(0);
  });
});
