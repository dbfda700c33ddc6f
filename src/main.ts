import './lib/v8-tuning';
import { asksVersion, versionLine } from './lib/version';

// The entry point stays tiny: `hearth --version` answers before the CLI and the server's modules
// are evaluated (the bundle wraps modules reached only through import() so they run on first
// use). The executable answers it earlier still, in src/exe-bootstrap.ts.
if (asksVersion(process.argv.slice(2))) {
  process.stdout.write(`${versionLine()}\n`);
} else if (servOrKeys(process.argv.slice(2))) {
  // sshd runs these once per connection: they load their own module, not the whole CLI.
  void import('./cli/ssh-commands').then((m) => m.runSshCommand(process.argv.slice(2)));
} else {
  void import('./cli/program').then((cli) => cli.runProgram());
}

/** `hearth [--config FILE] serv ...` or `keys ...`: the first word that is no option or its value. */
function servOrKeys(args: string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--config' || args[i] === '-c') { i++; continue; }
    if (args[i]!.startsWith('-')) continue;
    return args[i] === 'serv' || args[i] === 'keys';
  }
  return false;
}
