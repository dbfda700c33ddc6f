import { expectShape } from './swagger';

/**
 * Gitea sends absent optional objects and times as null (milestone, assignee(s), closed_at,
 * due_date, pull_request, due_on...), which the reference does not mark nullable: those nulls
 * are dropped before the body is checked against the definition.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

/** `name` is a definition, or `[Definition]` for a list of it. */
export function expectNullableShape(body: unknown, name: string): void {
  expectShape(withoutNulls(body), name);
}
