// `hearth runner register` and `hearth runner daemon`: hearth's own runner, speaking Gitea's
// runner protocol to any hearth (or Gitea) over HTTP and running jobs on this host.

import { onStopSignals } from './signals';
import os from 'node:os';
import path from 'node:path';
import Module, { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { defaultWorkDir, labelName, readRunnerFile, writeRunnerFile } from '../runner/runner-file';
import { CliError } from './options';

type RegisterOptions = { instance: string; token: string; name?: string; labels?: string; config: string; ephemeral?: boolean };
type DaemonOptions = { config: string; capacity: string; workDir?: string };

export const DEFAULT_RUNNER_LABELS = ['hearth'];

async function register(opts: RegisterOptions): Promise<void> {
  let instance: URL;
  try {
    instance = new URL(opts.instance);
  } catch {
    throw new CliError(`--instance: not a URL: ${opts.instance}`);
  }
  const labels = opts.labels ? opts.labels.split(',').map((l) => l.trim()).filter(Boolean) : DEFAULT_RUNNER_LABELS;
  const name = opts.name || os.hostname();
  const address = instance.toString().replace(/\/+$/, '');
  // The protocol client (connect-RPC, protobuf) loads only for the runner commands.
  const { registerRunner } = await import('../runner/client');
  const runner = await registerRunner(address, opts.token, name, labels.map(labelName), !!opts.ephemeral).catch((err: Error) => {
    throw new CliError(`registration with ${address} failed: ${err.message}`);
  });
  const file = path.resolve(opts.config);
  writeRunnerFile(file, {
    id: Number(runner.id), uuid: runner.uuid, name: runner.name || name, token: runner.token, address, labels, ephemeral: !!opts.ephemeral,
  });
  console.log(`runner '${runner.name || name}' registered with ${address} (labels: ${labels.join(', ')}); saved to ${file}`);
}

async function daemon(opts: DaemonOptions): Promise<void> {
  let reg;
  try {
    reg = readRunnerFile(path.resolve(opts.config));
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const capacity = Number(opts.capacity);
  if (!Number.isInteger(capacity) || capacity < 1) throw new CliError(`--capacity: not a positive integer: ${opts.capacity}`);
  const log = (msg: string, fields: Record<string, unknown> = {}) =>
    process.stderr.write(`${new Date().toISOString()} ${msg}${Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : ''}\n`);
  const { startRunner } = await import('../runner/daemon');
  const runner = await startRunner({
    instance: reg.address, uuid: reg.uuid, token: reg.token, name: reg.name, labels: reg.labels,
    capacity, workDir: opts.workDir ? path.resolve(opts.workDir) : defaultWorkDir(), log, ephemeral: reg.ephemeral,
  }).catch((err: Error) => { throw new CliError(`cannot declare the runner to ${reg.address}: ${err.message}`); });
  log('runner started', { name: reg.name, instance: reg.address, labels: reg.labels, capacity });
  let stopping = false;
  onStopSignals((signal) => {
    stopping = true;
    log('stopping: cancelling running tasks', { signal });
    runner.stop().then(() => process.exit(0), () => process.exit(1));
  });
  // an ephemeral runner ends after its one task
  void runner.done.then(() => { if (!stopping) process.exit(0); });
}

/** Runs a node action's script: inside the single executable, process.execPath is hearth itself. */
async function runNodeScript(file: string, args: string[]): Promise<void> {
  const abs = path.resolve(file);
  process.argv = [process.argv[0]!, abs, ...args];
  if (abs.endsWith('.mjs')) {
    await import(pathToFileURL(abs).href);
    return;
  }
  // loaded as the main module, so `require.main === module` holds as under `node file.js`
  const load = (Module as unknown as { _load?: (request: string, parent: null, isMain: boolean) => unknown })._load;
  if (load) load(abs, null, true);
  else createRequire(abs)(abs);
}

export function runnerCommand(program: Command): void {
  const runner = program.command('runner').description('hearth\'s own Actions runner: runs jobs on this host');
  runner.command('register')
    .description('register this machine as a runner of an instance (writes a .runner file)')
    .requiredOption('--instance <url>', 'the instance\'s root URL, e.g. https://git.example.com')
    .requiredOption('--token <token>', 'a runner registration token (GET .../actions/runners/registration-token)')
    .option('--name <name>', 'the runner\'s name (default: the host name)')
    .option('--labels <labels>', `comma-separated labels (default: ${DEFAULT_RUNNER_LABELS.join(',')})`)
    .option('--ephemeral', 'take one job only')
    .option('-c, --config <file>', 'the registration file', '.runner')
    .action(register);
  runner.command('daemon')
    .description('fetch and run jobs until stopped (SIGINT/SIGTERM cancel the running ones)')
    .option('-c, --config <file>', 'the registration file', '.runner')
    .option('--capacity <n>', 'jobs run at once', '1')
    .option('--work-dir <dir>', 'where job workspaces are made', defaultWorkDir())
    .action(daemon);
  runner.command('node', { hidden: true })
    .description('run a node action\'s script with this executable\'s Node')
    .argument('<file>')
    .argument('[args...]')
    .allowUnknownOption(true)
    .action(runNodeScript);
}
