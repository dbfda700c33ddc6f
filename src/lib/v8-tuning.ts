import v8 from 'node:v8';

// Imported first by main.ts so it applies before the modules load; set at run time, after the
// executable's code cache was accepted (a flag given on the command line would reject it).

// V8 grows the young generation to 16 MB (semi-spaces of 8 MB) while the API modules load and
// keeps it: 10 MB of resident memory for a process that then mostly idles, 50 MB more under
// load. Holding the semi-spaces at their initial size costs extra scavenges: about 10% on a
// JSON-heavy listing (bench/load), a fair price on a single machine.
v8.setFlagsFromString('--semi-space-growth-factor=1');

// Loading ~2 MB of modules and migrating makes start-up code look hot: TurboFan compiles it once
// (about 7 MB of compiler pages and zone memory that stay resident) for code that never runs
// again. A larger budget while starting skips that; startupDone() restores V8's default so the
// request paths tier up as usual.
const DEFAULT_INTERRUPT_BUDGET = 67584;
v8.setFlagsFromString(`--interrupt-budget=${16 * DEFAULT_INTERRUPT_BUDGET}`);

export function startupDone(): void {
  v8.setFlagsFromString(`--interrupt-budget=${DEFAULT_INTERRUPT_BUDGET}`);
}
