// A `run:` step: the script goes to a file, a shell runs it in the workspace (or its
// working-directory) in its own process group; output lines are masked and logged, workflow
// commands in them (::add-mask::, ::set-output::) are honoured, file commands read afterwards.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createStepFiles, readStepFiles } from './file-commands';
import { runProcess } from './process';
import type { JobRun } from './scope';

export interface ScriptStep {
  script: string;
  shell: string | undefined;
  workingDirectory: string;
  env: Record<string, string>;
  timeoutMs?: number;
}

export interface ScriptResult {
  ok: boolean;
  cancelled: boolean;
  outputs: Record<string, string>;
}

/** The command line for a `shell:` value, GitHub's table; `{0}` is the script file. */
export function shellCommand(shell: string | undefined, file: string): { command: string; args: string[] } {
  const templates: Record<string, string> = {
    '': 'bash --noprofile --norc -eo pipefail {0}',
    bash: 'bash --noprofile --norc -eo pipefail {0}',
    sh: 'sh -e {0}',
    python: 'python3 {0}',
    pwsh: 'pwsh -command ". \'{0}\'"',
    powershell: 'pwsh -command ". \'{0}\'"',
  };
  const key = (shell ?? '').trim();
  let template = templates[key] ?? key;
  if (!template.includes('{0}')) template += ' {0}';
  const words = template.split(/\s+/).filter(Boolean).map((w) => w.replace('{0}', file));
  return { command: words[0]!, args: words.slice(1) };
}

function extensionFor(shell: string | undefined): string {
  const s = (shell ?? '').trim();
  if (s.startsWith('python')) return '.py';
  if (s.startsWith('pwsh') || s.startsWith('powershell')) return '.ps1';
  return '.sh';
}

export async function runScript(run: JobRun, step: ScriptStep): Promise<ScriptResult> {
  const file = path.join(run.dirs.temp, `${crypto.randomUUID()}${extensionFor(step.shell)}`);
  fs.writeFileSync(file, step.script);
  const { command, args } = shellCommand(step.shell, file);
  return runCommand(run, { command, args, cwd: step.workingDirectory, env: step.env, timeoutMs: step.timeoutMs });
}

export interface CommandStep {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
}

/** Runs a step's process with fresh GITHUB_OUTPUT/ENV/PATH files, and applies them afterwards. */
export async function runCommand(run: JobRun, step: CommandStep): Promise<ScriptResult> {
  const files = createStepFiles(run.dirs.temp);
  const env: Record<string, string> = {
    ...step.env,
    GITHUB_OUTPUT: files.output,
    GITHUB_ENV: files.env,
    GITHUB_PATH: files.path,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_STATE: files.state,
  };
  env.PATH = [...run.paths, env.PATH ?? ''].filter(Boolean).join(':');
  const inline: Record<string, string> = {};
  if (!fs.existsSync(step.cwd)) {
    run.reporter.log(`##[error]working-directory does not exist: ${step.cwd}`);
    return { ok: false, cancelled: false, outputs: {} };
  }
  const result = await runProcess(step.command, step.args, {
    cwd: step.cwd,
    env,
    signal: run.signal,
    timeoutMs: step.timeoutMs,
    onLine: (line) => handleLine(run, line, inline),
  }, run.groups);
  if (result.error) run.reporter.log(`##[error]cannot start ${step.command}: ${result.error}`);
  if (result.timedOut) run.reporter.log(`##[error]The step has timed out after ${Math.round((step.timeoutMs ?? 0) / 60000)} minutes.`);
  else if (result.cancelled) run.reporter.log('##[error]The operation was canceled.');
  else if (result.code !== 0 && result.code !== null) run.reporter.log(`##[error]Process completed with exit code ${result.code}.`);
  const fromFiles = applyFileCommands(run, files);
  const ok = result.code === 0 && !result.timedOut && !result.cancelled;
  return { ok, cancelled: result.cancelled, outputs: { ...inline, ...fromFiles.outputs } };
}

function applyFileCommands(run: JobRun, files: ReturnType<typeof createStepFiles>): { outputs: Record<string, string> } {
  try {
    const got = readStepFiles(files);
    Object.assign(run.env, got.env);
    for (const p of got.paths) if (!run.paths.includes(p)) run.paths.unshift(p);
    return { outputs: got.outputs };
  } catch (err) {
    run.reporter.log(`##[error]${(err as Error).message}`);
    return { outputs: {} };
  }
}

/** Workflow commands written to stdout; the line itself is logged (masked) as GitHub does. */
function handleLine(run: JobRun, line: string, outputs: Record<string, string>): void {
  const mask = /^::add-mask::(.*)$/.exec(line);
  if (mask && mask[1]) run.masker.add(mask[1]);
  const output = /^::set-output name=([^:]+)::(.*)$/.exec(line);
  if (output) outputs[output[1]!] = output[2]!;
  run.reporter.log(line);
}
