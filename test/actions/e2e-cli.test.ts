import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRepo, tempDir } from '../helpers/git';
import { hearthCommand } from '../helpers/process';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { completedRun, jobLogs, pushFiles, runJobs, workflow } from './e2e-helpers';
import { testsOnPostgres } from '../helpers/test-database';

// `hearth runner register` / `hearth runner daemon` as separate processes, and the embedded
// runner ([actions] embedded_runner = true).

const servers: TestServer[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];
const runnerDir = () => {
  const d = tempDir('hearth-runner-cli-');
  dirs.push(d);
  return d;
};

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.pid) try { process.kill(-c.pid, 'SIGKILL'); } catch { /* gone */ }
  for (const s of servers) await s.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function hearth(args: string[], cwd: string): { child: ChildProcess; done: Promise<{ code: number | null; out: string }> } {
  // From source, or the built executable under HEARTH_EXECUTABLE (CI runs this file against it).
  const [cmd, argv] = hearthCommand(args);
  const child = spawn(cmd, argv, { cwd, detached: true, env: { ...process.env, HOME: cwd } });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (b) => { out += b; });
  child.stderr!.on('data', (b) => { out += b; });
  const done = new Promise<{ code: number | null; out: string }>((resolve) => child.on('close', (code) => resolve({ code, out })));
  return { child, done };
}

const hello = workflow(`name: ci
on: push
jobs:
  hello:
    runs-on: hearth
    steps:
      - run: echo "hello from \${{ runner.name }}"
`);

// A node action on the same instance: the daemon runs it with its own Node (inside the single
// executable, through its hidden `runner node` command).
const nodeAction = {
  'action.yml': 'name: count\ninputs:\n  count:\n    default: "2"\nruns:\n  using: node20\n  main: index.js\n',
  'index.js': "console.log('node action says ' + (Number(process.env.INPUT_COUNT) * 2) + ' on ' + process.version);\n",
};
const withNodeAction = workflow(`name: ci
on: push
jobs:
  hello:
    runs-on: hearth
    steps:
      - run: echo "hello from \${{ runner.name }}"
      - uses: erin/count@main
        with:
          count: 21
`);

// separate processes through tsx: slow to start on a loaded machine
describe('hearth runner register and daemon', { timeout: 90_000 }, () => {
  it('refuses a bad registration token', async () => {
    const s = await startTestServer();
    servers.push(s);
    const dir = runnerDir();
    const { done } = hearth(['runner', 'register', '--instance', s.hearth.config.server.root_url, '--token', 'wrong-token'], dir);
    const { code, out } = await done;
    expect(code).toBe(1);
    expect(out).toContain('registration with');
    expect(fs.existsSync(path.join(dir, '.runner'))).toBe(false);
  });

  it('registers with an instance token, then the daemon runs pushed workflows', async () => {
    const s = await startTestServer();
    servers.push(s);
    const admin = as(s.admin);
    const token = (await ok(await s.request('api/v1/admin/runners/registration-token', { auth: admin }))).token;
    const dir = runnerDir();
    const reg = await hearth(['runner', 'register', '--instance', s.hearth.config.server.root_url, '--token', token,
      '--name', 'cli-runner', '--labels', 'hearth,linux'], dir).done;
    expect(reg.code, reg.out).toBe(0);
    const file = path.join(dir, '.runner');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ name: 'cli-runner', labels: ['hearth', 'linux'] });
    expect(saved.uuid).toBeTruthy();
    const runners = await ok(await s.request('api/v1/admin/actions/runners', { auth: admin }));
    const listed = (runners.runners ?? runners).find((r: { name: string }) => r.name === 'cli-runner');
    expect(listed.labels.map((l: { name: string }) => l.name).sort()).toEqual(['hearth', 'linux']);

    const daemon = hearth(['runner', 'daemon', '--work-dir', path.join(dir, 'work')], dir);
    const user = await createUser(s, 'erin');
    await createRepo(s, user, 'count');
    await pushFiles(s, user, nodeAction, 'count');
    await createRepo(s, user, 'app');
    await pushFiles(s, user, withNodeAction);
    const run = await completedRun(s, user);
    const [job] = await runJobs(s, user, run.id);
    const logs = await jobLogs(s, user, job.id);
    expect(run.conclusion, logs).toBe('success');
    expect(logs).toContain('hello from cli-runner');
    expect(logs).toContain('node action says 42 on v');
    process.kill(-daemon.child.pid!, 'SIGTERM');
    expect((await daemon.done).code).toBe(0);
  });
});

describe('[actions] embedded_runner', () => {
  it('runs jobs labelled hearth inside the server', async () => {
    const s = await startTestServer({ HEARTH__ACTIONS__EMBEDDED_RUNNER: 'true' });
    servers.push(s);
    const user = await createUser(s, 'frank');
    await createRepo(s, user, 'app');
    await pushFiles(s, user, hello);
    const run = await completedRun(s, user);
    expect(run.conclusion).toBe('success');
    const [job] = await runJobs(s, user, run.id);
    expect(await jobLogs(s, user, job.id)).toContain('hello from hearth-embedded');
    const runners = await ok(await s.request('api/v1/admin/actions/runners', { auth: as(s.admin) }));
    // On PostgreSQL the name carries the node's host and port (each node a runner of its own).
    const names = (runners.runners ?? runners).map((r: { name: string }) => r.name);
    expect(names).toEqual([expect.stringMatching(testsOnPostgres ? /^hearth-embedded-.+-\d+$/ : /^hearth-embedded$/)]);
  });

  it('is off by default', async () => {
    const s = await startTestServer();
    servers.push(s);
    expect(s.hearth.config.actions.embedded_runner).toBe(false);
    const runners = await ok(await s.request('api/v1/admin/actions/runners', { auth: as(s.admin) }));
    expect(runners.runners ?? runners).toHaveLength(0);
  });
});
