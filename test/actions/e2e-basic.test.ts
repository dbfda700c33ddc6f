import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, ok, startTestServer, type TestServer } from '../helpers/server';
import {
  completedRun, jobLogs, pushFiles, repoRegistrationToken, runJobs, startHearthRunner, userWithRepo, workflow, type User,
} from './e2e-helpers';

let s: TestServer;
let user: User;
let runner: Awaited<ReturnType<typeof startHearthRunner>>;

beforeAll(async () => {
  s = await startTestServer();
  user = await userWithRepo(s, 'alice');
  runner = await startHearthRunner(s, await repoRegistrationToken(s, user));
});
afterAll(async () => {
  await runner?.stop();
  await s?.stop();
});

describe('a pushed workflow', () => {
  it('runs on hearth\'s runner, succeeds, and its logs and commit status come back', async () => {
    const sha = await pushFiles(s, user, {
      'README.md': 'hello from the repo\n',
      ...workflow(`name: ci
on: push
jobs:
  build:
    runs-on: hearth
    steps:
      - uses: actions/checkout@v4
      - name: show
        run: |
          echo "readme: $(cat README.md)"
          echo "sha=\${{ github.sha }} ref=\${{ github.ref }}"
      - run: echo second step
`),
    });
    const run = await completedRun(s, user, (r) => r.head_sha === sha);
    expect(run.conclusion).toBe('success');
    const [job] = await runJobs(s, user, run.id);
    expect(job.conclusion).toBe('success');
    const logs = await jobLogs(s, user, job.id);
    expect(logs).toContain('readme: hello from the repo');
    expect(logs).toContain(`sha=${sha} ref=refs/heads/main`);
    expect(logs).toContain('second step');
    const statuses = await ok(await s.request(`api/v1/repos/${user.username}/app/commits/${sha}/statuses`, { auth: as(user) }));
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses[0].status).toBe('success');
    expect(statuses[0].context).toBe('ci / build (push)');
  });
});
