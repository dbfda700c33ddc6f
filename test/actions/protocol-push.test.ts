import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestampOf } from '../../src/convert/actions-proto';
import { Result } from '../../src/lib/actions-proto/runner/v1/messages_pb';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';
import { registrationToken, runnerClient, runnerHeaders } from './protocol-helpers';

// The whole protocol loop from a push: a workflow pushed to a repository gives a job a runner
// fetches (JSON encoding, as a runner configured so would), reports and finishes.

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => { await s.stop(); });

const WORKFLOW = `name: ci
on: push
jobs:
  build:
    runs-on: pushed
    steps:
      - name: say
        run: echo pushed
`;

describe('a pushed workflow', () => {
  it('is fetched by a runner with the label and finishes with its report', async () => {
    const alice = await createUser(s, 'alice');
    await createRepo(s, alice, 'proj');
    const { runner } = runnerClient(s, false);
    const token = await registrationToken(s, { ownerId: alice.id, repoId: 0 });
    const r = (await runner.register({ name: 'pusher', token, labels: ['pushed'] })).runner!;
    const reg = { uuid: r.uuid, token: r.token };

    const dir = await workTree({ '.gitea/workflows/ci.yml': WORKFLOW, 'README.md': 'hi\n' });
    await git(dir, 'push', remoteUrl(s, 'alice', 'proj', alice.username, alice.password), 'main');
    const sha = (await git(dir, 'rev-parse', 'HEAD')).trim();

    let task: Awaited<ReturnType<typeof runner.fetchTask>>['task'];
    await eventually(async () => {
      task = (await runner.fetchTask({}, runnerHeaders(reg))).task;
      return !!task;
    }, 15_000, 'a task from the push');
    expect(new TextDecoder().decode(task!.workflowPayload)).toContain('echo pushed');
    expect(task!.context).toMatchObject({ sha, event_name: 'push', ref: 'refs/heads/main', repository: 'alice/proj' });

    const now = Date.now();
    await runner.updateLog({ taskId: task!.id, index: 0n, rows: [{ time: timestampOf(now), content: 'pushed' }], noMore: true }, runnerHeaders(reg));
    const res = await runner.updateTask({
      state: { id: task!.id, result: Result.SUCCESS, steps: [{ id: 0n, result: Result.SUCCESS, logIndex: 0n, logLength: 1n }] },
    }, runnerHeaders(reg));
    expect(res.state?.result).toBe(Result.SUCCESS);
    const db = s.hearth.db;
    await eventually(async () => {
      const run = await db.selectFrom('action_run').select('status').where('commit_sha', '=', sha).executeTakeFirst();
      return run?.status === 'success';
    }, 10_000, 'the run to succeed');
  });
});
