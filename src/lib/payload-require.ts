import path from 'node:path';
import vm from 'node:vm';
import { readPayloadFile } from './sea-payload';

// Inside the single executable, the libraries no start needs are packed as their own bundles
// (scripts/build-lazy-libraries.mjs), so that a start neither reads nor keeps their source; the
// application's bundle requires each as `hearth:lib/<name>`. This is the `require` the bundles
// get: those names compile the library's bundle on first use, anything else is Node's require.

const PREFIX = 'hearth:lib/';

type Module = { exports: unknown };
const loaded = new Map<string, Module>();

/** `base` (Node's require, with its resolve and cache) answering `hearth:lib/<name>` from the payload. */
export function payloadRequire(base: NodeJS.Require): NodeJS.Require {
  const req = ((id: string) => (id.startsWith(PREFIX) ? loadLibrary(id.slice(PREFIX.length), req) : base(id))) as NodeJS.Require;
  return Object.assign(req, { resolve: base.resolve, cache: base.cache, main: base.main, extensions: base.extensions });
}

/** The packed libraries loaded so far (the code cache warm-up checks a start loaded none). */
export const librariesLoaded = (): string[] => [...loaded.keys()];

function loadLibrary(name: string, req: NodeJS.Require): unknown {
  const cached = loaded.get(name);
  if (cached) return cached.exports;
  const file = `lib/${name}.cjs`;
  const source = readPayloadFile(file);
  if (!source) throw new Error(`library ${name} is not packed in this executable`);
  // One-byte source (the build escapes the rest), as the application's bundle.
  const script = new vm.Script(source.toString('latin1'), {
    filename: file, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const fn = script.runInThisContext() as (...args: unknown[]) => void;
  // Cached before it runs, as Node's require does: a require cycle sees the exports so far.
  const module: Module = { exports: {} };
  loaded.set(name, module);
  try {
    fn(module.exports, req, module, process.execPath, path.dirname(process.execPath));
  } catch (err) {
    loaded.delete(name);
    throw err;
  }
  return module.exports;
}
