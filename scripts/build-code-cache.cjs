// Run by build.mjs with the executable's own Node: compiles the wrapped application bundle as
// src/exe-bootstrap.ts does, evaluates the modules a start evaluates (HEARTH_CODE_CACHE_WARMUP:
// src/main.ts imports the CLI and returns), then writes V8's code cache of every function
// compiled so far. Usage: node build-code-cache.cjs <wrapped bundle> <cache out>
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const [bundle, out] = process.argv.slice(2);
process.env.HEARTH_CODE_CACHE_WARMUP = '1';
const script = new vm.Script(fs.readFileSync(bundle, 'utf8'), {
  filename: 'hearth.cjs',
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(path.resolve(bundle)), mod, bundle, path.dirname(bundle));
// The modules load through import() (promise jobs): let them all run first.
setTimeout(() => {
  fs.writeFileSync(out, script.createCachedData());
  process.exit(0);
}, 300);
