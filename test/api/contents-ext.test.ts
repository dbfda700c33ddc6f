import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectContentsShape } from '../helpers/contents';
import { expectShape } from '../helpers/swagger';

let s: TestServer;
let alice: { username: string; password: string; id: number };

const get = (p: string) => s.request(`api/v1/repos/alice/${p}`, { auth: as(alice) });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'proj', { auto_init: true });
  await ok(await s.request('api/v1/repos/alice/proj/contents', {
    method: 'POST', auth: as(alice),
    json: { files: [{ operation: 'create', path: 'docs/a.txt', content: Buffer.from('hello\n').toString('base64') }] },
  }), 201);
  await createRepo(s, alice, 'empty');
});
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/contents-ext/{filepath}', () => {
  it('a directory answers dir_contents only', async () => {
    const body = await ok(await get('proj/contents-ext/docs'));
    expectShape({}, 'ContentsExtResponse');
    expect(Object.keys(body)).toEqual(['dir_contents']);
    expectContentsShape(body.dir_contents);
    expect(body.dir_contents.map((e: { path: string }) => e.path)).toEqual(['docs/a.txt']);
    expect(body.dir_contents[0]).toMatchObject({ type: 'file', content: null });
  });

  it('"." is the root directory', async () => {
    const body = await ok(await get('proj/contents-ext/%2E'));
    expect(await ok(await get('proj/contents-ext/'))).toEqual(body);
    expect(body.dir_contents.map((e: { name: string }) => e.name).sort()).toEqual(['README.md', 'docs']);
  });

  it('a file answers file_contents, its content only with includes=file_content', async () => {
    const bare = await ok(await get('proj/contents-ext/docs/a.txt'));
    expect(Object.keys(bare)).toEqual(['file_contents']);
    expectContentsShape(bare.file_contents);
    expect(bare.file_contents).toMatchObject({ path: 'docs/a.txt', type: 'file', content: null });
    const full = await ok(await get('proj/contents-ext/docs/a.txt?includes=file_content,lfs_metadata'));
    expect(Buffer.from(full.file_contents.content, 'base64').toString()).toBe('hello\n');
    expect(full.file_contents.encoding).toBe('base64');
    expect(bare.file_contents.last_commit_sha).toBeUndefined();
    const meta = await ok(await get('proj/contents-ext/docs/a.txt?includes=commit_metadata,commit_message'));
    expect(meta.file_contents.last_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(meta.file_contents.last_author_date).toBeTruthy();
    expect(meta.file_contents.last_commit_message).toBe('Add docs/a.txt\n');
    expectContentsShape(meta.file_contents);
  });

  it('an unknown include option is a 400, a missing path a 404', async () => {
    const bad = await get('proj/contents-ext/docs?includes=everything');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('unknown include option "everything"');
    expect((await get('proj/contents-ext/nope')).status).toBe(404);
    expect((await get('proj/contents-ext/docs?ref=nope')).status).toBe(404);
  });

  it('the root of an empty repository is an empty listing', async () => {
    expect(await ok(await get('empty/contents-ext/.'))).toEqual({ dir_contents: [] });
  });
});

describe('POST /org/{org}/repos (deprecated alias)', () => {
  it('creates the repository in the organization, as POST /orgs/{org}/repos', async () => {
    await ok(await s.request('api/v1/orgs', { method: 'POST', auth: as(alice), json: { username: 'acme' } }), 201);
    const repo = await ok(await s.request('api/v1/org/acme/repos', { method: 'POST', auth: as(alice), json: { name: 'tool' } }), 201);
    expectShape(repo, 'Repository');
    expect(repo.full_name).toBe('acme/tool');
    expect((await s.request('api/v1/org/nobody/repos', { method: 'POST', auth: as(alice), json: { name: 'x' } })).status).toBe(404);
  });
});
