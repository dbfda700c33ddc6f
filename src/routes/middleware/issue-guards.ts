import type { RequestHandler } from 'express';

/**
 * `{index}` and `{id}` of issue routes are numbers: anything else is left to the routes that
 * follow (`/issues/pinned`, say) and, when none takes it, to the 404 of unknown routes.
 */
export function numericParam(name: string): RequestHandler {
  return (req, _res, next) => {
    if (/^\d+$/.test(String(req.params[name] ?? ''))) next();
    else next('route');
  };
}

export const numericIndex = numericParam('index');
export const numericId = numericParam('id');
