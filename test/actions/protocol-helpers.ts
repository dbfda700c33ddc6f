import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { PingService } from '../../src/lib/actions-proto/ping/v1/services_pb';
import { RunnerService } from '../../src/lib/actions-proto/runner/v1/services_pb';
import { nowUnix } from '../../src/lib/time';
import { insertRun, insertRunJob } from '../../src/models/actions-engine';
import { insertRunnerToken } from '../../src/models/actions-runner-tokens';
import type { TestServer } from '../helpers/server';

// A connect client of the runner protocol as act_runner builds one, and the rows a test needs
// (a registration token, a run with waiting jobs) made through the models.

export type RunnerClient = Client<typeof RunnerService>;

export function runnerClient(s: TestServer, binary: boolean): { runner: RunnerClient; ping: Client<typeof PingService> } {
  const transport = createConnectTransport({
    baseUrl: new URL('api/actions', s.hearth.config.server.root_url).toString(), httpVersion: '1.1', useBinaryFormat: binary,
  });
  return { runner: createClient(RunnerService, transport), ping: createClient(PingService, transport) };
}

export const runnerHeaders = (r: { uuid: string; token: string }) => ({ headers: { 'x-runner-uuid': r.uuid, 'x-runner-token': r.token } });

export async function registrationToken(s: TestServer, scope: { ownerId: number; repoId: number }): Promise<string> {
  const token = `reg${Math.random().toString(36).slice(2)}${Date.now()}`;
  await insertRunnerToken(s.hearth.db, scope, token, nowUnix());
  return token;
}

export const workflowYaml = (job: string, label: string) => `name: ci
on: push
jobs:
  ${job}:
    runs-on: ${label}
    steps:
      - name: hello
        run: echo hello
      - run: echo second
`;

/** A run of the repository with one waiting job per entry ({job id, runs-on label}). */
export async function queueRun(
  s: TestServer, repo: { id: number; owner_id: number }, sha: string, jobs: { id: string; label: string; needs?: string[] }[],
): Promise<{ runId: number; jobIds: number[] }> {
  const db = s.hearth.db;
  const now = nowUnix();
  const last = await db.selectFrom('action_run').select((eb) => eb.fn.max('run_index').as('n')).where('repo_id', '=', repo.id).executeTakeFirst();
  const run = await insertRun(db, {
    repo_id: repo.id, owner_id: repo.owner_id, run_index: Number(last?.n ?? 0) + 1, title: 'test run', workflow_id: 'ci.yml',
    trigger_user_id: repo.owner_id, ref: 'refs/heads/main', commit_sha: sha, event: 'push', trigger_event: 'push',
    event_payload: '{}', status: 'waiting', created_unix: now, updated_unix: now,
  });
  const jobIds: number[] = [];
  for (const j of jobs) {
    const row = await insertRunJob(db, {
      run_id: run.id, repo_id: repo.id, owner_id: repo.owner_id, commit_sha: sha, name: j.id, job_id: j.id,
      workflow_payload: workflowYaml(j.id, j.label), needs: JSON.stringify(j.needs ?? []), runs_on: JSON.stringify([j.label]),
      status: j.needs?.length ? 'blocked' : 'waiting', created_unix: now, updated_unix: now,
    });
    jobIds.push(row.id);
  }
  return { runId: run.id, jobIds };
}
