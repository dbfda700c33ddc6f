import type { RequestHandler } from 'express';

/**
 * A handler whose module loads with the first request it serves, for areas most starts never
 * reach (bench/startup: evaluating every module was most of a start's time and memory).
 */
export function lazyHandler(load: () => Promise<RequestHandler>): RequestHandler {
  let handler: Promise<RequestHandler> | undefined;
  return (req, res, next) => {
    (handler ??= load()).then((h) => h(req, res, next)).catch(next);
  };
}
