import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Result } from '../../src/lib/actions-proto/runner/v1/messages_pb';
import { cleanupActions } from '../../src/services/actions/maintenance';
import { createRepo } from '../helpers/git';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { queueRun, registrationToken, runnerClient, runnerHeaders, type RunnerClient } from './protocol-helpers';

// The artifact v4 protocol as upload-artifact@v4 / download-artifact@v4 drive it: the runtime
// token's scp claim names run and job; blocks uploaded out of order are joined in block-list order.

let s: TestServer;
let runner: RunnerClient;
let reg: { uuid: string; token: string };
let taskId: bigint;
let runtime: string;
let runId: string;
let jobId: string;

const twirp = (method: string, body: unknown, token = runtime) =>
  s.request(`twirp/github.actions.results.api.v1.ArtifactService/${method}`, {
    method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });

beforeAll(async () => {
  s = await startTestServer();
  const alice = await createUser(s, 'alice');
  const r = await createRepo(s, alice, 'proj', { auto_init: true });
  const branch = await s.request('api/v1/repos/alice/proj/branches/main');
  const sha = ((await branch.json()) as { commit: { id: string } }).commit.id;
  runner = runnerClient(s, true).runner;
  const token = await registrationToken(s, { ownerId: 0, repoId: 0 });
  const res = await runner.register({ name: 'art', token, labels: ['art'] });
  reg = { uuid: res.runner!.uuid, token: res.runner!.token };
  await queueRun(s, { id: Number(r.id), owner_id: alice.id }, sha, [{ id: 'build', label: 'art' }]);
  const task = (await runner.fetchTask({}, runnerHeaders(reg))).task!;
  taskId = task.id;
  runtime = String((task.context as Record<string, unknown>).gitea_runtime_token);
  const claims = JSON.parse(Buffer.from(runtime.split('.')[1]!, 'base64url').toString()) as { scp: string };
  [, runId, jobId] = /^Actions\.Results:(\d+):(\d+)$/.exec(claims.scp)!.map(String) as [string, string, string];
});
afterAll(async () => { await s.stop(); });

describe('artifacts v4', () => {
  const content = Buffer.concat([Buffer.from('PK first block '), crypto.randomBytes(2048), Buffer.from(' second block')]);
  const ids = { run: () => ({ workflow_run_backend_id: runId, workflow_job_run_backend_id: jobId }) };

  it('uploads in blocks, finalizes with the hash, lists and downloads', async () => {
    const created = await twirp('CreateArtifact', { ...ids.run(), name: 'dist', version: 4 });
    expect(created.status).toBe(200);
    const { ok, signedUploadUrl } = (await created.json()) as { ok: boolean; signedUploadUrl: string };
    expect(ok).toBe(true);
    const a = content.subarray(0, 1000);
    const b = content.subarray(1000);
    // Block b first: the block list decides the order.
    for (const [id, part] of [['YmxvY2stMg==', b], ['YmxvY2stMQ==', a]] as const) {
      const put = await fetch(`${signedUploadUrl}&comp=block&blockid=${encodeURIComponent(id)}`, { method: 'PUT', body: part });
      expect(put.status).toBe(201);
    }
    const xml = '<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>YmxvY2stMQ==</Latest><Latest>YmxvY2stMg==</Latest></BlockList>';
    expect((await fetch(`${signedUploadUrl}&comp=blocklist`, { method: 'PUT', body: xml })).status).toBe(201);
    const hash = `sha256:${crypto.createHash('sha256').update(content).digest('hex')}`;
    const fin = await twirp('FinalizeArtifact', { ...ids.run(), name: 'dist', size: String(content.length), hash: { value: hash } });
    expect(fin.status).toBe(200);
    const { artifactId } = (await fin.json()) as { artifactId: string };
    expect(Number(artifactId)).toBeGreaterThan(0);

    const list = (await (await twirp('ListArtifacts', { ...ids.run(), name_filter: { value: 'dist' } })).json()) as { artifacts: Record<string, string>[] };
    expect(list.artifacts).toEqual([expect.objectContaining({ name: 'dist', databaseId: artifactId, size: String(content.length), workflowRunBackendId: runId })]);
    const signed = (await (await twirp('GetSignedArtifactURL', { ...ids.run(), name: 'dist' })).json()) as { signedUrl: string };
    const dl = await fetch(signed.signedUrl);
    expect(dl.status).toBe(200);
    expect(Buffer.from(await dl.arrayBuffer()).equals(content)).toBe(true);
    const tampered = signed.signedUrl.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await fetch(tampered)).status).toBe(401);
  });

  it('with [storage] serve_direct on a bucket, GetSignedArtifactURL hands out the bucket\'s presigned URL (on disk, its own)', async () => {
    const { signedUploadUrl } = (await (await twirp('CreateArtifact', { ...ids.run(), name: 'direct' })).json()) as { signedUploadUrl: string };
    expect((await fetch(signedUploadUrl, { method: 'PUT', body: 'direct bytes' })).status).toBe(201);
    expect((await twirp('FinalizeArtifact', { ...ids.run(), name: 'direct' })).status).toBe(200);
    const storage = s.hearth.config.storage;
    storage.serve_direct = true;
    try {
      const { signedUrl } = (await (await twirp('GetSignedArtifactURL', { ...ids.run(), name: 'direct' })).json()) as { signedUrl: string };
      // The S3 pass keeps the server's files in a bucket; otherwise they are on disk and the key is ignored.
      if (s.hearth.blobs.kind === 's3') expect(new URL(signedUrl).searchParams.get('X-Amz-Expires')).toBe('300');
      else expect(signedUrl.startsWith(s.hearth.config.server.root_url)).toBe(true);
      expect(await (await fetch(signedUrl)).text()).toBe('direct bytes');
    } finally {
      storage.serve_direct = false;
    }
  });

  it('appends unblocked uploads in order; a wrong hash is refused', async () => {
    const { signedUploadUrl } = (await (await twirp('CreateArtifact', { ...ids.run(), name: 'logs' })).json()) as { signedUploadUrl: string };
    await fetch(`${signedUploadUrl}&comp=appendBlock`, { method: 'PUT', body: 'one,' });
    await fetch(`${signedUploadUrl}&comp=appendBlock`, { method: 'PUT', body: 'two' });
    const bad = await twirp('FinalizeArtifact', { ...ids.run(), name: 'logs', hash: { value: 'sha256:00' } });
    expect(bad.status).toBe(400);
  });

  it('cleanup_actions drops the blocks of an upload abandoned for longer than a task may run', async () => {
    const db = s.hearth.db;
    const logs = await db.selectFrom('action_artifact').select(['id', 'status']).where('artifact_name', '=', 'logs').executeTakeFirstOrThrow();
    expect(logs.status).toBe('pending');
    // The blocks in the data directory, or in the bucket in the S3 pass.
    const blocks = async () => { const out: string[] = []; for await (const e of s.hearth.blobs.list(`actions_artifacts/tmpv4/${runId}/${logs.id}/`)) out.push(e.key); return out; };
    expect((await blocks()).length).toBeGreaterThan(0);
    expect(await cleanupActions(s.hearth)).toMatch(/ 0 abandoned upload/);
    expect((await blocks()).length).toBeGreaterThan(0);
    await db.updateTable('action_artifact').set({ updated_unix: 1000 }).where('id', '=', logs.id).execute();
    expect(await cleanupActions(s.hearth)).toMatch(/ 1 abandoned upload/);
    expect(await blocks()).toEqual([]);
    expect((await db.selectFrom('action_artifact').select('status').where('id', '=', logs.id).executeTakeFirstOrThrow()).status).toBe('expired');
  });

  it('refuses a wrong token and another run', async () => {
    expect((await twirp('ListArtifacts', ids.run(), 'x.y.z')).status).toBe(401);
    expect((await twirp('ListArtifacts', { workflow_run_backend_id: '99999', workflow_job_run_backend_id: jobId })).status).toBe(400);
  });

  it('stops serving once the task is done', async () => {
    const signed = (await (await twirp('GetSignedArtifactURL', { ...ids.run(), name: 'dist' })).json()) as { signedUrl: string };
    await runner.updateTask({ state: { id: taskId, result: Result.SUCCESS } }, runnerHeaders(reg));
    expect((await twirp('ListArtifacts', ids.run())).status).toBe(401);
    expect((await fetch(signed.signedUrl)).status).toBe(401);
    const row = await s.hearth.db.selectFrom('action_artifact').selectAll().where('artifact_name', '=', 'dist').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'confirmed', artifact_path: 'dist.zip', content_encoding: 'application/zip' });
  });
});
