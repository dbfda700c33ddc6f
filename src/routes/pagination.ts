import type { Request, Response } from 'express';

export type Page = { page: number; limit: number; offset: number };

function intParam(value: unknown): number {
  const n = typeof value === 'string' ? Number.parseInt(value, 10) : NaN;
  return Number.isFinite(n) ? n : 0;
}

/** Lenient, as Gitea: page <= 0 is 1; limit <= 0 is the default; limit over the max is the max. */
export function pageOf(req: Request): Page {
  const { default_paging_num: def, max_response_items: max } = req.ctx.config.api;
  const page = Math.max(1, intParam(req.query.page));
  let limit = intParam(req.query.limit);
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
  const current = Math.min(page.page, Math.max(totalPages, 1));
  if (page.page < totalPages) links.push(linkTo(page.page + 1, 'next'));
  if (current !== totalPages) links.push(linkTo(totalPages, 'last'));
  if (page.page > 1) links.push(linkTo(1, 'first'));
  if (page.page > 1) links.push(linkTo(Math.min(page.page - 1, totalPages), 'prev'));
  if (links.length) {
    res.setHeader('Link', links.join(','));
    exposeHeader(res, 'Link');
  }
}
