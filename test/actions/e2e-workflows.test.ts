import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRunner } from '../../src/runner/client';
import { startRunner } from '../../src/runner/daemon';
import { createRepo } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';
import {
  completedRun, jobLogs, listRuns, pushFiles, runJobs, startHearthRunner, workflow, type User,
} from './e2e-helpers';

// The loop from push (or dispatch) to results, with one user-level runner taking every job of
// the user's repositories; each test works in its own repository.

let s: TestServer;
let user: User;
let runner: Awaited<ReturnType<typeof startHearthRunner>>;

beforeAll(async () => {
  s = await startTestServer();
  user = { ...(await createUser(s, 'bob')) };
  const token = (await ok(await s.request('api/v1/user/actions/runners/registration-token', { auth: as(user) }))).token;
  runner = await startHearthRunner(s, token, ['hearth'], 2);
});
afterAll(async () => {
  await runner?.stop();
  await s?.stop();
});

async function repoWith(name: string, files: Record<string, string>): Promise<string> {
  await createRepo(s, user, name);
  return pushFiles(s, user, files, name);
}

const logsOfRun = async (repo: string, runId: number) =>
  Promise.all((await runJobs(s, user, runId, repo)).map((j) => jobLogs(s, user, j.id, repo)));

describe('secrets and variables', () => {
  it('a secret is usable in a step and masked in the logs; a variable is read', async () => {
    await createRepo(s, user, 'secrets');
    await ok(await s.request(`api/v1/repos/${user.username}/secrets/actions/secrets/DEPLOY_KEY`, {
      method: 'PUT', auth: as(user), json: { data: 'sup3r-s3cret-value' },
    }), 201);
    await ok(await s.request(`api/v1/repos/${user.username}/secrets/actions/variables/TARGET`, {
      method: 'POST', auth: as(user), json: { value: 'staging' },
    }), 201);
    await pushFiles(s, user, workflow(`name: ci
on: push
jobs:
  deploy:
    runs-on: hearth
    steps:
      - run: |
          echo "key=\${{ secrets.DEPLOY_KEY }}"
          echo "from env: $KEY"
          test "$KEY" = "sup3r-s3cret-value" && echo "secret reached the step"
          echo "target=\${{ vars.TARGET }}"
        env:
          KEY: \${{ secrets.DEPLOY_KEY }}
`), 'secrets');
    const run = await completedRun(s, user, () => true, 'secrets');
    expect(run.conclusion).toBe('success');
    const [logs] = await logsOfRun('secrets', run.id);
    expect(logs).toContain('key=***');
    expect(logs).toContain('from env: ***');
    expect(logs).toContain('secret reached the step');
    expect(logs).toContain('target=staging');
    expect(logs).not.toContain('sup3r-s3cret-value');
  });
});

describe('workflow_dispatch', () => {
  it('runs with the given inputs', async () => {
    await repoWith('dispatch', workflow(`name: manual
on:
  workflow_dispatch:
    inputs:
      who:
        description: whom to greet
        required: true
      loud:
        type: boolean
        default: false
jobs:
  greet:
    runs-on: hearth
    steps:
      - run: echo "hello \${{ inputs.who }} / \${{ github.event.inputs.who }} loud=\${{ inputs.loud }} event=\${{ github.event_name }}"
`));
    await ok(await s.request(`api/v1/repos/${user.username}/dispatch/actions/workflows/ci.yml/dispatches`, {
      method: 'POST', auth: as(user), json: { ref: 'main', inputs: { who: 'Carol', loud: 'true' } },
    }), 204);
    const run = await completedRun(s, user, (r) => r.event === 'workflow_dispatch', 'dispatch');
    expect(run.conclusion).toBe('success');
    const [logs] = await logsOfRun('dispatch', run.id);
    expect(logs).toContain('hello Carol / Carol loud=true event=workflow_dispatch');
  });
});

describe('jobs', () => {
  it('a matrix of two runs two jobs with their values', async () => {
    await repoWith('matrix', workflow(`name: ci
on: push
jobs:
  test:
    runs-on: hearth
    strategy:
      matrix:
        flavour: [vanilla, chocolate]
    steps:
      - run: echo "flavour is \${{ matrix.flavour }}"
`));
    const run = await completedRun(s, user, () => true, 'matrix');
    expect(run.conclusion).toBe('success');
    const jobs = await runJobs(s, user, run.id, 'matrix');
    expect(jobs).toHaveLength(2);
    const logs = (await logsOfRun('matrix', run.id)).join('\n');
    expect(logs).toContain('flavour is vanilla');
    expect(logs).toContain('flavour is chocolate');
  });

  it('needs: a job runs after the one it needs and reads its outputs', async () => {
    await repoWith('needs', workflow(`name: ci
on: push
jobs:
  build:
    runs-on: hearth
    outputs:
      version: \${{ steps.v.outputs.version }}
    steps:
      - id: v
        run: echo "version=1.2.3" >> "$GITHUB_OUTPUT"
  release:
    needs: build
    runs-on: hearth
    steps:
      - run: echo "releasing \${{ needs.build.outputs.version }} after \${{ needs.build.result }}"
`));
    const run = await completedRun(s, user, () => true, 'needs');
    expect(run.conclusion).toBe('success');
    const jobs = await runJobs(s, user, run.id, 'needs');
    const release = jobs.find((j) => j.name === 'release');
    const build = jobs.find((j) => j.name === 'build');
    expect(Date.parse(release.started_at)).toBeGreaterThanOrEqual(Date.parse(build.completed_at) - 1000);
    expect(await jobLogs(s, user, release.id, 'needs')).toContain('releasing 1.2.3 after success');
  });

  it('a failing step fails the job, the run and the commit status', async () => {
    const sha = await repoWith('failing', workflow(`name: ci
on: push
jobs:
  check:
    runs-on: hearth
    steps:
      - run: echo before
      - run: |
          echo "about to fail"
          exit 7
      - run: echo "never printed"
      - if: failure()
        run: echo "cleanup after failure"
`));
    const run = await completedRun(s, user, () => true, 'failing');
    expect(run.conclusion).toBe('failure');
    const [job] = await runJobs(s, user, run.id, 'failing');
    expect(job.conclusion).toBe('failure');
    const logs = await jobLogs(s, user, job.id, 'failing');
    expect(logs).toContain('about to fail');
    expect(logs).toContain('exit code 7');
    expect(logs).not.toContain('never printed');
    expect(logs).toContain('cleanup after failure');
    await eventually(async () => {
      const statuses = await ok(await s.request(`api/v1/repos/${user.username}/failing/commits/${sha}/statuses`, { auth: as(user) }));
      return statuses[0]?.status === 'failure';
    }, 5000, 'a failure status');
  });

  it('job-level if: with needs and status functions', async () => {
    await repoWith('jobif', workflow(`name: ci
on: push
jobs:
  breaks:
    runs-on: hearth
    steps:
      - run: exit 1
  after:
    needs: breaks
    runs-on: hearth
    steps:
      - run: echo "should be skipped"
  report:
    needs: breaks
    if: failure()
    runs-on: hearth
    steps:
      - run: echo "reporting \${{ needs.breaks.result }}"
  prs-only:
    if: github.event_name == 'pull_request'
    runs-on: hearth
    steps:
      - run: echo never
`));
    const run = await completedRun(s, user, () => true, 'jobif');
    expect(run.conclusion).toBe('failure');
    const jobs = await runJobs(s, user, run.id, 'jobif');
    const by = Object.fromEntries(jobs.map((j) => [j.name, j.conclusion]));
    expect(by).toEqual({ breaks: 'failure', after: 'skipped', report: 'success', 'prs-only': 'skipped' });
    const report = jobs.find((j) => j.name === 'report');
    expect(await jobLogs(s, user, report.id, 'jobif')).toContain('reporting failure');
  });

  it('a job whose labels no runner has stays queued', async () => {
    await repoWith('nolabel', workflow(`name: ci
on: push
jobs:
  gpu:
    runs-on: gpu-cluster
    steps:
      - run: echo hi
`));
    await eventually(async () => (await listRuns(s, user, 'nolabel')).length === 1, 5000, 'a run');
    await new Promise((r) => setTimeout(r, 2000));
    const [run] = await listRuns(s, user, 'nolabel');
    expect(run!.status).toBe('queued');
    const [job] = await runJobs(s, user, run!.id, 'nolabel');
    expect(job.status).toBe('queued');
  });
});

describe('ephemeral runners', () => {
  it('an ephemeral runner takes one job and stops', async () => {
    const token = (await ok(await s.request('api/v1/user/actions/runners/registration-token', { auth: as(user) }))).token;
    const url = s.hearth.config.server.root_url.replace(/\/$/, '');
    const reg = await registerRunner(url, token, 'once', ['once'], true);
    const once = await startRunner({ instance: url, uuid: reg.uuid, token: reg.token, name: 'once', labels: ['once'], ephemeral: true, idleMs: 100, workDir: runner.workDir });
    await repoWith('ephemeral', workflow(`name: ci
on: push
jobs:
  a:
    runs-on: once
    steps:
      - run: echo a
  b:
    runs-on: once
    steps:
      - run: echo b
`));
    await once.done;
    expect(once.finished).toBe(1);
    const [run] = await listRuns(s, user, 'ephemeral');
    const jobs = await runJobs(s, user, run!.id, 'ephemeral');
    expect(jobs.map((j) => j.status).sort()).toEqual(['completed', 'queued']);
  });
});

describe('cancelling', () => {
  it('POST .../runs/{run}/cancel stops a running job and kills its processes', async () => {
    const marker = `${Math.floor(100000 + Math.random() * 800000)}`;
    await repoWith('cancel', workflow(`name: ci
on: push
jobs:
  slow:
    runs-on: hearth
    steps:
      - run: |
          echo "sleeping now"
          sleep ${marker}
      - run: echo "after the sleep"
`));
    let runId = 0;
    await eventually(async () => {
      const [run] = await listRuns(s, user, 'cancel');
      runId = run?.id ?? 0;
      return run?.status === 'in_progress' && sleeping(marker);
    }, 15_000, 'the sleep running');
    await ok(await s.request(`api/v1/repos/${user.username}/cancel/actions/runs/${runId}/cancel`, { method: 'POST', auth: as(user) }), 204);
    const run = await completedRun(s, user, () => true, 'cancel', 15_000);
    expect(run.conclusion).toBe('cancelled');
    await eventually(async () => !sleeping(marker), 10_000, 'the sleep killed');
    const [logs] = await logsOfRun('cancel', run.id);
    expect(logs).toContain('sleeping now');
    expect(logs).not.toContain('after the sleep');
  });
});

function sleeping(marker: string): boolean {
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() === `sleep ${marker}`) return true;
    } catch { /* gone */ }
  }
  return false;
}

describe('invalid workflows and tokens', () => {
  it('an invalid workflow file gives a failed run with the parse error', async () => {
    await repoWith('invalid', workflow(`name: broken
on: push
jobs:
  a:
    runs-on: hearth
    steps: [ { run: "echo unterminated
`));
    const run = await completedRun(s, user, () => true, 'invalid', 10_000);
    expect(run.conclusion).toBe('failure');
    // The reason is in the run's JSON (a hearth field: Gitea shows it only in its web UI).
    expect(run.workflow_error).toMatch(/yaml|unterminated|flow/i);
  });

  it('a bad registration token is refused', async () => {
    const url = s.hearth.config.server.root_url.replace(/\/$/, '');
    await expect(registerRunner(url, 'not-a-registration-token', 'intruder', ['hearth'])).rejects.toThrow();
  });
});
