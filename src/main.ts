import './lib/v8-tuning';
import { asksVersion, versionLine } from './lib/version';

// The entry point stays tiny: `hearth --version` answers before the CLI and the server's modules
// are evaluated (the bundle wraps modules reached only through import() so they run on first
// use). The executable answers it earlier still, in src/exe-bootstrap.ts.
if (asksVersion(process.argv.slice(2))) {
  process.stdout.write(`${versionLine()}\n`);
} else if (process.env.HEARTH_CODE_CACHE_WARMUP === '1') {
  // build.mjs: evaluate what `hearth web` evaluates, then take the compiled code as the
  // executable's code cache (src/exe-bootstrap.ts).
  void import('./cli/program');
} else {
  void import('./cli/program').then((cli) => cli.runProgram());
}
