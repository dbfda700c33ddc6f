import { tuneV8 } from './lib/v8-tuning';
import { asksVersion, versionLine } from './lib/version';

// The entry point stays tiny: `hearth --version` answers before the CLI and the server's modules
// are evaluated (the bundle wraps modules reached only through import() so they run on first
// use). The executable answers it earlier still, in src/exe-bootstrap.ts.
if (asksVersion(process.argv.slice(2))) {
  process.stdout.write(`${versionLine()}\n`);
} else if (['serv', 'keys'].includes(commandOf(process.argv.slice(2)) ?? '')) {
  // sshd runs these once per connection: they load their own module, not the whole CLI.
  tuneV8({ server: false });
  void import('./cli/ssh-commands').then((m) => m.runSshCommand(process.argv.slice(2)));
} else {
  // `web` is the default command.
  tuneV8({ server: (commandOf(process.argv.slice(2)) ?? 'web') === 'web' });
  void import('./cli/program').then((cli) => cli.runProgram());
}

/** `hearth [--config FILE] serv ...`: the first word that is no option or an option's value. */
function commandOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--config' || args[i] === '-c') { i++; continue; }
    if (args[i]!.startsWith('-')) continue;
    return args[i];
  }
  return undefined;
}
