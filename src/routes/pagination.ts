import type { Request, Response } from 'express';
import { LIMIT, PAGE } from './query';

export type Page = { page: number; limit: number; offset: number };

/** As Gitea's ctx.FormInt (strconv.Atoi): a whole decimal integer, else 0 ("2abc" is not 2). */
function intParam(value: unknown): number {
  const n = typeof value === 'string' && /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : 0;
}

/** Lenient, as Gitea: page <= 0 is 1; limit <= 0 is the default; limit over the max is the max. */
export function pageOf(req: Request): Page {
  const { default_paging_num: def, max_response_items: max } = req.ctx.config.api;
  const page = Math.max(1, intParam(req.query[PAGE.name]));
  let limit = intParam(req.query[LIMIT.name]);
  if (limit <= 0) limit = def;
  if (limit > max) limit = max;
  return { page, limit, offset: (page - 1) * limit };
}

function exposeHeader(res: Response, name: string): void {
  const current = res.getHeader('Access-Control-Expose-Headers');
  const list = current ? String(current).split(',').map((s) => s.trim()).filter(Boolean) : [];
  if (!list.includes(name)) list.push(name);
  res.setHeader('Access-Control-Expose-Headers', list.join(', '));
}

export function setTotalCount(res: Response, total: number): void {
  res.setHeader('X-Total-Count', String(total));
  exposeHeader(res, 'X-Total-Count');
}

/** X-Total-Count and Link (next, last, first, prev: Gitea's order), absolute from root_url. */
export function setPaginationHeaders(req: Request, res: Response, total: number, page: Page): void {
  setTotalCount(res, total);
  const totalPages = Math.max(1, Math.ceil(total / page.limit));
  const linkTo = (p: number, rel: string) => {
    const url = new URL(req.originalUrl, 'http://x');
    url.searchParams.set('page', String(p));
    url.searchParams.sort();
    const base = req.ctx.config.server.root_url.replace(/\/$/, '');
    return `<${base}${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  // As Gitea's paginator: a page past the end counts as the last page.
  const current = Math.min(page.page, totalPages);
  if (current < totalPages) links.push(linkTo(current + 1, 'next'));
  if (current < totalPages) links.push(linkTo(totalPages, 'last'));
  if (current > 1) links.push(linkTo(1, 'first'));
  if (current > 1) links.push(linkTo(current - 1, 'prev'));
  if (links.length) {
    res.setHeader('Link', links.join(','));
    exposeHeader(res, 'Link');
  }
}
