import v8 from 'node:v8';

// Called first by main.ts so it applies before the modules load; set at run time, after the
// executable's code cache was accepted (a flag given on the command line would reject it).

// V8 grows the young generation to 16 MB (semi-spaces of 8 MB) while the API modules load and
// keeps it: 10 MB of resident memory for a process that then mostly idles, 50 MB more under
// load. Holding the semi-spaces at their initial size costs extra scavenges: about 10% on a
// JSON-heavy listing (bench/load), a fair price on a single machine.
// Not while build.mjs warms up the code cache: a changed flag makes V8 reject the cache at start.
const WARMUP = process.env.HEARTH_CODE_CACHE_WARMUP === '1';

// Loading ~2 MB of modules and migrating makes start-up code look hot: the optimizing compilers
// compile it once (about 7 MB of compiler pages and zone memory that stay resident) for code that
// never runs again. Higher tier-up thresholds while starting skip that; startupDone() restores
// V8's defaults so the request paths tier up as usual. The knob changed with V8 13 (Node 24: the
// executable's runtime) from one interrupt budget to invocation counts, and V8 aborts the process
// on a flag it does not know, so each version gets only its own flags.
const V8_MAJOR = Number(process.versions.v8.split('.')[0]);
const TIER_UP: Record<string, number> = V8_MAJOR >= 13
  ? { 'invocation-count-for-maglev': 400, 'invocation-count-for-turbofan': 3000 }
  : V8_MAJOR === 11 ? { 'interrupt-budget': 67584 } : {};

function setTierUp(scale: number): void {
  if (WARMUP) return;
  for (const [flag, value] of Object.entries(TIER_UP)) v8.setFlagsFromString(`--${flag}=${value * scale}`);
}

// Node's built-in modules come with a code cache that V8 takes only under the flags it was made
// with: once the flags above change, each built-in loaded afterwards is parsed from its source
// (callgrind: ~75 M instructions, a tenth of a server's start to its first answer). The ones a
// server's start loads anyway (express, pino, commander, the git runner, the HTTP server) are
// loaded first; later ones (an outgoing HTTPS call) pay their parse once, at first use.
const SERVER_BUILTINS = [
  'string_decoder', 'stream', 'stream/promises', 'net', 'dgram', 'child_process', 'crypto', 'os', 'assert', 'worker_threads',
  'module', 'http', 'tty', 'zlib', 'dns', 'cluster', 'perf_hooks',
] as const;

/** Sets the flags above; `server`: first loads the built-ins a server's start needs (see SERVER_BUILTINS). */
export function tuneV8(opts: { server: boolean }): void {
  if (WARMUP) return;
  if (opts.server) for (const id of SERVER_BUILTINS) process.getBuiltinModule(id);
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  setTierUp(16);
}

export function startupDone(): void {
  setTierUp(1);
}
