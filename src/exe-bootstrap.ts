import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { librariesLoaded, payloadRequire } from './lib/payload-require';
import { readPayloadFile } from './lib/sea-payload';
import { asksVersion, versionLine } from './lib/version';

// The single executable's entry (build.mjs makes it the SEA main script). `hearth --version`
// answers here, before the 3 MB application bundle is even compiled: compiling it, even from
// Node's own SEA code cache, took ~9 ms of a 34 ms `--version` (node -e 0: 25 ms).
// Everything else compiles the bundle, packed in the payload together with a code cache that
// the executable took of itself (see takeCodeCache; Node's SEA code cache holds only the
// functions compiled eagerly), and runs it as Node runs a CommonJS main module. Both are copied
// out of the executable file with read(): through the mapped pages they would stay resident
// (~8 MB).

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
  main(module.exports, payloadRequire(require), module, process.execPath, path.dirname(process.execPath));
  const out = process.env.HEARTH_CODE_CACHE_OUT;
  if (out) takeCodeCache(script, out, process.env.HEARTH_CODE_CACHE_URL!);
}

/**
 * build.mjs runs the executable (its payload holding no cache yet) as `hearth web` on a data
 * directory a first run made, with HEARTH_CODE_CACHE_OUT: once the URL answers, V8's code cache
 * of every function compiled so far (the start and its first request, exactly as a start runs
 * them) is written there and the process ends. V8 flags stay untouched meanwhile
 * (HEARTH_CODE_CACHE_WARMUP, src/lib/v8-tuning.ts): a cache made under other flags is rejected.
 */
function takeCodeCache(script: vm.Script, out: string, url: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http = require('node:http') as typeof import('node:http');
  const retry = () => setTimeout(poll, 10);
  function poll(): void {
    http.get(url, (res) => {
      res.resume();
      if (res.statusCode !== 200) return void retry();
      // A library packed apart that a start loads belongs in the application's bundle.
      if (process.env.HEARTH_CODE_CACHE_LIBRARY_CHECK === '1' && librariesLoaded().length) {
        process.stderr.write(`hearth: a start loaded ${librariesLoaded().join(', ')}: remove from LAZY_LIBRARIES\n`);
        process.exit(4);
      }
      fs.writeFileSync(out, script.createCachedData());
      process.exit(0);
    }).on('error', retry);
  }
  poll();
}

if (asksVersion(process.argv.slice(2))) process.stdout.write(`${versionLine()}\n`);
else runBundle();
