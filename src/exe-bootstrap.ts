import path from 'node:path';
import vm from 'node:vm';
import { readPayloadFile } from './lib/sea-payload';
import { asksVersion, versionLine } from './lib/version';

// The single executable's entry (build.mjs makes it the SEA main script). `hearth --version`
// answers here, before the 3 MB application bundle is even compiled: compiling it, even from
// Node's own SEA code cache, took ~9 ms of a 34 ms `--version` (node -e 0: 25 ms).
// Everything else compiles the bundle, packed in the payload together with a code cache that
// build.mjs takes after evaluating the modules a start evaluates (Node's SEA code cache holds
// only the functions compiled eagerly), and runs it as Node runs a CommonJS main module. Both
// are copied out of the executable file with read(): through the mapped pages they would stay
// resident (~8 MB).

// Names as build.mjs packs them; the bundle arrives wrapped as a CommonJS module function.
const BUNDLE_ASSET = 'hearth.cjs';
const CODE_CACHE_ASSET = 'hearth.code-cache';

function runBundle(): void {
  // The bundle is ASCII (build.mjs escapes the rest): latin1 makes the one-byte string V8 keeps.
  const script = new vm.Script(readPayloadFile(BUNDLE_ASSET)!.toString('latin1'), {
    filename: BUNDLE_ASSET,
    cachedData: readPayloadFile(CODE_CACHE_ASSET),
    // `hearth runner node` imports an action's .mjs file.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // build.mjs checks that the cache is taken: V8 drops it silently on any flag or version change.
  if (script.cachedDataRejected && process.env.HEARTH_CODE_CACHE_CHECK === '1') {
    process.stderr.write('hearth: code cache rejected\n');
    process.exit(3);
  }
  const main = script.runInThisContext() as (...args: unknown[]) => void;
  main(module.exports, require, module, process.execPath, path.dirname(process.execPath));
}

if (asksVersion(process.argv.slice(2))) process.stdout.write(`${versionLine()}\n`);
else runBundle();
