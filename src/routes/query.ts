import type { Request } from 'express';

// Query parameters read as Gitea reads them: absent or unparsable values are "not given".

export function queryString(req: Request, key: string): string | undefined {
  const v = req.query[key];
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
  return typeof v === 'string' ? v : undefined;
}

export function queryBool(req: Request, key: string): boolean | undefined {
  const v = queryString(req, key)?.toLowerCase();
  if (v === 'true' || v === '1' || v === 't') return true;
  if (v === 'false' || v === '0' || v === 'f') return false;
  return undefined;
}

export function queryInt(req: Request, key: string): number | undefined {
  const v = queryString(req, key);
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined;
  return Number.parseInt(v, 10);
}
