import type { DB } from '../../db/connect';
import type { Label } from '../../db/schema';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  countLabels, deleteLabelRow, getLabelById, getLabelByName, insertLabel, listLabels, updateLabel,
  type LabelFields, type LabelScope, type LabelSort,
} from '../../models/label';

// Label rules shared by organization labels (here, for /orgs/{org}/labels) and repository
// labels (the issues area): every function takes the scope that owns the label.

export type { LabelScope };

const COLOR = /^#?(?:[0-9a-f]{6}|[0-9a-f]{3})$/;

/** Gitea's NormalizeColor: with or without '#', 3 or 6 hex digits; stored as `#rrggbb`. */
export function normalizeLabelColor(input: string): string {
  const color = input.trim().toLowerCase();
  if (!COLOR.test(color)) throw new InvalidError(`bad color code: ${input.trim()}`, 'color');
  const hex = color.replace(/^#/, '');
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

export type CreateLabelInput = { name: string; color: string; description?: string; exclusive?: boolean; is_archived?: boolean };
export type EditLabelInput = Partial<CreateLabelInput>;

const SORTS: readonly string[] = ['reversealphabetically', 'leastissues', 'mostissues'];
const sortOf = (sort: string | undefined): LabelSort => (sort && SORTS.includes(sort) ? sort as LabelSort : 'alpha');

export async function listScopedLabels(db: DB, scope: LabelScope, sort: string | undefined, page: { offset: number; limit: number }) {
  const [labels, total] = await Promise.all([
    listLabels(db, scope, sortOf(sort), page.offset, page.limit), countLabels(db, scope),
  ]);
  return { labels, total };
}

export async function createLabel(db: DB, scope: LabelScope, input: CreateLabelInput): Promise<Label> {
  if (!input.name.trim()) throw new InvalidError('[name]: Required', 'name');
  return insertLabel(db, scope, {
    name: input.name, color: normalizeLabelColor(input.color), description: input.description ?? '',
    exclusive: !!input.exclusive, archived: !!input.is_archived,
  }, nowUnix());
}

const notFound = (id: string | number) => new NotFoundError(`label does not exist [id: ${id}]`);

/** By id, or by name when `{id}` is not a number (as Gitea's GET .../labels/{id}). */
export async function getLabel(db: DB, scope: LabelScope, idOrName: string): Promise<Label> {
  const label = /^\d+$/.test(idOrName)
    ? await getLabelById(db, scope, Number(idOrName))
    : await getLabelByName(db, scope, idOrName);
  if (!label) throw notFound(idOrName);
  return label;
}

async function byId(db: DB, scope: LabelScope, id: string): Promise<Label> {
  const label = /^\d+$/.test(id) ? await getLabelById(db, scope, Number(id)) : undefined;
  if (!label) throw notFound(id);
  return label;
}

/**
 * The fields that are present change; as Gitea's EditLabel, an absent `is_archived` means
 * not archived.
 */
export async function editLabel(db: DB, scope: LabelScope, id: string, edit: EditLabelInput): Promise<Label> {
  const label = await byId(db, scope, id);
  if (edit.name !== undefined && !edit.name.trim()) throw new InvalidError('[name]: Required', 'name');
  const fields: LabelFields = {
    name: edit.name ?? label.name,
    color: edit.color !== undefined ? normalizeLabelColor(edit.color) : label.color,
    description: edit.description ?? label.description,
    exclusive: edit.exclusive ?? label.exclusive === 1,
    archived: edit.is_archived === true,
  };
  await updateLabel(db, label.id, fields, nowUnix());
  return (await getLabelById(db, scope, label.id))!;
}

export async function deleteLabel(db: DB, scope: LabelScope, id: string): Promise<void> {
  const label = await byId(db, scope, id);
  await deleteLabelRow(db, label.id);
}
