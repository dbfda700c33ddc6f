import type { Request, Response } from 'express';
import { renderMarkup } from '../../services/markdown';

/**
 * POST /-/markdown: the page script's preview of a text area (JSON `{text, context}`, the
 * session and the CSRF header); the same renderer as POST /api/v1/markdown. HTML fragment back.
 */
export async function markdownPreview(req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as { text?: unknown; context?: unknown };
  const text = typeof body.text === 'string' ? body.text : '';
  const context = typeof body.context === 'string' ? body.context : '';
  const out = await renderMarkup(req.ctx.h, req.ctx.doer, { text, mode: context ? 'gfm' : 'markdown', context, filePath: '', wiki: false });
  res.setHeader('Cache-Control', 'no-store');
  // A fragment for the page's script, never a page of its own.
  res.setHeader('Content-Security-Policy', 'default-src \'none\'; sandbox');
  res.type('html').send(out);
}
