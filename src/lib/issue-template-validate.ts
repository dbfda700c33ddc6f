import type { IssueFormField, IssueTemplate, TemplateKind } from './issue-template';

// Gitea's issue template validation (modules/issue/template): the first problem, with its
// position in the form, e.g. "body[2](dropdown): 'options' is required and should be a array".

const at = (idx: number, type: string, option?: number) =>
  `body[${idx}](${type})${option === undefined ? '' : `, option[${option}]`}`;

function fail(position: string, message: string): never {
  throw new Error(`${position}: ${message}`);
}

function checkStrings(position: string, m: Record<string, unknown>, required: boolean, ...names: string[]): void {
  for (const name of names) {
    if (!(name in m)) {
      if (required) fail(position, `'${name}' is required`);
      return;
    }
    const v = m[name];
    if (typeof v !== 'string') fail(position, `'${name}' should be a string`);
    if (required && !v.trim()) fail(position, `'${name}' is required`);
  }
}

function checkBools(position: string, m: Record<string, unknown>, ...names: string[]): void {
  for (const name of names) {
    if (!(name in m)) return;
    if (typeof m[name] !== 'boolean') fail(position, `'${name}' should be a bool`);
  }
}

function checkCheckboxOption(position: string, option: unknown): void {
  if (typeof option !== 'object' || option === null || Array.isArray(option)) fail(position, 'should be a dictionary');
  const opt = option as Record<string, unknown>;
  if (typeof opt.label !== 'string' || !opt.label) fail(position, '\'label\' is required and should be a string');
  let visibleOnForm = true;
  if ('visible' in opt) {
    if (!Array.isArray(opt.visible)) fail(position, '\'visible\' should be list');
    for (const v of opt.visible) {
      if (v !== 'form' && v !== 'content') fail(position, '\'visible\' list can only contain strings of \'form\' and \'content\'');
    }
    visibleOnForm = opt.visible.includes('form');
  }
  if ('required' in opt) {
    if (typeof opt.required !== 'boolean') fail(position, '\'required\' should be a bool');
    if (!visibleOnForm) fail(position, 'can not require a hidden checkbox');
  }
}

function checkOptions(field: IssueFormField, idx: number): void {
  const options = field.attributes.options;
  if (!Array.isArray(options) || !options.length) fail(at(idx, field.type), '\'options\' is required and should be a array');
  options.forEach((option, i) => {
    if (field.type === 'dropdown' && typeof option !== 'string') fail(at(idx, field.type, i), 'should be a string');
    if (field.type === 'checkboxes') checkCheckboxOption(at(idx, field.type, i), option);
  });
}

function checkDropdownDefault(position: string, attributes: Record<string, unknown>): void {
  if (!('default' in attributes)) return;
  const v = attributes.default;
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(position, '\'default\' should be an int');
  const options = attributes.options as unknown[];
  if (v < 0 || v >= options.length) fail(position, 'the value of \'default\' is out of range');
}

function checkId(field: IssueFormField, idx: number, ids: Set<string>): void {
  if (field.type === 'markdown') return;
  const position = at(idx, field.type);
  if (!field.id) fail(position, '\'id\' is required');
  if (/[^\w-]/.test(field.id)) fail(position, '\'id\' should contain only alphanumeric, \'-\' and \'_\'');
  if (ids.has(field.id)) fail(position, '\'id\' should be unique');
  ids.add(field.id);
}

function checkByType(field: IssueFormField, idx: number): void {
  const position = at(idx, field.type);
  const { attributes: a, validations: v } = field;
  switch (field.type) {
    case 'markdown': return checkStrings(position, a, true, 'value');
    case 'textarea': return checkStrings(position, a, false, 'description', 'placeholder', 'value', 'render');
    case 'input':
      checkStrings(position, a, false, 'description', 'placeholder', 'value');
      checkBools(position, v, 'is_number');
      return checkStrings(position, v, false, 'regex');
    case 'dropdown':
      checkStrings(position, a, false, 'description');
      checkBools(position, a, 'multiple');
      checkOptions(field, idx);
      return checkDropdownDefault(position, a);
    case 'checkboxes':
      checkStrings(position, a, false, 'description');
      return checkOptions(field, idx);
    default: fail(position, 'unknown type');
  }
}

function checkRequired(field: IssueFormField, idx: number): void {
  if (field.type === 'markdown' || field.type === 'checkboxes') return;
  const position = at(idx, field.type);
  checkBools(position, field.validations, 'required');
  const onForm = !field.visible.length || field.visible.includes('form');
  if (field.validations.required === true && !onForm) fail(position, 'can not require a hidden field');
}

/** Throws the first reason the template is invalid. */
export function validateTemplate(it: IssueTemplate, kind: TemplateKind): void {
  if (!it.name.trim()) throw new Error('\'name\' is required');
  if (!it.about.trim()) throw new Error('\'about\' is required');
  if (kind !== 'yaml') return;
  if (!it.body.length) throw new Error('\'body\' is required');
  const ids = new Set<string>();
  it.body.forEach((field, idx) => {
    checkId(field, idx, ids);
    if (field.type !== 'markdown') checkStrings(at(idx, field.type), field.attributes, true, 'label');
    checkByType(field, idx);
    checkRequired(field, idx);
  });
}
