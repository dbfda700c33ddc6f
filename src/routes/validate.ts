import * as z from 'zod';
import { InvalidError } from '../lib/errors';

/** Validates a parsed JSON body; the first problem becomes a 422 naming its field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : issue.message;
  throw new InvalidError(field ? `[${field}]: ${message}` : message, field || undefined);
}
