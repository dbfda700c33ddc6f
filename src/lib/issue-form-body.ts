import type { IssueFormField } from './issue-template';

// An issue form (a YAML template's body) filled in: the values its page posted, checked against
// the fields' validations, and written into the issue's markdown as Gitea writes it: each field
// visible in the content under a `### label` heading, blanks as `_No response_`, checkboxes as
// a task list, a textarea with `render` as a code block.

/** The values of a form's fields: a field's text, or its chosen options' positions. */
export type FormValues = { text: Map<string, string>; chosen: Map<string, number[]> };

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

export const fieldLabel = (f: IssueFormField): string => str(f.attributes.label);

/** The options of a dropdown (strings) or checkboxes (`{label, required, visible}`). */
export function fieldOptions(f: IssueFormField): { label: string; required: boolean; inContent: boolean }[] {
  const raw = Array.isArray(f.attributes.options) ? f.attributes.options : [];
  return raw.map((o: unknown) => {
    if (o && typeof o === 'object') {
      const m = o as Record<string, unknown>;
      const visible = Array.isArray(m.visible) ? m.visible.map(str) : ['form', 'content'];
      return { label: str(m.label), required: m.required === true, inContent: visible.includes('content') };
    }
    return { label: str(o), required: false, inContent: true };
  });
}

const NO_RESPONSE = '_No response_';

/** The shortest run of backticks (three or more) that the value does not contain. */
function fence(value: string): string {
  let n = 3;
  while (value.includes('`'.repeat(n))) n++;
  return '`'.repeat(n);
}

/** Why the values do not satisfy the form, per field id (empty when they do). */
export function checkFormValues(fields: IssueFormField[], values: FormValues): Map<string, string> {
  const errors = new Map<string, string>();
  for (const f of fields) {
    if (!f.visible.includes('form') || f.type === 'markdown') continue;
    const required = f.validations.required === true;
    if (f.type === 'checkboxes') {
      const chosen = new Set(values.chosen.get(f.id) ?? []);
      if (fieldOptions(f).some((o, i) => o.required && !chosen.has(i))) errors.set(f.id, 'Tick every required box.');
      continue;
    }
    if (f.type === 'dropdown') {
      if (required && !(values.chosen.get(f.id) ?? []).length) errors.set(f.id, 'Choose an option.');
      continue;
    }
    const text = (values.text.get(f.id) ?? '').trim();
    if (required && !text) { errors.set(f.id, 'This field is required.'); continue; }
    const pattern = str(f.validations.regex);
    if (text && pattern) {
      let re: RegExp | null = null;
      try { re = new RegExp(pattern, 'u'); } catch { re = null; }
      if (re && !re.test(text)) errors.set(f.id, `Match the pattern ${pattern}.`);
    }
  }
  return errors;
}

function fieldMarkdown(f: IssueFormField, values: FormValues): string {
  const options = fieldOptions(f);
  const chosen = new Set(values.chosen.get(f.id) ?? []);
  switch (f.type) {
    case 'checkboxes':
      return options.map((o, i) => (o.inContent ? `- [${chosen.has(i) ? 'x' : ' '}] ${o.label}\n` : '')).join('');
    case 'dropdown': {
      const picked = options.filter((_o, i) => chosen.has(i)).map((o) => o.label);
      return `${picked.length ? picked.join(', ') : NO_RESPONSE}\n`;
    }
    default: {
      const value = (values.text.get(f.id) ?? '').trim();
      if (!value) return `${NO_RESPONSE}\n`;
      const render = str(f.attributes.render);
      if (f.type === 'textarea' && render) { const q = fence(value); return `${q}${render}\n${value}\n${q}\n`; }
      return `${value}\n`;
    }
  }
}

/** The issue's markdown from a filled-in form. */
export function formToMarkdown(fields: IssueFormField[], values: FormValues): string {
  const out: string[] = [];
  for (const f of fields) {
    if (f.type === 'markdown' || !f.visible.includes('content')) continue;
    const hide = f.attributes.hide_label === true;
    out.push(`${hide ? '' : `### ${fieldLabel(f)}\n\n`}${fieldMarkdown(f, values)}\n`);
  }
  return out.join('');
}
