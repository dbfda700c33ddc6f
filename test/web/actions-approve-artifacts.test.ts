import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipEntries } from '../../src/services/packages/archive/zip';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { commitFile } from '../helpers/pull-fixtures';
import { as, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient, ownerAndOther, type WebUser } from '../helpers/web-client';
import { newRepo, waitRuns } from '../actions/engine-helpers';
import { queueRun, registrationToken, runnerClient, runnerHeaders } from '../actions/protocol-helpers';

// The run page's two writer-and-reader actions that need a real run behind them: approving the
// run of a fork's pull request (it waits until a writer approves), and downloading an artifact a
// job uploaded through the artifact protocol, answered as the zip's bytes, as Gitea's web does.

let s: TestServer;
let alice: WebUser;
let bob: WebUser;

const api = (p: string, method = 'GET') => s.request(`api/v1/${p}`, { method, auth: as(alice) });
const CI = 'on: pull_request\njobs:\n  build: {runs-on: gate, steps: [{run: echo build}]}\n';

beforeAll(async () => {
  s = await startTestServer();
  ({ alice, bob } = await ownerAndOther(s));
}, 60_000);
afterAll(async () => { await s.stop(); });

/** bob forks alice/gate, pushes a branch and opens a pull request from it: its run waits for approval. */
async function forkPullRun(): Promise<number> {
  const id = (await newRepo(s, alice, 'gate', { '.gitea/workflows/ci.yml': CI })).id;
  await ok(await s.request('api/v1/repos/alice/gate/forks', { method: 'POST', auth: as(bob), json: {} }), 202);
  const dir = path.join(tempDir(), 'f');
  await git(path.dirname(dir), 'clone', '-q', remoteUrl(s, 'bob', 'gate', 'bob', bob.password), 'f');
  await git(dir, 'checkout', '-q', '-b', 'feature');
  await commitFile(dir, 'change.txt', 'one\n');
  await git(dir, 'push', '-q', 'origin', 'feature');
  await ok(await s.request('api/v1/repos/alice/gate/pulls', { method: 'POST', auth: as(bob), json: { head: 'bob:feature', base: 'main', title: 'from bob' } }), 201);
  const [run] = await waitRuns(s.hearth.db, id, 1);
  return run!.id;
}

describe('approving a fork\'s run', () => {
  it('a reader gets no button and a 403; the owner approves from the run page and its job may start', async () => {
    const runId = await forkPullRun();
    const page = 'alice/gate/actions/runs/1';
    expect(await (await alice.web.get(page)).text()).toContain('Approve and run');
    const asReader = await bob.web.get(page);
    expect(asReader.status).toBe(200);
    expect(await asReader.text()).not.toContain('Approve and run');
    expect((await bob.web.post(`${page}/approve`, {}, { from: page })).status).toBe(403);
    expect((await ok(await api(`repos/alice/gate/actions/runs/${runId}`))).status).toBe('waiting');
    expect((await s.hearth.db.selectFrom('action_run').select('need_approval').where('id', '=', runId).executeTakeFirstOrThrow()).need_approval).toBe(1);

    const res = await alice.web.post(`${page}/approve`, {}, { from: page });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('/alice/gate/actions/runs/1');
    const after = await (await alice.web.get(page)).text();
    expect(after).not.toContain('Approve and run');
    expect(after).not.toContain('waits for a writer');
    const run = await s.hearth.db.selectFrom('action_run').select(['need_approval', 'approved_by']).where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run).toEqual({ need_approval: 0, approved_by: alice.id });
    expect((await alice.web.post('alice/gate/actions/runs/99/approve', {}, { from: page })).status).toBe(404);
  });
});

/** A task of a new run on alice/`repo` (label `repo`): its runtime token and run id. */
async function startTask(repo: { id: number }, name: string): Promise<{ token: string; runId: number }> {
  const { runner } = runnerClient(s, true);
  const reg = (await runner.register({ name: `r-${name}`, token: await registrationToken(s, { ownerId: 0, repoId: 0 }), labels: [name] })).runner!;
  const sha = (await ok(await api(`repos/alice/${name}/branches/main`))).commit.id as string;
  const { runId } = await queueRun(s, { id: repo.id, owner_id: alice.id }, sha, [{ id: 'build', label: name }]);
  const task = (await runner.fetchTask({}, runnerHeaders({ uuid: reg.uuid, token: reg.token }))).task!;
  return { token: String((task.context as Record<string, unknown>).gitea_runtime_token), runId };
}

/** A job of a run on alice/`repo` uploads `name` through the v4 artifact protocol; its bytes. */
async function uploadArtifact(repo: { id: number }, name: string): Promise<Buffer> {
  const { token } = await startTask(repo, name);
  const scp = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { scp: string }).scp;
  const [, run, job] = /^Actions\.Results:(\d+):(\d+)$/.exec(scp)!;
  const ids = { workflow_run_backend_id: run, workflow_job_run_backend_id: job };
  const twirp = async (method: string, body: object) => ok(await s.request(`twirp/github.actions.results.api.v1.ArtifactService/${method}`, {
    method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ ...ids, ...body }),
  }));
  const bytes = Buffer.concat([Buffer.from('PK\u0003\u0004'), crypto.randomBytes(4096)]);
  const { signedUploadUrl } = await twirp('CreateArtifact', { name: 'dist', version: 4 });
  expect((await fetch(`${signedUploadUrl}&comp=appendBlock`, { method: 'PUT', body: bytes })).status).toBe(201);
  await twirp('FinalizeArtifact', { name: 'dist', size: String(bytes.length), hash: { value: `sha256:${crypto.createHash('sha256').update(bytes).digest('hex')}` } });
  return bytes;
}

describe('downloading an artifact from the run page', () => {
  it('answers the zip\'s bytes to readers; a missing or expired artifact is a 404', async () => {
    const repo = await createRepo(s, alice, 'art', { auto_init: true });
    const bytes = await uploadArtifact({ id: Number(repo.id) }, 'art');
    const page = await (await bob.web.get('alice/art/actions/runs/1')).text();
    expect(page).toContain('/alice/art/actions/runs/1/artifacts/dist" download');
    for (const c of [alice.web, bob.web, new WebClient(s)]) {
      const res = await c.get('alice/art/actions/runs/1/artifacts/dist');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="dist.zip"; filename*=UTF-8\'\'dist.zip');
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    }
    expect((await alice.web.get('alice/art/actions/runs/1/artifacts/nope')).status).toBe(404);
    expect((await alice.web.get('alice/art/actions/runs/2/artifacts/dist')).status).toBe(404);
    await s.hearth.db.updateTable('action_artifact').set({ status: 'expired' }).where('artifact_name', '=', 'dist').execute();
    expect((await alice.web.get('alice/art/actions/runs/1/artifacts/dist')).status).toBe(404);
    expect(await (await alice.web.get('alice/art/actions/runs/1')).text()).toContain('(expired)');
  });

  it('hides a private repository\'s artifacts from a user who cannot read it (404)', async () => {
    const repo = await createRepo(s, alice, 'hidden', { auto_init: true, private: true });
    await uploadArtifact({ id: Number(repo.id) }, 'hidden');
    expect((await alice.web.get('alice/hidden/actions/runs/1/artifacts/dist')).status).toBe(200);
    for (const c of [bob.web, new WebClient(s)]) {
      expect((await c.get('alice/hidden/actions/runs/1/artifacts/dist')).status).toBe(404);
      expect((await c.get('alice/hidden/actions/runs/1')).status).toBe(404);
    }
  });
});

/** A request as @actions/artifact 1.x makes it (node's http: it sets Content-Length and Content-Encoding itself). */
function send(method: string, url: string, headers: Record<string, string | number>, body?: Buffer | string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** upload-artifact@v3's upload of `files` as artifact `name` (one chunk a file, gzip where it is smaller). */
async function uploadV3(t: { token: string; runId: number }, name: string, files: Record<string, Buffer>): Promise<void> {
  const base = `${s.hearth.config.server.root_url}api/actions_pipeline/_apis/pipelines/workflows/${t.runId}/artifacts?api-version=6.0-preview`;
  const json = { Authorization: `Bearer ${t.token}`, Accept: 'application/json;api-version=6.0-preview', 'Content-Type': 'application/json' };
  const created = await send('POST', base, json, JSON.stringify({ Type: 'actions_storage', Name: name }));
  expect(created.status).toBe(200);
  const container = new URL(JSON.parse(created.body.toString()).fileContainerResourceUrl as string);
  let size = 0;
  for (const [file, content] of Object.entries(files)) {
    const gz = zlib.gzipSync(content);
    const data = gz.length < content.length ? gz : content;
    const u = new URL(container);
    u.searchParams.append('itemPath', `${name}/${file}`);
    const put = await send('PUT', u.toString(), {
      Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/octet-stream', 'Content-Length': data.length,
      'Content-Range': `bytes 0-${data.length - 1}/${data.length}`, ...(data === gz ? { 'Content-Encoding': 'gzip', 'x-tfs-filelength': content.length } : {}),
      'x-actions-results-md5': crypto.createHash('md5').update(data).digest('base64'),
    }, data);
    expect(put.status, put.body.toString()).toBe(200);
    size += data.length;
  }
  const confirm = new URL(base);
  confirm.searchParams.append('artifactName', name);
  expect((await send('PATCH', confirm.toString(), json, JSON.stringify({ Size: size }))).status).toBe(200);
}

/** The entries of a zip: path and bytes (read by the packages' zip reader). */
async function unzip(bytes: Buffer): Promise<Record<string, Buffer>> {
  const file = path.join(tempDir(), 'artifact.zip');
  fs.writeFileSync(file, bytes);
  return Object.fromEntries((await zipEntries(file, () => 1 << 20)).map((e) => [e.name, e.data!]));
}

describe('deleting an artifact from the run page', () => {
  it('is a writer\'s form: a reader sees none and is refused (403); the writer\'s delete is the API\'s, listed and downloadable no more', async () => {
    const repo = await createRepo(s, alice, 'bin', { auto_init: true });
    await uploadArtifact({ id: Number(repo.id) }, 'bin');
    const page = 'alice/bin/actions/runs/1';
    const form = '/alice/bin/actions/runs/1/artifacts/dist/delete"';
    expect(await (await bob.web.get(page)).text()).not.toContain(form);
    const forged = await bob.web.post('alice/bin/actions/runs/1/artifacts/dist/delete', {}, { from: 'user/settings' });
    expect(forged.status).toBe(403);
    expect((await bob.web.get('alice/bin/actions/runs/1/artifacts/dist')).status).toBe(200);
    const mine = await (await alice.web.get(page)).text();
    expect(mine).toMatch(/<form class="inline" method="post" action="[^"]*\/alice\/bin\/actions\/runs\/1\/artifacts\/dist\/delete"><input type="hidden" name="_csrf" value="[^"]+"><button type="submit" class="danger" aria-label="Delete artifact dist">Delete<\/button><\/form>/);
    // Without the page's CSRF token the post changes nothing.
    expect((await alice.web.post('alice/bin/actions/runs/1/artifacts/dist/delete', {}, { csrf: 'forged' })).status).toBe(403);
    expect((await alice.web.get('alice/bin/actions/runs/1/artifacts/dist')).status).toBe(200);
    const res = await alice.web.post('alice/bin/actions/runs/1/artifacts/dist/delete', {}, { from: page });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/\/alice\/bin\/actions\/runs\/1#artifacts$/);
    expect(await (await alice.web.get(page)).text()).not.toContain('artifacts/dist"');
    expect((await alice.web.get('alice/bin/actions/runs/1/artifacts/dist')).status).toBe(404);
    const runId = (await s.hearth.db.selectFrom('action_run').select('id').where('repo_id', '=', Number(repo.id)).executeTakeFirstOrThrow()).id;
    expect((await ok(await api(`repos/alice/bin/actions/runs/${runId}/artifacts`))).total_count).toBe(0);
    // Gone, or never there: 404, as the API's delete of an unknown artifact.
    expect((await alice.web.post('alice/bin/actions/runs/1/artifacts/dist/delete', {}, { from: page })).status).toBe(404);
  });
});

describe('a v1-v3 artifact from the run page', () => {
  it('is listed with its files\' total size and downloads as one zip of its files, gzip-encoded ones decoded', async () => {
    const repo = await createRepo(s, alice, 'old', { auto_init: true });
    const files = { 'bin/random.bin': crypto.randomBytes(4096), 'logs/report.txt': Buffer.from('a line of the report\n'.repeat(500)) };
    await uploadV3(await startTask({ id: Number(repo.id) }, 'old'), 'bundle', files);
    const page = await (await bob.web.get('alice/old/actions/runs/1')).text();
    expect(page).toContain('/alice/old/actions/runs/1/artifacts/bundle" download>bundle</a>');
    expect(page).toContain(`${4096 + files['logs/report.txt'].length} bytes`);
    const res = await bob.web.get('alice/old/actions/runs/1/artifacts/bundle');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''bundle.zip");
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(['bin/random.bin', 'logs/report.txt']);
    for (const [name, content] of Object.entries(files)) expect(entries[name]!.equals(content), name).toBe(true);
  });
});
