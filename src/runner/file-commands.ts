// The files a step writes to talk back to the runner: GITHUB_OUTPUT and GITHUB_ENV (`name=value`
// lines or `name<<DELIMITER` heredocs), GITHUB_PATH (one directory per line), GITHUB_STATE.

import fs from 'node:fs';
import path from 'node:path';

export interface StepFiles {
  output: string;
  env: string;
  path: string;
  summary: string;
  state: string;
}

let counter = 0;

/** Fresh, empty files for one step under the job's temp directory. */
export function createStepFiles(tempDir: string): StepFiles {
  const dir = path.join(tempDir, '_runner_file_commands');
  fs.mkdirSync(dir, { recursive: true });
  const n = ++counter;
  const files: StepFiles = {
    output: path.join(dir, `set_output_${n}`),
    env: path.join(dir, `set_env_${n}`),
    path: path.join(dir, `add_path_${n}`),
    summary: path.join(dir, `step_summary_${n}`),
    state: path.join(dir, `save_state_${n}`),
  };
  for (const f of Object.values(files)) fs.writeFileSync(f, '');
  return files;
}

const read = (file: string): string => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** Parses `name=value` and `name<<EOF ... EOF` entries. */
export function parseKeyValueFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    const eq = line.indexOf('=');
    if (heredoc && (eq < 0 || eq > line.indexOf('<<'))) {
      const delimiter = heredoc[2]!;
      const value: string[] = [];
      i++;
      while (i < lines.length && lines[i] !== delimiter) value.push(lines[i++]!);
      if (i >= lines.length) throw new Error(`Matching delimiter not found '${delimiter}'`);
      out[heredoc[1]!] = value.join('\n');
    } else if (eq > 0) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
    } else {
      throw new Error(`Invalid format '${line}'`);
    }
  }
  return out;
}

export interface FileCommandResults {
  outputs: Record<string, string>;
  env: Record<string, string>;
  paths: string[];
}

export function readStepFiles(files: StepFiles): FileCommandResults {
  return {
    outputs: parseKeyValueFile(read(files.output)),
    env: parseKeyValueFile(read(files.env)),
    paths: read(files.path).split(/\r?\n/).map((l) => l.trim()).filter(Boolean),
  };
}
