import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { completedRun, jobLogs, pushFiles, runJobs, startHearthRunner, workflow, type User } from './e2e-helpers';

// `uses:` of actions kept on the same instance: a composite action and a node action in another
// repository of the owner run on hearth's runner; actions from elsewhere fail with a clear message.

let s: TestServer;
let user: User;
let runner: Awaited<ReturnType<typeof startHearthRunner>>;

const actionFiles = {
  'action.yml': `name: greet
description: a composite action
inputs:
  who:
    description: whom
    required: true
  punctuation:
    default: '!'
outputs:
  greeting:
    value: \${{ steps.g.outputs.text }}
runs:
  using: composite
  steps:
    - id: g
      shell: bash
      run: |
        echo "composite says hello \${{ inputs.who }}\${{ inputs.punctuation }}"
        echo "text=hi-\${{ inputs.who }}" >> "$GITHUB_OUTPUT"
`,
  'node-act/action.yml': `name: node
inputs:
  count:
    default: '3'
outputs:
  doubled:
    description: twice the count
runs:
  using: node20
  main: index.js
`,
  'node-act/index.js': `const fs = require('fs');
const n = Number(process.env.INPUT_COUNT);
console.log('node action running on node ' + process.version + ' with count ' + n);
fs.appendFileSync(process.env.GITHUB_OUTPUT, 'doubled=' + (n * 2) + '\\n');
`,
};

beforeAll(async () => {
  s = await startTestServer();
  user = await createUser(s, 'carol');
  await createRepo(s, user, 'actions-lib');
  await pushFiles(s, user, actionFiles, 'actions-lib');
  const token = (await ok(await s.request('api/v1/user/actions/runners/registration-token', { auth: as(user) }))).token;
  runner = await startHearthRunner(s, token);
});
afterAll(async () => {
  await runner?.stop();
  await s?.stop();
});

describe('uses: actions on the same instance', () => {
  it('runs a composite action and a node action with inputs and outputs', async () => {
    await createRepo(s, user, 'app');
    await pushFiles(s, user, workflow(`name: ci
on: push
jobs:
  use:
    runs-on: hearth
    steps:
      - id: greet
        uses: carol/actions-lib@main
        with:
          who: Dave
      - id: node
        uses: carol/actions-lib/node-act@main
        with:
          count: 21
      - run: echo "outputs \${{ steps.greet.outputs.greeting }} \${{ steps.node.outputs.doubled }}"
`), 'app');
    const run = await completedRun(s, user, () => true, 'app');
    const [job] = await runJobs(s, user, run.id, 'app');
    const logs = await jobLogs(s, user, job.id, 'app');
    expect(run.conclusion, logs).toBe('success');
    expect(logs).toContain('composite says hello Dave!');
    expect(logs).toContain('with count 21');
    expect(logs).toContain('outputs hi-Dave 42');
  });

  it('actions from elsewhere fail the step with a clear message', async () => {
    await createRepo(s, user, 'foreign');
    await pushFiles(s, user, workflow(`name: ci
on: push
jobs:
  use:
    runs-on: hearth
    steps:
      - uses: https://github.com/actions/setup-node@v4
      - if: always()
        uses: docker://alpine:3
      - if: always()
        uses: carol/no-such-action@v1
`), 'foreign');
    const run = await completedRun(s, user, () => true, 'foreign');
    expect(run.conclusion).toBe('failure');
    const [job] = await runJobs(s, user, run.id, 'foreign');
    const logs = await jobLogs(s, user, job.id, 'foreign');
    expect(logs).toContain('only runs actions hosted on this instance');
    expect(logs).toContain('docker actions are not supported');
    expect(logs).toContain('cannot fetch action carol/no-such-action@v1');
  });

  it('runs a local action from the checked-out workspace (./path) and checks out another repository into a path', async () => {
    await createRepo(s, user, 'local');
    await pushFiles(s, user, {
      ...workflow(`name: ci
on: push
jobs:
  use:
    runs-on: hearth
    steps:
      - uses: actions/checkout@v4
      - uses: ./.gitea/actions/hello
        with:
          name: local
      - uses: actions/checkout@v4
        with:
          repository: carol/actions-lib
          path: lib
      - run: test -f lib/node-act/index.js && test -f .gitea/actions/hello/action.yml && echo "both checked out"
`),
      '.gitea/actions/hello/action.yml': `name: hello
inputs:
  name:
    required: true
runs:
  using: composite
  steps:
    - shell: sh
      run: echo "local action says \${{ inputs.name }} from $(basename "$GITHUB_ACTION_PATH")"
`,
    }, 'local');
    const run = await completedRun(s, user, () => true, 'local');
    const [job] = await runJobs(s, user, run.id, 'local');
    const logs = await jobLogs(s, user, job.id, 'local');
    expect(run.conclusion, logs).toBe('success');
    expect(logs).toContain('local action says local from hello');
    expect(logs).toContain('both checked out');
  });
});
