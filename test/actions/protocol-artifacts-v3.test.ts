import crypto from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Result } from '../../src/lib/actions-proto/runner/v1/messages_pb';
import { cleanupActions } from '../../src/services/actions/maintenance';
import { createRepo } from '../helpers/git';
import { as, createUser, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';
import { queueRun, registrationToken, runnerClient, runnerHeaders, type RunnerClient } from './protocol-helpers';

// The artifact v3 protocol as upload-artifact@v3 / download-artifact@v3 (@actions/artifact 1.x)
// drive it, the requests made here as its upload-http-client.ts and download-http-client.ts do:
// the same URLs, query parameters, headers and bodies. Only the chunk size is smaller (theirs
// is 8 MiB), so that two files go up in two chunks each; x-actions-results-crc64 is left out
// (Gitea does not read it).

type Creds = { username: string; password: string; id: number };
type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
type Task = { id: bigint; runtime: string; jobToken: string; runId: number };

let s: TestServer;
let alice: Creds;
let runner: RunnerClient;
let reg: { uuid: string; token: string };
let repo: { id: number; owner_id: number };
let sha: string;
let task: Task;

const API_VERSION = '6.0-preview';
const CHUNK = 64 * 1024;

/** A request as @actions/http-client makes it: node's http, no decoding of the body. */
function send(method: string, url: string, headers: Record<string, string | number>, body?: Buffer | string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The client of one task: ACTIONS_RUNTIME_URL, ACTIONS_RUNTIME_TOKEN and GITHUB_RUN_ID. */
function client(t: { runtime: string; runId: number | string }) {
  const runtimeUrl = `${s.hearth.config.server.root_url}api/actions_pipeline/`;
  const auth = { Authorization: `Bearer ${t.runtime}` };
  const artifactUrl = `${runtimeUrl}_apis/pipelines/workflows/${t.runId}/artifacts?api-version=${API_VERSION}`;
  const jsonHeaders = { ...auth, Accept: `application/json;api-version=${API_VERSION}`, 'Content-Type': 'application/json' };
  return {
    artifactUrl,
    create: (name: string, retentionDays?: number) =>
      send('POST', artifactUrl, jsonHeaders, JSON.stringify({ Type: 'actions_storage', Name: name, ...(retentionDays ? { RetentionDays: retentionDays } : {}) }, null, 2)),
    /** uploadChunk: the bytes sent (gzip or not) from start to end of uploadFileSize. */
    chunk: (resourceUrl: string, data: Buffer, start: number, end: number, gzipOf?: number) => send('PUT', resourceUrl, {
      ...auth, Accept: `application/json;api-version=${API_VERSION}`, 'Content-Type': 'application/octet-stream',
      Connection: 'Keep-Alive', 'Keep-Alive': '10',
      ...(gzipOf !== undefined ? { 'Content-Encoding': 'gzip', 'x-tfs-filelength': gzipOf } : {}),
      'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${data.length}`,
      'x-actions-results-md5': crypto.createHash('md5').update(data.subarray(start, end + 1)).digest('base64'),
    }, data.subarray(start, end + 1)),
    patch: (name: string, size: number) => {
      const u = new URL(artifactUrl);
      u.searchParams.append('artifactName', name);
      return send('PATCH', u.toString(), jsonHeaders, JSON.stringify({ Size: size }, null, 2));
    },
    list: () => send('GET', artifactUrl, { ...auth, 'Content-Type': 'application/json', Accept: `application/json;api-version=${API_VERSION}` }),
    items: (containerUrl: string, name: string) => {
      const u = new URL(containerUrl);
      u.searchParams.append('itemPath', name);
      return send('GET', u.toString(), { ...auth, 'Content-Type': 'application/json', Accept: `application/json;api-version=${API_VERSION}` });
    },
    download: (location: string) => send('GET', location, {
      ...auth, 'Content-Type': 'application/json', Connection: 'Keep-Alive', 'Keep-Alive': '10',
      'Accept-Encoding': 'gzip', Accept: `application/octet-stream;api-version=${API_VERSION}`,
    }),
  };
}

type Client = ReturnType<typeof client>;
/** The stored objects under a key prefix (the data directory's files, or the bucket's objects in the S3 pass). */
async function storedKeys(prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of s.hearth.blobs.list(prefix)) out.push(e.key);
  return out;
}
const body = (r: Reply) => JSON.parse(r.body.toString()) as Record<string, any>;

/** uploadFileAsync: gzip when it makes the file smaller, then chunk after chunk. */
async function uploadFile(c: Client, uploadUrl: string, itemPath: string, content: Buffer, only?: 'first-chunk'): Promise<Buffer> {
  const u = new URL(uploadUrl);
  u.searchParams.append('itemPath', itemPath);
  const gz = zlib.gzipSync(content);
  const gzip = gz.length < content.length;
  const data = gzip ? gz : content;
  for (let offset = 0; offset < data.length; offset += CHUNK) {
    const end = Math.min(data.length, offset + CHUNK) - 1;
    const res = await c.chunk(u.toString(), data, offset, end, gzip ? content.length : undefined);
    expect(res.status, res.body.toString()).toBe(200);
    expect(body(res)).toEqual({ message: 'success' });
    if (only) break;
  }
  return data;
}

/** The files upload-artifact@v3 sends: ~100 KiB that does not compress, ~200 KiB that does. */
const files = () => ({
  'bin/random.bin': crypto.randomBytes(100 * 1024),
  'logs/report.txt': Buffer.from(crypto.randomBytes(100 * 1024).toString('hex')),
});

async function upload(c: Client, name: string, content: Record<string, Buffer>, finalize = true): Promise<Record<string, Buffer>> {
  const created = await c.create(name, 5);
  expect(created.status).toBe(200);
  const { fileContainerResourceUrl } = body(created);
  const sent: Record<string, Buffer> = {};
  // Two files at a time, as the client's FILE_CONCURRENCY.
  await Promise.all(Object.entries(content).map(async ([p, data]) => { sent[p] = await uploadFile(c, fileContainerResourceUrl, `${name}/${p}`, data); }));
  if (finalize) {
    const size = Object.values(sent).reduce((n, b) => n + b.length, 0);
    expect((await c.patch(name, size)).status).toBe(200);
  }
  return sent;
}

async function startTask(): Promise<Task> {
  const { runId } = await queueRun(s, repo, sha, [{ id: 'build', label: 'art3' }]);
  const t = (await runner.fetchTask({}, runnerHeaders(reg))).task!;
  const ctx = t.context as Record<string, unknown>;
  return { id: t.id, runtime: String(ctx.gitea_runtime_token), jobToken: String(ctx.token), runId };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  const r = await createRepo(s, alice, 'proj', { auto_init: true });
  repo = { id: Number(r.id), owner_id: alice.id };
  const branch = await s.request('api/v1/repos/alice/proj/branches/main');
  sha = ((await branch.json()) as { commit: { id: string } }).commit.id;
  runner = runnerClient(s, true).runner;
  const res = await runner.register({ name: 'art3', token: await registrationToken(s, { ownerId: 0, repoId: 0 }), labels: ['art3'] });
  reg = { uuid: res.runner!.uuid, token: res.runner!.token };
  task = await startTask();
});
afterAll(async () => { await s.stop(); });

describe('artifacts v3', () => {
  it('uploads two files in two chunks each (one gzip), confirms, lists and downloads them', async () => {
    const c = client(task);
    const content = files();
    expect((await c.list()).status).toBe(404); // nothing uploaded yet, as Gitea
    const sent = await upload(c, 'dist', content);
    expect(sent['bin/random.bin']!.equals(content['bin/random.bin']!)).toBe(true); // random bytes stay as they are
    expect(sent['logs/report.txt']!.length).toBeLessThan(content['logs/report.txt']!.length);
    expect(sent['logs/report.txt']!.length).toBeGreaterThan(CHUNK);

    const list = await c.list();
    expect(list.status).toBe(200);
    const listed = body(list);
    expect(listed.count).toBe(1);
    const hash = crypto.createHash('md5').update('dist').digest('hex');
    expect(listed.value).toEqual([{ name: 'dist', fileContainerResourceUrl: expect.stringMatching(new RegExp(`/api/actions_pipeline/_apis/pipelines/workflows/${task.runId}/artifacts/${hash}/download_url$`)) }]);
    const items = body(await c.items(listed.value[0].fileContainerResourceUrl, 'dist')).value as { path: string; itemType: string; contentLocation: string }[];
    expect(items.map((i) => [i.path, i.itemType]).sort()).toEqual([['dist/bin/random.bin', 'file'], ['dist/logs/report.txt', 'file']]);
    for (const item of items) {
      const file = item.path.slice('dist/'.length);
      const res = await c.download(item.contentLocation);
      expect(res.status).toBe(200);
      // The bytes as stored: gzip ones with Content-Encoding: gzip, which the client decodes.
      expect(res.body.equals(sent[file]!)).toBe(true);
      const gzip = res.headers['content-encoding'] === 'gzip';
      expect(gzip).toBe(file === 'logs/report.txt');
      expect((gzip ? zlib.gunzipSync(res.body) : res.body).equals(content[file as keyof typeof content])).toBe(true);
    }

    const rows = await s.hearth.db.selectFrom('action_artifact').selectAll().where('run_id', '=', task.runId).where('artifact_name', '=', 'dist').orderBy('artifact_path').execute();
    expect(rows).toMatchObject([
      { artifact_path: 'bin/random.bin', status: 'confirmed', content_encoding: '', file_size: 100 * 1024, file_compressed_size: 100 * 1024 },
      { artifact_path: 'logs/report.txt', status: 'confirmed', content_encoding: 'gzip', file_size: 200 * 1024, file_compressed_size: sent['logs/report.txt']!.length },
    ]);
    // RetentionDays went into the upload address (?retentionDays=5).
    for (const row of rows) expect(Math.abs(row.expired_unix - (Date.now() / 1000 + 5 * 86400))).toBeLessThan(60);
    // The chunks went once joined (from the data directory, or the bucket in the S3 pass).
    expect(await storedKeys(`actions_artifacts/tmpv3/${task.runId}/`)).toEqual([]);
  });

  it('does not list an artifact that was uploaded but not confirmed, nor one missing a chunk', async () => {
    const c = client(task);
    await upload(c, 'unconfirmed', files(), false);
    const created = body(await c.create('partial'));
    await uploadFile(c, created.fileContainerResourceUrl, 'partial/big.bin', crypto.randomBytes(100 * 1024), 'first-chunk');
    expect((await c.patch('partial', 100 * 1024)).status).toBe(200); // Gitea answers success and leaves it pending

    const names = (body(await c.list()).value as { name: string }[]).map((a) => a.name);
    expect(names).toContain('dist');
    expect(names).not.toContain('unconfirmed');
    expect(names).not.toContain('partial');
    const url = (n: string) => `${c.artifactUrl.replace(/\?.*$/, '')}/${crypto.createHash('md5').update(n).digest('hex')}/download_url`;
    expect((await c.items(url('unconfirmed'), 'unconfirmed')).status).toBe(404);
    const pending = await s.hearth.db.selectFrom('action_artifact').selectAll().where('artifact_name', '=', 'unconfirmed').executeTakeFirstOrThrow();
    const dl = await c.download(`${c.artifactUrl.replace(/\?.*$/, '')}/${pending.id}/download`);
    expect(dl.status).toBe(404);
  });

  it('refuses a chunk that does not match its md5 or its address', async () => {
    const c = client(task);
    const { fileContainerResourceUrl } = body(await c.create('checked'));
    const u = new URL(fileContainerResourceUrl);
    u.searchParams.append('itemPath', 'checked/a.txt');
    const data = Buffer.from('hello');
    const res = await send('PUT', u.toString(), {
      Authorization: `Bearer ${task.runtime}`, 'Content-Type': 'application/octet-stream', 'Content-Range': 'bytes 0-4/5',
      'x-actions-results-md5': crypto.createHash('md5').update('other').digest('base64'),
    }, data);
    expect(res.status).toBe(400);
    const other = new URL(fileContainerResourceUrl);
    other.searchParams.append('itemPath', 'not-checked/a.txt');
    expect((await c.chunk(other.toString(), data, 0, 4)).status).toBe(400); // Invalid artifact hash
    // A body longer than its Content-Range is refused and leaves nothing behind.
    const chunks = async () => (await storedKeys('actions_artifacts/tmpv3/')).filter((f) => f.endsWith('.chunk')).sort();
    const before = await chunks();
    const long = await send('PUT', u.toString(), {
      Authorization: `Bearer ${task.runtime}`, 'Content-Type': 'application/octet-stream', 'Content-Range': 'bytes 0-1/5',
      // The server drops the connection of a body it refuses halfway: not one to reuse.
      Connection: 'close',
    }, Buffer.alloc(256 * 1024, 1)).catch((err: NodeJS.ErrnoException) => ({ status: err.code === 'ECONNRESET' || err.code === 'EPIPE' ? 400 : 0 }));
    expect(long.status).toBe(400);
    // The connection may be reset before the server has removed the partial chunk.
    await eventually(async () => (await chunks()).join() === before.join(), 5000, 'partial chunk removed');
  });

  it('wants the runtime token of a running task of that run', async () => {
    const c = client(task);
    expect((await send('GET', c.artifactUrl, {})).status).toBe(401);
    expect((await send('GET', c.artifactUrl, { Authorization: `Basic ${Buffer.from('alice:x').toString('base64')}` })).status).toBe(401);
    expect((await client({ runtime: 'x.y.z', runId: task.runId }).list()).status).toBe(401);
    expect((await client({ runtime: '0'.repeat(40), runId: task.runId }).list()).status).toBe(401);
    // The job token (GITEA_TOKEN), which older runners hand as ACTIONS_RUNTIME_TOKEN, will do too.
    expect((await client({ runtime: task.jobToken, runId: task.runId }).list()).status).toBe(200);

    // Another run's id, with this task's token: refused, uploads included.
    const other = await startTask();
    const wrong = client({ runtime: task.runtime, runId: other.runId });
    expect((await wrong.list()).status).toBe(400);
    expect((await wrong.create('dist')).status).toBe(400);
    expect((await wrong.patch('dist', 1)).status).toBe(400);
    const mine = await s.hearth.db.selectFrom('action_artifact').select('id').where('run_id', '=', task.runId).where('status', '=', 'confirmed').executeTakeFirstOrThrow();
    const foreign = client(other);
    expect((await foreign.download(`${foreign.artifactUrl.replace(/\?.*$/, '')}/${mine.id}/download`)).status).toBe(400);
    await runner.updateTask({ state: { id: other.id, result: Result.SUCCESS } }, runnerHeaders(reg));
  });

  it('the REST API shows v4 artifacts only, as Gitea 1.25: v3 ones have no single id', async () => {
    const call = (method: string, p: string) => s.request(`api/v1/repos/alice/proj/${p}`, { method, auth: as(alice), redirect: 'manual' });
    const row = await s.hearth.db.selectFrom('action_artifact').selectAll().where('run_id', '=', task.runId).where('artifact_name', '=', 'dist')
      .where('status', '=', 'confirmed').orderBy('id').executeTakeFirstOrThrow();
    const all = (await (await call('GET', 'actions/artifacts')).json()) as { total_count: number; artifacts: { name: string }[] };
    expect(all.artifacts.map((a) => a.name)).not.toContain('dist');
    const ofRun = (await (await call('GET', `actions/runs/${task.runId}/artifacts`)).json()) as { total_count: number };
    expect(ofRun.total_count).toBe(0);
    expect((await call('GET', `actions/artifacts/${row.id}`)).status).toBe(404);
    expect((await call('GET', `actions/artifacts/${row.id}/zip`)).status).toBe(404);
    expect((await call('DELETE', `actions/artifacts/${row.id}`)).status).toBe(404);
    expect((await s.hearth.db.selectFrom('action_artifact').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('confirmed');
  });

  it('cleanup_actions expires v3 files past their retention', async () => {
    const c = client(task);
    const db = s.hearth.db;
    const rows = await db.selectFrom('action_artifact').selectAll().where('run_id', '=', task.runId).where('artifact_name', '=', 'dist').execute();
    const stored = rows.map((r) => `actions_artifacts/${r.storage_path}`);
    for (const k of stored) expect(await s.hearth.blobs.stat(k)).not.toBeNull();
    await db.updateTable('action_artifact').set({ expired_unix: 1000 }).where('run_id', '=', task.runId).where('artifact_name', '=', 'dist').execute();
    await cleanupActions(s.hearth);
    for (const k of stored) expect(await s.hearth.blobs.stat(k)).toBeNull();
    const after = await db.selectFrom('action_artifact').select('status').where('run_id', '=', task.runId).where('artifact_name', '=', 'dist').execute();
    expect(after.map((r) => r.status)).toEqual(['expired', 'expired']);
    expect((await c.list()).status).toBe(404);
  });

  it('cleanup_actions drops the chunks of uploads abandoned for longer than a task may run, and keeps fresh ones', async () => {
    const c = client(task);
    await upload(c, 'abandoned', files(), false);
    const db = s.hearth.db;
    const chunkDir = `actions_artifacts/tmpv3/${task.runId}/`;
    const rows = await db.selectFrom('action_artifact').select(['id', 'status']).where('run_id', '=', task.runId).where('artifact_name', '=', 'abandoned').execute();
    const chunksOf = async (ids: number[]) => (await storedKeys(chunkDir)).map((k) => k.slice(chunkDir.length)).filter((f) => ids.includes(Number(f.split('-')[0])));
    expect(rows.map((r) => r.status)).toEqual(['pending', 'pending']);
    expect((await chunksOf(rows.map((r) => r.id))).length).toBeGreaterThan(0);
    const fresh = await db.selectFrom('action_artifact').select('id').where('artifact_name', '=', 'unconfirmed').execute();
    const freshChunks = await chunksOf(fresh.map((r) => r.id));
    expect(freshChunks.length).toBeGreaterThan(0);

    await db.updateTable('action_artifact').set({ updated_unix: 1000 }).where('artifact_name', '=', 'abandoned').execute();
    expect(await cleanupActions(s.hearth)).toMatch(/ 2 abandoned upload\(s\) removed/);
    expect(await chunksOf(rows.map((r) => r.id))).toEqual([]);
    expect(await chunksOf(fresh.map((r) => r.id))).toEqual(freshChunks);
    const after = await db.selectFrom('action_artifact').select('status').where('artifact_name', '=', 'abandoned').execute();
    expect(after.map((r) => r.status)).toEqual(['expired', 'expired']);
  });

  it('stops answering once the task is done; deleting the run drops the chunks left over', async () => {
    await runner.updateTask({ state: { id: task.id, result: Result.SUCCESS } }, runnerHeaders(reg));
    expect((await client(task).list()).status).toBe(401);
    expect((await client({ runtime: task.jobToken, runId: task.runId }).list()).status).toBe(401);

    // The chunks of 'unconfirmed', never confirmed, wait in tmpv3/<run> until the run goes.
    const chunks = `actions_artifacts/tmpv3/${task.runId}/`;
    expect((await storedKeys(chunks)).length).toBeGreaterThan(0);
    const del = await s.request(`api/v1/repos/alice/proj/actions/runs/${task.runId}`, { method: 'DELETE', auth: as(alice) });
    expect(del.status).toBe(204);
    expect(await storedKeys(chunks)).toEqual([]);
  });
});
