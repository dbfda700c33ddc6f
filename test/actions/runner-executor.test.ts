import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { executeTask } from '../../src/runner/execute';
import { parseKeyValueFile } from '../../src/runner/file-commands';
import { Masker } from '../../src/runner/masker';
import type { LogRow, ReportSink, RunnerTask, TaskState } from '../../src/runner/types';

// The host executor on its own: the task's rows and states are collected where the protocol
// client would upload them (the loop through the server is in e2e-*.test.ts).

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-exec-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

class Collected implements ReportSink {
  rows: LogRow[] = [];
  states: TaskState[] = [];
  outputs: Record<string, string> = {};
  cancelAfterRows = Infinity;
  async updateLog(_id: number, index: number, rows: LogRow[]) {
    expect(index).toBe(this.rows.length);
    this.rows.push(...rows);
    return this.rows.length;
  }
  async updateTask(state: TaskState, outputs: Record<string, string>) {
    this.states.push(state);
    Object.assign(this.outputs, outputs);
    return { cancelled: this.rows.length >= this.cancelAfterRows, sentOutputs: Object.keys(outputs) };
  }
  get log() { return this.rows.map((r) => r.content).join('\n'); }
  get final() { return this.states[this.states.length - 1]!; }
}

let nextId = 1;
async function execute(job: string, extra: Partial<RunnerTask> = {}, sink = new Collected()) {
  const task: RunnerTask = {
    id: nextId++,
    workflowPayload: `name: wf\non: push\n${job}`,
    context: { repository: 'o/r', sha: 'abc', ref: 'refs/heads/main', event_name: 'push', event: {}, server_url: 'http://127.0.0.1:1' },
    secrets: {}, vars: {}, needs: {},
    ...extra,
  };
  const result = await executeTask(task, sink, { workDir, runnerName: 'unit' });
  return { result, sink };
}

describe('run steps', () => {
  it('passes env (workflow < job < step), outputs, GITHUB_ENV and GITHUB_PATH between steps', async () => {
    const { result, sink } = await execute(`env:
  LEVEL: workflow
  W: w
jobs:
  j:
    runs-on: x
    env:
      LEVEL: job
    outputs:
      answer: \${{ steps.one.outputs.answer }}
      multi: \${{ steps.one.outputs.multi }}
    steps:
      - id: one
        env:
          S: step
        run: |
          echo "levels $W $LEVEL $S"
          echo "answer=42" >> "$GITHUB_OUTPUT"
          printf 'multi<<EOF\\nline1\\nline2\\nEOF\\n' >> "$GITHUB_OUTPUT"
          echo "ADDED=yes" >> "$GITHUB_ENV"
          mkdir -p "$RUNNER_TEMP/bin" && printf '#!/bin/sh\\necho tool ran\\n' > "$RUNNER_TEMP/bin/mytool" && chmod +x "$RUNNER_TEMP/bin/mytool"
          echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"
      - run: |
          echo "added=$ADDED via-context=\${{ env.ADDED }} out=\${{ steps.one.outputs.answer }}"
          mytool
          echo "ws=$GITHUB_WORKSPACE"; test "$(pwd)" = "$GITHUB_WORKSPACE"
`);
    expect(result).toBe('success');
    expect(sink.log).toContain('levels w job step');
    expect(sink.log).toContain('added=yes via-context=yes out=42');
    expect(sink.log).toContain('tool ran');
    expect(sink.outputs).toEqual({ answer: '42', multi: 'line1\nline2' });
  });

  it('honours shell, working-directory and defaults.run', async () => {
    const { result, sink } = await execute(`defaults:
  run:
    working-directory: sub
jobs:
  j:
    runs-on: x
    steps:
      - working-directory: .
        run: mkdir -p sub/deeper
      - run: echo "in $(basename "$PWD")"
      - shell: sh
        working-directory: sub/deeper
        run: echo "sh in $(basename "$PWD")"
      - shell: python3 {0}
        run: print("python says", 6 * 7)
      - shell: bash
        run: |
          false | true
          echo "pipefail off for this pipe? no:"; set +e; false | true; echo "status $?"
`);
    expect(sink.log).toContain('in sub');
    expect(sink.log).toContain('sh in deeper');
    expect(sink.log).toContain('python says 42');
    expect(result).toBe('failure'); // bash -eo pipefail: `false | true` fails the step
  });

  it('if:, continue-on-error, step outcome and conclusion', async () => {
    const { result, sink } = await execute(`jobs:
  j:
    runs-on: x
    steps:
      - id: flaky
        continue-on-error: true
        run: exit 1
      - run: echo "outcome=\${{ steps.flaky.outcome }} conclusion=\${{ steps.flaky.conclusion }}"
      - if: \${{ false }}
        run: echo skipped-step
      - if: github.ref == 'refs/heads/main'
        run: echo on-main
      - if: failure()
        run: echo not-after-success
`);
    expect(result).toBe('success');
    expect(sink.log).toContain('outcome=failure conclusion=success');
    expect(sink.log).toContain('on-main');
    expect(sink.log).not.toContain('skipped-step');
    expect(sink.log).not.toContain('not-after-success');
    expect(sink.final.steps.map((st) => st.result)).toEqual(['success', 'success', 'skipped', 'success', 'skipped']);
  });

  it('step timeout-minutes fails the step and kills it', async () => {
    const start = Date.now();
    const { result, sink } = await execute(`jobs:
  j:
    runs-on: x
    steps:
      - timeout-minutes: 0.02
        run: sleep 30
      - if: always()
        run: echo after-timeout
`);
    expect(Date.now() - start).toBeLessThan(10_000);
    expect(result).toBe('failure');
    expect(sink.log).toContain('timed out');
    expect(sink.log).toContain('after-timeout');
  });

  it('job timeout-minutes ends the job as a failure', async () => {
    const { result, sink } = await execute(`jobs:
  j:
    runs-on: x
    timeout-minutes: 0.02
    steps:
      - run: sleep 30
      - run: echo not-reached
`);
    expect(result).toBe('failure');
    expect(sink.log).toContain('maximum execution time');
    expect(sink.log).not.toContain('not-reached');
  });

  it('a cancel from the server stops the job; always() steps still run', async () => {
    const sink = new Collected();
    sink.cancelAfterRows = 2;
    const { result } = await execute(`jobs:
  j:
    runs-on: x
    steps:
      - run: echo started; sleep 30
      - run: echo not-reached
      - if: always()
        run: echo cleanup
`, {}, sink);
    expect(result).toBe('cancelled');
    expect(sink.log).toContain('cleanup');
    expect(sink.log).not.toContain('not-reached');
  });
});

describe('hashFiles', () => {
  it('hashes the matching workspace files, empty when none match', async () => {
    const { result, sink } = await execute(`jobs:
  j:
    runs-on: x
    steps:
      - run: mkdir -p a/b && echo one > a/b/lock.json && echo two > lock.json && echo three > other.txt
      - run: |
          echo "h1=\${{ hashFiles('**/lock.json') }}"
          echo "h2=\${{ hashFiles('**/lock.json', '!a/**') }}"
          echo "none=[\${{ hashFiles('*.nothing') }}]"
`);
    expect(result).toBe('success');
    const crypto = await import('node:crypto');
    const h = (...contents: string[]) => {
      const all = crypto.createHash('sha256');
      for (const c of contents) all.update(crypto.createHash('sha256').update(c).digest());
      return all.digest('hex');
    };
    expect(sink.log).toContain(`h1=${h('one\n', 'two\n')}`); // a/b/lock.json sorts before lock.json
    expect(sink.log).toContain(`h2=${h('two\n')}`);
    expect(sink.log).toContain('none=[]');
  });
});

describe('reporting', () => {
  it('masks secrets, multi-line secrets and ::add-mask:: values in every row', async () => {
    const { sink } = await execute(`jobs:
  j:
    runs-on: x
    steps:
      - run: |
          echo "one \${{ secrets.PW }} two"
          echo "$MULTI"
          echo "::add-mask::dynamic-value-123"
          echo "later dynamic-value-123"
        env:
          MULTI: \${{ secrets.CERT }}
`, { secrets: { PW: 'hunter2', CERT: 'BEGIN\nmiddle-line\nEND' } });
    expect(sink.log).toContain('one *** two');
    expect(sink.log).toContain('later ***');
    for (const leaked of ['hunter2', 'middle-line', 'dynamic-value-123']) expect(sink.log).not.toContain(leaked);
  });

  it('step states carry log_index and log_length over the uploaded rows, in order', async () => {
    const { sink } = await execute(`jobs:
  j:
    runs-on: x
    steps:
      - run: echo a1; echo a2
      - run: echo b1
`);
    const [a, b] = sink.final.steps;
    const rows = sink.rows.map((r) => r.content);
    expect(rows.slice(a!.logIndex, a!.logIndex + a!.logLength)).toEqual(['a1', 'a2']);
    expect(rows.slice(b!.logIndex, b!.logIndex + b!.logLength)).toEqual(['b1']);
    expect(sink.final.result).toBe('success');
    expect(sink.final.stoppedMs).toBeGreaterThanOrEqual(sink.final.startedMs);
  });

  it('a payload that is not one job fails the task with the reason', async () => {
    const { result, sink } = await execute('jobs: {}\n');
    expect(result).toBe('failure');
    expect(sink.log).toContain('expected exactly one');
  });

  it('the job directory is removed afterwards', async () => {
    await execute('jobs:\n  j:\n    runs-on: x\n    steps:\n      - run: touch leftover\n');
    expect(fs.readdirSync(workDir).filter((d) => d.startsWith('task-'))).toEqual([]);
  });
});

describe('file command and masker parsing', () => {
  it('parses name=value and heredocs', () => {
    expect(parseKeyValueFile('a=1\nb=x=y\nc<<END\nl1\nl2\nEND\n')).toEqual({ a: '1', b: 'x=y', c: 'l1\nl2' });
    expect(() => parseKeyValueFile('c<<END\nno end\n')).toThrow(/delimiter/);
  });

  it('masks the longest value first', () => {
    const m = new Masker(['abc', 'abcdef']);
    expect(m.mask('x abcdef y abc')).toBe('x *** y ***');
  });
});
