import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedRun, listRuns, pushFiles, runJobs } from '../actions/e2e-helpers';
import { createRepo } from '../helpers/git';
import { as, ok, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';
import { WebClient, ownerAndOther } from '../helpers/web-client';

// The Actions pages over HTTP on a server with the embedded runner: the run list and its
// filters, a run and a job with its log (and the live view's JSON), re-run, the dispatch form
// with typed inputs (422 for a bad one), enable and disable; what a reader and an outsider get.

type U = { username: string; password: string; id: number };
let s: TestServer;
let alice: U;
let web: WebClient;
let bobWeb: WebClient;

const CI = `name: ci
on: push
jobs:
  build:
    runs-on: hearth
    steps:
      - name: greet
        run: echo "hello from build"
  after:
    needs: build
    runs-on: hearth
    steps:
      - run: echo "after build"
`;
const MANUAL = `name: manual
on:
  workflow_dispatch:
    inputs:
      greeting: { type: string, default: hi, description: Greeting }
      loud: { type: boolean, default: false }
      colour: { type: choice, options: [red, blue], default: red }
      count: { type: number, default: 1 }
jobs:
  say:
    runs-on: hearth
    steps:
      - run: echo "says \${{ inputs.greeting }} \${{ inputs.colour }} \${{ inputs.count }} \${{ inputs.loud }}"
`;
/** The 10,000-line workflow, shared with bench/web-actions.mjs. */
const LONG = fs.readFileSync(path.resolve(__dirname, '../fixtures/workflows/long-log.yml'), 'utf8');
const SLOW = 'name: slow\non: workflow_dispatch\njobs:\n  wait:\n    runs-on: hearth\n    steps:\n      - run: sleep 60\n';
const files = { '.gitea/workflows/slow.yml': SLOW, '.gitea/workflows/ci.yml': CI, '.gitea/workflows/manual.yml': MANUAL, '.gitea/workflows/long.yml': LONG };
/** The run's workflow file and ref (`long.yml@refs/heads/main`). */
const pathOf = (r: object) => (r as { path: string }).path;
const api = (p: string, who: U = alice) => s.request(`api/v1/${p}`, { auth: as(who) });

beforeAll(async () => {
  s = await startTestServer({ HEARTH__ACTIONS__EMBEDDED_RUNNER: 'true' });
  const users = await ownerAndOther(s);
  alice = users.alice as U;
  [web, bobWeb] = [users.alice.web, users.bob.web];
  await createRepo(s, alice, 'app');
  await createRepo(s, alice, 'secret', { private: true });
  await pushFiles(s, alice, files);
  await pushFiles(s, alice, files, 'secret');
}, 120_000);
afterAll(async () => { await s.stop(); });

describe('runs, a run and a job', () => {
  it('lists runs with filters, shows the run, its jobs and a job log', async () => {
    const run = await completedRun(s, alice, (r) => r.event === 'push');
    const list = await (await web.get('alice/app/actions')).text();
    expect(list).toContain(`alice/app/actions/runs/${run.run_number}"`);
    expect(list).toContain('aria-label="Run manual"');
    expect(await (await web.get('alice/app/actions?workflow=manual.yml')).text()).toContain('0 runs');
    expect(await (await web.get('alice/app/actions?status=success&workflow=ci.yml')).text()).toContain('1 run');
    expect(await (await web.get('alice/app/actions?actor=nobody')).text()).toContain('0 runs');
    const page = await (await web.get(`alice/app/actions/runs/${run.run_number}`)).text();
    expect(page).toContain('alice/app/actions/runs/1/jobs/0"');
    expect(page).toContain('Re-run all jobs');
    const job = await (await web.get('alice/app/actions/runs/1/jobs/0')).text();
    expect(job).toMatch(/<li>hello from build<\/li>/);
    expect(job).toContain('greet');
    const poll = await (await web.get('alice/app/actions/runs/1/jobs/0/log?from=0')).json() as { done: boolean; lines: string[] };
    expect(poll.done).toBe(true);
    expect(poll.lines.join('\n')).toContain('hello from build');
    expect((await web.get('alice/app/actions/runs/99')).status).toBe(404);
    expect((await web.get('alice/app/actions/runs/1/jobs/7')).status).toBe(404);
  });

  it('re-runs a finished run, and one job with the jobs needing it', async () => {
    const run = await completedRun(s, alice, (r) => r.event === 'push');
    expect((await web.post(`alice/app/actions/runs/${run.run_number}/rerun`, {}, { from: `alice/app/actions/runs/${run.run_number}` })).status).toBe(303);
    await eventually(async () => {
      const jobs = await runJobs(s, alice, run.id);
      return jobs.every((j) => j.run_attempt === 2 && j.status === 'completed');
    }, 60_000, 'the re-run jobs');
    expect((await web.post(`alice/app/actions/runs/${run.run_number}/jobs/1/rerun`, {}, { from: `alice/app/actions/runs/${run.run_number}` })).status).toBe(303);
    await eventually(async () => {
      const jobs = await runJobs(s, alice, run.id);
      return jobs.find((j) => j.name === 'after')?.run_attempt === 3 && jobs.every((j) => j.status === 'completed');
    }, 60_000, 'the one job re-run');
    expect(await (await web.get(`alice/app/actions/runs/${run.run_number}/jobs/1`)).text()).toContain('after build');
    expect((await runJobs(s, alice, run.id)).find((j) => j.name === 'build').run_attempt).toBe(2);
  }, 150_000);
});

describe('a long log', () => {
  it('shows all 10,000 lines of a job, each escaped once in its own line element', async () => {
    await ok(await s.request('api/v1/repos/alice/app/actions/workflows/long.yml/dispatches', { method: 'POST', auth: as(alice), json: { ref: 'main' } }), 204);
    const run = await completedRun(s, alice, (r) => pathOf(r).startsWith('long.yml'), 'app', 120_000);
    expect(run.conclusion).toBe('success');
    const page = await (await web.get(`alice/app/actions/runs/${run.run_number}/jobs/0`)).text();
    expect(page.match(/<li>line \d+ of the long job &lt;with&gt; some &amp; text<\/li>/g)).toHaveLength(10_000);
    expect(page).toContain('<li>line 10000 of the long job &lt;with&gt; some &amp; text</li>');
    const tail = await (await web.get(`alice/app/actions/runs/${run.run_number}/jobs/0/log?from=9999`)).json() as { lines: string[] };
    expect(tail.lines).toContain('line 10000 of the long job <with> some & text');
  }, 150_000);
});

describe('cancel', () => {
  it('cancels a running run from its page', async () => {
    await ok(await s.request('api/v1/repos/alice/app/actions/workflows/slow.yml/dispatches', { method: 'POST', auth: as(alice), json: { ref: 'main' } }), 204);
    const run = (await listRuns(s, alice)).find((r) => pathOf(r).startsWith('slow.yml'))!;
    const page = `alice/app/actions/runs/${run.run_number}`;
    expect(await (await web.get(page)).text()).toContain('Cancel run');
    expect((await web.post(`${page}/cancel`, {}, { from: page })).status).toBe(303);
    const done = await completedRun(s, alice, (r) => r.id === run.id, 'app', 30_000);
    expect(done.conclusion).toBe('cancelled');
    expect(await (await web.get(page)).text()).toContain('Re-run all jobs');
  }, 60_000);
});

describe('dispatch and workflow switches', () => {
  it('dispatches a workflow with typed inputs; a bad one is 422 and starts nothing', async () => {
    const form = await (await web.get('alice/app/actions/run?workflow=manual.yml')).text();
    expect(form).toContain('name="inputs[loud]" value="on"');
    expect(form).toContain('<option selected>red</option>');
    expect(form).toContain('type="number" value="1"');
    const from = 'alice/app/actions/run?workflow=manual.yml';
    const bad = await web.post(from, { ref: 'main', 'inputs[greeting]': 'yo', 'inputs[count]': 'many', 'inputs[colour]': 'red' }, { from });
    expect(bad.status).toBe(422);
    const badText = await bad.text();
    expect(badText).toContain('must be a number');
    expect(badText).toContain('value="yo"');
    const noRef = await web.post(from, { ref: 'nowhere', 'inputs[count]': '2' }, { from });
    expect(noRef.status).toBe(422);
    expect((await listRuns(s, alice, 'app', '?event=workflow_dispatch')).filter((r) => pathOf(r).startsWith('manual.yml'))).toHaveLength(0);
    const good = await web.post(from, { ref: 'main', 'inputs[greeting]': 'yo', 'inputs[count]': '3', 'inputs[colour]': 'blue', 'inputs[loud]': 'on' }, { from });
    expect(good.status).toBe(303);
    const run = await completedRun(s, alice, (r) => pathOf(r).startsWith('manual.yml'));
    const [job] = await runJobs(s, alice, run.id);
    const log = await (await api(`repos/alice/app/actions/jobs/${job.id}/logs`)).text();
    expect(log).toContain('says yo blue 3 true');
  });

  it('disables and enables a workflow', async () => {
    const from = 'alice/app/actions';
    expect((await web.post('alice/app/actions/disable?workflow=manual.yml', {}, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/app/actions/workflows/manual.yml'))).state).toBe('disabled_manually');
    expect(await (await web.get('alice/app/actions')).text()).toContain('Enable manual');
    expect((await web.post('alice/app/actions/enable?workflow=manual.yml', {}, { from })).status).toBe(303);
    expect((await ok(await api('repos/alice/app/actions/workflows/manual.yml'))).state).toBe('active');
  });
});

describe('who sees what', () => {
  it('hides a private repository\'s runs from outsiders (404) and gives readers no forms', async () => {
    for (const c of [bobWeb, new WebClient(s)]) {
      expect((await c.get('alice/secret/actions')).status).toBe(404);
      expect((await c.get('alice/secret/actions/runs/1/jobs/0')).status).toBe(404);
    }
    await completedRun(s, alice, (r) => r.event === 'push');
    const page = await (await bobWeb.get('alice/app/actions')).text();
    expect(page).not.toContain('aria-label="Run manual"');
    expect((await bobWeb.get('alice/app/actions/runs/1')).status).toBe(200);
    const from = 'alice/app/actions';
    expect((await bobWeb.get('alice/app/actions/run?workflow=manual.yml')).status).toBe(403);
    expect((await bobWeb.post('alice/app/actions/disable?workflow=ci.yml', {}, { from })).status).toBe(403);
    expect((await bobWeb.post('alice/app/actions/runs/1/rerun', {}, { from })).status).toBe(403);
    expect((await ok(await api('repos/alice/app/actions/workflows/ci.yml'))).state).toBe('active');
    expect((await bobWeb.post('alice/secret/actions/runs/1/cancel', {}, { from })).status).toBe(404);
  });
});
