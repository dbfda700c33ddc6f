import type { Request, Response } from 'express';
import * as z from 'zod';
import { InvalidError } from '../../../lib/errors';
import { renderMarkup, renderRaw } from '../../../services/markdown';
import { parseBody } from '../../validate';

// Gitea decodes MarkdownOption / MarkupOption with Go's JSON decoder, which matches keys
// case-insensitively: `text`, `Text` and `TEXT` are the same field.

const optionSchema = z.object({
  text: z.string().default(''),
  mode: z.string().default(''),
  context: z.string().default(''),
  filepath: z.string().default(''),
  wiki: z.boolean().default(false),
});

const FIELD_NAMES: Record<string, string> = { text: 'Text', mode: 'Mode', context: 'Context', filepath: 'FilePath', wiki: 'Wiki' };

function readOption(body: unknown, withFilePath: boolean) {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new InvalidError('request body must be a JSON object');
  }
  const folded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body ?? {})) {
    const lower = key.toLowerCase();
    if (!(lower in FIELD_NAMES) || (!withFilePath && lower === 'filepath')) continue;
    // The exact spelling wins over another casing, as in Go.
    if (key === FIELD_NAMES[lower] || !(lower in folded)) folded[lower] = value;
  }
  try {
    return parseBody(optionSchema, folded);
  } catch (err) {
    // Report the field under the reference's spelling.
    if (err instanceof InvalidError && err.field) throw new InvalidError(err.message.replace(`[${err.field}]`, `[${FIELD_NAMES[err.field] ?? err.field}]`), err.field);
    throw err;
  }
}

function sendHtml(res: Response, html: string): void {
  res.status(200).type('text/html; charset=utf-8').send(html);
}

export async function markdown(req: Request, res: Response): Promise<void> {
  const o = readOption(req.body, false);
  sendHtml(res, await renderMarkup(req.ctx.h, req.ctx.doer, { ...o, filePath: '' }));
}

export async function markup(req: Request, res: Response): Promise<void> {
  const o = readOption(req.body, true);
  sendHtml(res, await renderMarkup(req.ctx.h, req.ctx.doer, { ...o, filePath: o.filepath }));
}

export async function markdownRaw(req: Request, res: Response): Promise<void> {
  const text = typeof req.body === 'string' ? req.body : Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  sendHtml(res, await renderRaw(req.ctx.h, req.ctx.doer, text));
}
