import type { RequestHandler } from 'express';

/**
 * A handler whose module loads with the first request it serves, for areas most starts never
 * reach (bench/startup: evaluating every module was most of a start's time and memory). Once
 * loaded it is called directly: every web page passes three of these (LFS, git, the pages), and
 * a promise's turn through each was a share of a small page's time.
 */
export function lazyHandler(load: () => Promise<RequestHandler>): RequestHandler {
  let handler: Promise<RequestHandler> | undefined;
  let loaded: RequestHandler | undefined;
  return (req, res, next) => {
    // Express awaits what a handler returns, and catches what it throws.
    if (loaded) return loaded(req, res, next);
    (handler ??= load()).then((h) => { loaded = h; return h(req, res, next); }).catch(next);
  };
}

/** A value that comes with its module: the swagger and the tests read it with load(). */
export type Deferred<T> = { readonly load: () => Promise<T> };

/** A handler (or guard) that runs its module's own function, loading the module on first use. */
export type LazyHandler = RequestHandler & Deferred<RequestHandler>;

type Lazily<V> = V extends RequestHandler ? LazyHandler : Deferred<V>;

/**
 * A module's exports, loaded with the module on first use: `m.name` of a handler is a
 * LazyHandler, of anything else (a body schema) a Deferred. Called with a picker, it gives the
 * handler a factory makes or an exported object holds (`m((x) => x.getSettings('api'))`); the
 * picker runs once, when the module has loaded.
 */
export type LazyModule<M> = { readonly [K in keyof M]: Lazily<M[K]> } & ((pick: (m: M) => RequestHandler) => LazyHandler);

/** Whether a value is one of lazyModule()'s, to be read with load(). */
export const isDeferred = (v: unknown): v is Deferred<unknown> => typeof v === 'function' && LAZY.has(v);
const LAZY = new WeakSet<object>();

function deferredHandler(load: () => Promise<unknown>): LazyHandler {
  let fn: RequestHandler | undefined;
  let loading: Promise<RequestHandler> | undefined;
  const resolve = () => (loading ??= load().then(
    (f) => (fn = f as RequestHandler),
    (err: unknown) => { loading = undefined; throw err; },
  ));
  // Express awaits what a handler returns: a failed load reaches the error handler as any rejection.
  const handler: RequestHandler = (req, res, next) => (fn ? fn(req, res, next) : resolve().then((f) => f(req, res, next)));
  LAZY.add(handler);
  return Object.assign(handler, { load: resolve });
}

/**
 * The exports of the module `load` imports, each loading it on first use (see LazyModule): rows
 * of the route table name what runs without evaluating the module, or anything it imports, at
 * start (the bundle wraps a module reached only through import() in an initialiser of its own).
 */
export function lazyModule<M extends object>(load: () => Promise<M>): LazyModule<M> {
  let loading: Promise<M> | undefined;
  const module = () => (loading ??= load().catch((err: unknown) => { loading = undefined; throw err; }));
  const exports = new Map<string, LazyHandler>();
  const pick = (picker: (m: M) => RequestHandler) => deferredHandler(() => module().then(picker));
  return new Proxy(pick, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      let value = exports.get(name);
      if (!value) exports.set(name, (value = deferredHandler(() => module().then((m) => (m as Record<string, unknown>)[name]))));
      return value;
    },
  }) as unknown as LazyModule<M>;
}
