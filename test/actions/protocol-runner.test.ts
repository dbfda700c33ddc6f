import { Code, ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestampOf } from '../../src/convert/actions-proto';
import { Result } from '../../src/lib/actions-proto/runner/v1/messages_pb';
import { createRepo } from '../helpers/git';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { queueRun, registrationToken, runnerClient, runnerHeaders, type RunnerClient } from './protocol-helpers';

// The runner protocol driven as act_runner drives it, over binary protobuf and JSON: register,
// declare, fetch, report steps, outputs and logs; wrong credentials and other runners' tasks.

type Creds = { username: string; password: string; id: number };
type Reg = { uuid: string; token: string; id: number };

let s: TestServer;
let alice: Creds;
let repo: { id: number; owner_id: number };
let sha: string;

const codeOf = async (p: Promise<unknown>): Promise<Code | 'ok'> => {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return ConnectError.from(err).code;
  }
};

async function register(c: RunnerClient, labels: string[], name = 'r1'): Promise<Reg> {
  const token = await registrationToken(s, { ownerId: 0, repoId: 0 });
  const res = await c.register({ name, token, version: 'v0.2.11', labels });
  const r = res.runner!;
  return { uuid: r.uuid, token: r.token, id: Number(r.id) };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  const r = await createRepo(s, alice, 'proj', { auto_init: true, private: true });
  repo = { id: Number(r.id), owner_id: alice.id };
  const branch = await s.request('api/v1/repos/alice/proj/branches/main', { auth: { basic: [alice.username, alice.password] } });
  sha = ((await branch.json()) as { commit: { id: string } }).commit.id;
});
afterAll(async () => { await s.stop(); });

for (const binary of [true, false]) {
  describe(`runner protocol (${binary ? 'binary' : 'JSON'})`, () => {
    const label = binary ? 'bin-linux' : 'json-linux';

    it('answers ping', async () => {
      const { ping } = runnerClient(s, binary);
      expect((await ping.ping({ data: 'runner' })).data).toBe('Hello, runner!');
    });

    it('registers with a good token and refuses a bad one', async () => {
      const { runner } = runnerClient(s, binary);
      const reg = await register(runner, [label], 'good');
      expect(reg.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(reg.token).toMatch(/^[0-9a-f]{40}$/);
      expect(await codeOf(runner.register({ name: 'bad', token: 'not-a-token', labels: [label] }))).toBe(Code.Unauthenticated);
      const row = await s.hearth.db.selectFrom('action_runner').selectAll().where('uuid', '=', reg.uuid).executeTakeFirstOrThrow();
      expect(JSON.parse(row.labels)).toEqual([label]);
      expect(row.token_hash).not.toBe(reg.token);
    });

    it('declares labels and version; wrong uuid or token is unauthenticated', async () => {
      const { runner } = runnerClient(s, binary);
      const reg = await register(runner, ['old']);
      const res = await runner.declare({ version: 'v9', labels: [label, 'extra:host'] }, runnerHeaders(reg));
      expect(res.runner?.labels).toEqual([label, 'extra:host']);
      expect(res.runner?.version).toBe('v9');
      expect(await codeOf(runner.declare({ version: 'v9', labels: [] }, runnerHeaders({ ...reg, token: 'f'.repeat(40) })))).toBe(Code.Unauthenticated);
      expect(await codeOf(runner.declare({ version: 'v9', labels: [] }, runnerHeaders({ ...reg, uuid: crypto.randomUUID() })))).toBe(Code.Unauthenticated);
      expect(await codeOf(runner.fetchTask({}, runnerHeaders({ uuid: '', token: '' })))).toBe(Code.Unauthenticated);
    });

    it('fetches nothing quickly, then a task; reports steps, outputs, logs and the result', async () => {
      const { runner } = runnerClient(s, binary);
      const reg = await register(runner, [label]);
      const t0 = Date.now();
      const empty = await runner.fetchTask({ tasksVersion: 0n }, runnerHeaders(reg));
      expect(empty.task).toBeUndefined();
      expect(Date.now() - t0).toBeLessThan(2000);

      const { jobIds } = await queueRun(s, repo, sha, [{ id: 'build', label }]);
      const got = await runner.fetchTask({ tasksVersion: empty.tasksVersion }, runnerHeaders(reg));
      const task = got.task!;
      expect(task).toBeDefined();
      expect(new TextDecoder().decode(task.workflowPayload)).toContain('echo hello');
      const ctx = task.context as Record<string, unknown>;
      expect(ctx).toMatchObject({ repository: 'alice/proj', sha, event_name: 'push', ref: 'refs/heads/main', run_number: expect.any(String) });
      expect(String(ctx.token)).toMatch(/^[0-9a-f]{40}$/);
      expect(task.secrets.GITEA_TOKEN).toBe(ctx.token);
      expect(task.secrets.GITHUB_TOKEN).toBe(ctx.token);
      const job = await s.hearth.db.selectFrom('action_run_job').selectAll().where('id', '=', jobIds[0]!).executeTakeFirstOrThrow();
      expect(job.status).toBe('running');
      expect(job.task_id).toBe(Number(task.id));

      const now = Date.now();
      const log = await runner.updateLog({
        taskId: task.id, index: 0n, rows: [{ time: timestampOf(now), content: 'line 0' }, { time: timestampOf(now), content: 'line 1' }],
      }, runnerHeaders(reg));
      expect(log.ackIndex).toBe(2n);
      // A resend from an older index appends only what is new.
      const again = await runner.updateLog({
        taskId: task.id, index: 1n, rows: [{ time: timestampOf(now), content: 'line 1' }, { time: timestampOf(now), content: 'line 2' }],
      }, runnerHeaders(reg));
      expect(again.ackIndex).toBe(3n);
      const gap = await runner.updateLog({ taskId: task.id, index: 9n, rows: [{ content: 'x' }] }, runnerHeaders(reg));
      expect(gap.ackIndex).toBe(3n);

      const mid = await runner.updateTask({
        state: { id: task.id, steps: [{ id: 0n, result: Result.SUCCESS, startedAt: timestampOf(now), stoppedAt: timestampOf(now), logIndex: 0n, logLength: 2n }] },
        outputs: { answer: '42' },
      }, runnerHeaders(reg));
      expect(mid.state?.result).toBe(Result.UNSPECIFIED);
      expect(mid.sentOutputs).toEqual(['answer']);

      const done = await runner.updateTask({
        state: { id: task.id, result: Result.SUCCESS, stoppedAt: timestampOf(Date.now()), steps: [{ id: 1n, result: Result.SUCCESS, logIndex: 2n, logLength: 1n }] },
        outputs: { other: 'x' },
      }, runnerHeaders(reg));
      expect(done.state?.result).toBe(Result.SUCCESS);
      expect(done.sentOutputs.sort()).toEqual(['answer', 'other']);

      const db = s.hearth.db;
      const rows = await db.selectFrom('action_task_log').selectAll().where('task_id', '=', Number(task.id)).orderBy('idx').execute();
      expect(rows.map((r) => r.content)).toEqual(['line 0', 'line 1', 'line 2']);
      const steps = await db.selectFrom('action_task_step').selectAll().where('task_id', '=', Number(task.id)).orderBy('idx').execute();
      expect(steps.map((x) => [x.name, x.status, x.log_index, x.log_length])).toEqual([['hello', 'success', 0, 2], ['echo second', 'success', 2, 1]]);
      const after = await db.selectFrom('action_run_job').selectAll().where('id', '=', jobIds[0]!).executeTakeFirstOrThrow();
      expect(after.status).toBe('success');
      const r = await db.selectFrom('action_runner').selectAll().where('uuid', '=', reg.uuid).executeTakeFirstOrThrow();
      expect(r.last_active_unix).toBeGreaterThan(0);
      expect(r.last_online_unix).toBeGreaterThan(0);
    });

    it("refuses reports on another runner's task and on an unknown task", async () => {
      const { runner } = runnerClient(s, binary);
      const own = await register(runner, [`${label}-own`]);
      const other = await register(runner, [`${label}-own`], 'other');
      await queueRun(s, repo, sha, [{ id: 'solo', label: `${label}-own` }]);
      const task = (await runner.fetchTask({}, runnerHeaders(own))).task!;
      expect(task).toBeDefined();
      expect((await runner.fetchTask({}, runnerHeaders(other))).task).toBeUndefined();
      expect(await codeOf(runner.updateTask({ state: { id: task.id, result: Result.FAILURE } }, runnerHeaders(other)))).toBe(Code.PermissionDenied);
      expect(await codeOf(runner.updateLog({ taskId: task.id, index: 0n, rows: [{ content: 'x' }] }, runnerHeaders(other)))).toBe(Code.PermissionDenied);
      expect(await codeOf(runner.updateTask({ state: { id: 999999n } }, runnerHeaders(own)))).toBe(Code.NotFound);
      const res = await runner.updateTask({ state: { id: task.id, result: Result.FAILURE } }, runnerHeaders(own));
      expect(res.state?.result).toBe(Result.FAILURE);
    });

    it('hands a job only to a runner with all of its labels', async () => {
      const { runner } = runnerClient(s, binary);
      const narrow = await register(runner, [`${label}-a`]);
      const wide = await register(runner, [`${label}-a`, `${label}-b:docker://node:20`]);
      const db = s.hearth.db;
      const { jobIds } = await queueRun(s, repo, sha, [{ id: 'needs-b', label: `${label}-b` }]);
      expect((await runner.fetchTask({}, runnerHeaders(narrow))).task).toBeUndefined();
      const task = (await runner.fetchTask({}, runnerHeaders(wide))).task!;
      expect(task).toBeDefined();
      const job = await db.selectFrom('action_run_job').select('task_id').where('id', '=', jobIds[0]!).executeTakeFirstOrThrow();
      expect(job.task_id).toBe(Number(task.id));
      await runner.updateTask({ state: { id: task.id, result: Result.SUCCESS } }, runnerHeaders(wide));
    });
  });
}
