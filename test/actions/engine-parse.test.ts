import { describe, expect, it } from 'vitest';
import { parseOn } from '../../src/services/actions/workflow/events';
import { concurrencyOf, expandJobs } from '../../src/services/actions/workflow/expand';
import { checkInputs } from '../../src/services/actions/workflow/inputs';
import { matchingEvent } from '../../src/services/actions/workflow/match';
import { matrixCombinations, matrixSuffix } from '../../src/services/actions/workflow/matrix';
import { parseWorkflow, readEvents, readYaml } from '../../src/services/actions/workflow/parse';
import { matchesIgnore, matchesInclude, patternToRegex } from '../../src/services/actions/workflow/patterns';
import { nextCron, parseCron } from '../../src/services/actions/workflow/cron';

const ctx = { github: { event_name: 'push', ref: 'refs/heads/main', ref_name: 'main', sha: 'abc' }, vars: { TARGET: 'prod' }, inputs: {} };

describe('on: in all its forms', () => {
  it('takes a string, a list and a map', () => {
    expect(parseOn('push').map((e) => e.name)).toEqual(['push']);
    expect(parseOn(['push', 'pull_request']).map((e) => e.name)).toEqual(['push', 'pull_request']);
    const evts = parseOn({ push: { branches: ['main', 'release/**'], 'paths-ignore': 'docs/**' }, issues: null, schedule: [{ cron: '0 3 * * *' }] });
    expect(evts[0]).toMatchObject({ name: 'push', acts: { branches: ['main', 'release/**'], 'paths-ignore': ['docs/**'] } });
    expect(evts[1]).toMatchObject({ name: 'issues', acts: {} });
    expect(evts[2]).toMatchObject({ name: 'schedule', schedules: ['0 3 * * *'] });
  });

  it('reads workflow_dispatch inputs with their types', () => {
    const [evt] = parseOn({ workflow_dispatch: { inputs: {
      level: { type: 'choice', options: ['info', 'debug'], default: 'info', required: true },
      dry: { type: 'boolean', default: false },
      note: { description: 'free text' },
    } } });
    expect(evt!.inputs).toEqual([
      { name: 'level', description: '', required: true, default: 'info', type: 'choice', options: ['info', 'debug'] },
      { name: 'dry', description: '', required: false, default: 'false', type: 'boolean', options: [] },
      { name: 'note', description: 'free text', required: false, default: '', type: 'string', options: [] },
    ]);
  });

  it('refuses a missing or malformed on', () => {
    expect(() => parseOn(undefined)).toThrow(/no "on"/);
    expect(() => parseOn([1])).toThrow(/invalid type/);
    expect(() => readEvents('on: {push: {branches: {a: 1}}}\njobs: {}')).toThrow(/unknown on type/);
  });

  it('keeps `on` a string key, as YAML 1.2 and Go do', () => {
    expect(readYaml('on: push\n')).toEqual({ on: 'push' });
  });
});

describe('GitHub filter patterns', () => {
  it.each([
    ['main', 'main', true], ['*', 'feature/x', false], ['**', 'feature/x', true], ['feature/*', 'feature/x', true],
    ['feature/*', 'feature/x/y', false], ['v[12].*', 'v1.0', true], ['v[12].*', 'v3.0', false],
    ['docs/**/*.md', 'docs/README.md', true], ['docs/**/*.md', 'docs/a/b/c.md', true], ['**.js', 'a/b.js', true],
    ['v2?', 'v', true], ['v2+', 'v222', true], ['\\*', '*', true], ['**/README.md', 'README.md', true],
  ])('%s ~ %s: %s', (pattern, value, expected) => {
    expect(patternToRegex(pattern).test(value)).toBe(expected);
  });

  it('lets the last matching pattern decide, ! excluding', () => {
    expect(matchesInclude(['releases/**', '!releases/**-alpha'], ['releases/1.0-alpha'])).toBe(false);
    expect(matchesInclude(['releases/**', '!releases/**-alpha'], ['releases/1.0'])).toBe(true);
    expect(matchesIgnore(['docs/**'], ['docs/a.md', 'docs/b.md'])).toBe(false);
    expect(matchesIgnore(['docs/**'], ['docs/a.md', 'src/x.ts'])).toBe(true);
    expect(matchesIgnore(['docs/**', '!docs/keep.md'], ['docs/keep.md'])).toBe(true);
  });

  it('refuses invalid patterns', () => {
    expect(() => patternToRegex('[')).toThrow();
    expect(() => patternToRegex('[]')).toThrow();
    expect(() => patternToRegex('a\\')).toThrow();
  });
});

describe('event matching', () => {
  const ev = (on: unknown) => parseOn(on);
  const files = (list: string[]) => async () => list;

  it('push: branches, branches-ignore, tags, paths', async () => {
    const push = (ref: string, changed: string[] = ['src/a.ts']) => ({ event: 'push', ref, changedFiles: files(changed) });
    expect(await matchingEvent(ev({ push: { branches: ['main'] } }), push('refs/heads/main'))).not.toBeNull();
    expect(await matchingEvent(ev({ push: { branches: ['main'] } }), push('refs/heads/dev'))).toBeNull();
    expect(await matchingEvent(ev({ push: { branches: ['main'] } }), push('refs/tags/v1'))).toBeNull();
    expect(await matchingEvent(ev({ push: { 'branches-ignore': ['wip/**'] } }), push('refs/heads/wip/x'))).toBeNull();
    expect(await matchingEvent(ev({ push: { tags: ['v*'] } }), push('refs/tags/v1.2'))).not.toBeNull();
    expect(await matchingEvent(ev({ push: { 'tags-ignore': ['v*'] } }), push('refs/tags/v1.2'))).toBeNull();
    // both kinds given: either one matching is enough
    expect(await matchingEvent(ev({ push: { branches: ['main'], tags: ['v*'] } }), push('refs/tags/v1'))).not.toBeNull();
    expect(await matchingEvent(ev({ push: { paths: ['src/**'] } }), push('refs/heads/main'))).not.toBeNull();
    expect(await matchingEvent(ev({ push: { paths: ['docs/**'] } }), push('refs/heads/main'))).toBeNull();
    expect(await matchingEvent(ev({ push: { 'paths-ignore': ['docs/**'] } }), push('refs/heads/main', ['docs/x.md']))).toBeNull();
    expect(await matchingEvent(ev('pull_request'), push('refs/heads/main'))).toBeNull();
  });

  it('pull_request: default types, types, base branches', async () => {
    const pr = (action: string, ref = 'main') => ({ event: 'pull_request', action, ref, changedFiles: files(['a']) });
    expect(await matchingEvent(ev('pull_request'), pr('opened'))).not.toBeNull();
    expect(await matchingEvent(ev('pull_request'), pr('synchronize'))).not.toBeNull();
    expect(await matchingEvent(ev('pull_request'), pr('closed'))).toBeNull();
    expect(await matchingEvent(ev({ pull_request: { types: ['closed', 'labeled'] } }), pr('closed'))).not.toBeNull();
    expect(await matchingEvent(ev({ pull_request: { branches: ['release/*'] } }), pr('opened', 'release/1'))).not.toBeNull();
    expect(await matchingEvent(ev({ pull_request: { branches: ['release/*'] } }), pr('opened'))).toBeNull();
    expect(await matchingEvent(ev({ pull_request_target: null }), { ...pr('opened'), event: 'pull_request_target' })).not.toBeNull();
  });

  it('issues, issue_comment, release: types', async () => {
    expect(await matchingEvent(ev({ issues: { types: ['opened'] } }), { event: 'issues', action: 'opened' })).not.toBeNull();
    expect(await matchingEvent(ev({ issues: { types: ['opened'] } }), { event: 'issues', action: 'closed' })).toBeNull();
    expect(await matchingEvent(ev('issue_comment'), { event: 'issue_comment', action: 'created' })).not.toBeNull();
    expect(await matchingEvent(ev({ release: { types: ['published'] } }), { event: 'release', action: 'published' })).not.toBeNull();
    expect(await matchingEvent(ev(['create', 'delete']), { event: 'delete' })).not.toBeNull();
  });
});

describe('matrix expansion', () => {
  it('takes the product, minus exclude, plus include', () => {
    const combos = matrixCombinations({
      os: ['linux', 'mac'], node: [18, 20],
      exclude: [{ os: 'mac', node: 18 }],
      include: [{ os: 'linux', experimental: true }, { os: 'windows', node: 20 }],
    });
    expect(combos).toEqual([
      { os: 'linux', node: 18, experimental: true }, { os: 'linux', node: 20, experimental: true },
      { os: 'mac', node: 20 }, { os: 'windows', node: 20 },
    ]);
  });

  it('names combinations as Gitea: values by sorted key', () => {
    expect(matrixSuffix({ version: '1.17', os: 'ubuntu' })).toBe(' (ubuntu, 1.17)');
    expect(matrixSuffix({})).toBe('');
  });

  it('only include: each entry is a combination', () => {
    expect(matrixCombinations({ include: [{ a: 1 }, { a: 2 }] })).toEqual([{ a: 1 }, { a: 2 }]);
  });
});

const WORKFLOW = `
name: CI
on: [push]
env: { GLOBAL: "1" }
concurrency:
  group: ci-\${{ github.ref }}
  cancel-in-progress: true
defaults:
  run:
    shell: bash
jobs:
  build:
    strategy:
      fail-fast: false
      matrix:
        os: [linux, mac]
        node: [18, 20]
    runs-on: \${{ matrix.os }}
    timeout-minutes: 15
    steps:
      - run: echo \${{ matrix.node }}
  test:
    name: Tests
    needs: build
    runs-on: [self-hosted, linux]
    if: github.ref == 'refs/heads/main'
    continue-on-error: true
    steps:
      - run: make test
`;

describe('job expansion', () => {
  it('expands jobs and matrices with names, runs-on, needs, if and limits', () => {
    const jobs = expandJobs(parseWorkflow(WORKFLOW), ctx);
    // Values in the order of their sorted keys (node, os), as Gitea 1.25 names them.
    expect(jobs.map((j) => j.name)).toEqual(['build (18, linux)', 'build (20, linux)', 'build (18, mac)', 'build (20, mac)', 'Tests']);
    expect(jobs[2]).toMatchObject({ jobId: 'build', runsOn: ['mac'], needs: [], timeoutMinutes: 15, matrix: { os: 'mac', node: 18 }, ifExpr: null });
    expect(jobs[4]).toMatchObject({
      jobId: 'test', runsOn: ['self-hosted', 'linux'], needs: ['build'], continueOnError: true,
      ifExpr: "github.ref == 'refs/heads/main'", matrix: null, timeoutMinutes: null,
    });
  });

  it('writes the single-job workflow the runner receives, as Gitea\'s jobparser', () => {
    const [first] = expandJobs(parseWorkflow(WORKFLOW), ctx);
    const doc = readYaml(first!.payload) as Record<string, any>;
    expect(Object.keys(doc)).toEqual(['name', 'on', 'env', 'jobs', 'defaults']);
    expect(Object.keys(doc.jobs)).toEqual(['build']);
    expect(doc.jobs.build).toEqual({
      name: 'build (18, linux)', 'runs-on': 'linux', steps: [{ run: 'echo ${{ matrix.node }}' }], 'timeout-minutes': 15,
      strategy: { 'fail-fast': false, matrix: { os: ['linux'], node: [18] } },
    });
    expect(first!.payload).toContain('jobs:\n  build:\n    name: build (18, linux)\n');
  });

  it('interpolates a name with an expression instead of suffixing it', () => {
    const wf = parseWorkflow('on: push\njobs:\n  a:\n    name: "Build ${{ matrix.v }}"\n    strategy: {matrix: {v: [1]}}\n    runs-on: x\n    steps: [{run: echo}]\n');
    expect(expandJobs(wf, ctx)[0]!.name).toBe('Build 1');
  });

  it('evaluates the workflow concurrency over github', () => {
    expect(concurrencyOf(parseWorkflow(WORKFLOW).concurrency, ctx)).toEqual({ group: 'ci-refs/heads/main', cancelInProgress: true });
    expect(concurrencyOf('deploy-${{ vars.TARGET }}', ctx)).toEqual({ group: 'deploy-prod', cancelInProgress: false });
    expect(concurrencyOf(undefined, ctx)).toBeNull();
  });

  it.each([
    ['on: push\njobs:\n  a: {runs-on: x, needs: b}\n', /needs job "b"/],
    ['on: push\njobs:\n  a: {runs-on: x, needs: b}\n  b: {runs-on: x, needs: a}\n', /cycle/],
    ['on: push\njobs: {}\n', /no jobs/],
    ['on: push\n', /no jobs/],
    ['on: push\njobs:\n  a: {steps: []}\n', /no runs-on/],
    ['on: push\njobs:\n  a: [1]\n', /must be a map/],
    ['on: push\njobs:\n  a:\n   runs-on: x\n  - bad\n', /yaml/],
  ])('refuses an unplannable workflow (%#)', (text, message) => {
    expect(() => expandJobs(parseWorkflow(text), ctx)).toThrow(message);
  });
});

describe('workflow_dispatch inputs', () => {
  const [evt] = parseOn({ workflow_dispatch: { inputs: {
    level: { type: 'choice', options: ['info', 'debug'], default: 'info' },
    dry: { type: 'boolean' },
    count: { type: 'number', default: '1' },
    who: { type: 'string', required: true },
    env: { type: 'environment' },
  } } });

  it('fills defaults and types the values', () => {
    expect(checkInputs(evt!.inputs, { who: 'me', dry: 'TRUE' })).toEqual({
      raw: { level: 'info', dry: 'true', count: '1', who: 'me', env: '' },
      typed: { level: 'info', dry: true, count: 1, who: 'me', env: '' },
    });
  });

  it.each([
    [{}, /"who" is required/], [{ who: 'x', level: 'trace' }, /one of: info, debug/], [{ who: 'x', dry: 'yes' }, /true or false/],
    [{ who: 'x', count: 'many' }, /must be a number/], [{ who: 'x', other: '1' }, /unexpected inputs: other/],
  ])('refuses %j', (given, message) => {
    expect(() => checkInputs(evt!.inputs, given)).toThrow(message);
  });
});

describe('cron schedules', () => {
  const at = (iso: string) => Date.parse(iso) / 1000;
  const iso = (unix: number) => new Date(unix * 1000).toISOString();
  it.each([
    ['*/15 * * * *', '2026-01-01T10:07:00Z', '2026-01-01T10:15:00.000Z'],
    ['0 3 * * *', '2026-01-01T10:07:00Z', '2026-01-02T03:00:00.000Z'],
    ['30 4 * * mon', '2026-01-01T10:07:00Z', '2026-01-05T04:30:00.000Z'],
    ['0 0 1 jan *', '2026-01-01T10:07:00Z', '2027-01-01T00:00:00.000Z'],
    ['@hourly', '2026-01-01T10:07:00Z', '2026-01-01T11:00:00.000Z'],
    ['0 12 13 * 5', '2026-02-01T00:00:00Z', '2026-02-06T12:00:00.000Z'],
  ])('%s after %s is %s', (spec, after, next) => {
    expect(iso(nextCron(parseCron(spec), at(after)))).toBe(next);
  });

  it('refuses malformed specs', () => {
    expect(() => parseCron('* * *')).toThrow();
    expect(() => parseCron('61 * * * *')).toThrow();
  });
});
