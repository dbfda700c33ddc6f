import type { Request, Response } from 'express';
import { renamedUserName } from '../../services/user/users';

/**
 * After a user or organization was renamed, a request naming it by its old name is sent to the
 * same path under the new one with a 307, as Gitea's RedirectToUser. False when `name` is no
 * old name of an account the caller may see (the caller answers its own 404 then).
 */
export async function redirectRenamedOwner(req: Request, res: Response, name: string): Promise<boolean> {
  const renamed = await renamedUserName(req.ctx.db, name, req.ctx.doer);
  if (!renamed) return false;
  const [path, query] = splitQuery(req.originalUrl);
  const escaped = encodeURIComponent(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const moved = path.replace(new RegExp(`/${escaped}(?=/|$)`, 'i'), `/${encodeURIComponent(renamed)}`);
  res.redirect(307, `${moved}${query}`);
  return true;
}

function splitQuery(url: string): [string, string] {
  const i = url.indexOf('?');
  return i < 0 ? [url, ''] : [url.slice(0, i), url.slice(i)];
}
