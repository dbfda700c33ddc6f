import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectWriteShape, ok } from '../helpers/contents';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { as, createUser, startTestServer, type TestServer } from '../helpers/server';

// Writing: create, update, delete, batch changes and diff patches, checked with the git CLI.

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // write collaborator
let carol: Creds; // read collaborator
let root: string;

const call = (p: string, method = 'GET', body?: unknown, who: { username: string; password: string } | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { method, auth: who ? as(who) : undefined, json: body });
const b64 = (text: string) => Buffer.from(text).toString('base64');
const fileSha = async (repo: string, path: string, ref = 'main') => (await ok(await call(`${repo}/contents/${path}?ref=${ref}`))).sha as string;

/** A fresh clone with the real git CLI: what a user sees after the API write. */
async function clone(repo: string): Promise<string> {
  const dir = tempDir('hearth-clone-');
  await git(dir, 'clone', '-q', remoteUrl(s, 'alice', repo, alice.username, alice.password), '.');
  return dir;
}

beforeAll(async () => {
  s = await startTestServer({ HEARTH__API__DEFAULT_MAX_BLOB_SIZE: '65536' });
  root = s.hearth.config.server.root_url;
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  for (const name of ['repo', 'batch', 'guarded', 'patch']) {
    await createRepo(s, alice, name, { auto_init: true });
    await ok(await call(`${name}/collaborators/bob`, 'PUT', { permission: 'write' }), 204);
    await ok(await call(`${name}/collaborators/carol`, 'PUT', { permission: 'read' }), 204);
  }
  await createRepo(s, alice, 'empty');
  await createRepo(s, alice, 'frozen', { auto_init: true });
  await ok(await call('frozen', 'PATCH', { archived: true }));
}, 60_000);
afterAll(async () => { await s.stop(); });

describe('POST /repos/{owner}/{repo}/contents/{filepath}', () => {
  it('creates a file in one commit (201) that a clone shows', async () => {
    const body = await ok(await call('repo/contents/src/hello.txt', 'POST', { content: b64('hello\n') }), 201);
    expectWriteShape(body, 'FileResponse');
    expect(body.content).toMatchObject({ path: 'src/hello.txt', type: 'file', content: b64('hello\n'), last_commit_sha: body.commit.sha });
    expect(body.content.url).toBe(`${root}api/v1/repos/alice/repo/contents/src/hello.txt?ref=main`);
    expect(body.commit).toMatchObject({
      message: 'Add src/hello.txt\n', html_url: `${root}alice/repo/commit/${body.commit.sha}`,
      url: `${root}api/v1/repos/alice/repo/git/commits/${body.commit.sha}`,
      author: { name: 'Alice Liddell', email: 'alice@example.com' }, committer: { name: 'Alice Liddell', email: 'alice@example.com' },
    });
    expect(body.commit.parents).toHaveLength(1);
    expect(body.verification).toMatchObject({ verified: false, reason: 'gpg.error.not_signed_commit' });
    const dir = await clone('repo');
    expect((await git(dir, 'log', '-1', '--format=%H %s')).trim()).toBe(`${body.commit.sha} Add src/hello.txt`);
    expect((await git(dir, 'show', 'HEAD:src/hello.txt'))).toBe('hello\n');
    const branch = await ok(await call('repo/branches/main'));
    expect(branch.commit.id).toBe(body.commit.sha);
  });

  it('refuses an existing file, a directory and a path below a file (422)', async () => {
    await ok(await call('repo/contents/src/hello.txt', 'POST', { content: b64('x') }), 422);
    await ok(await call('repo/contents/src', 'POST', { content: b64('x') }), 422);
    const under = await ok(await call('repo/contents/README.md/x', 'POST', { content: b64('x') }), 422);
    expect(under.message).toContain('a file exists where you’re trying to create a subdirectory');
  });

  it('refuses traversal, absolute, .git and empty-segment paths and bad base64 (422)', async () => {
    for (const p of ['a/..%2F..%2Fx', '.git/config', 'docs/.GiT/hooks/x', 'a%2F%2Fb', '%2Fetc%2Fpasswd', 'a%00b']) {
      const res = await call(`repo/contents/${p}`, 'POST', { content: b64('x') });
      expect(res.status, p).toBe(422);
    }
    const bad = await ok(await call('repo/contents/ok.txt', 'POST', { content: 'not base64!' }), 422);
    expect(bad.message).toContain('illegal base64 data');
  });

  it('refuses content over api.default_max_blob_size with 413', async () => {
    await ok(await call('repo/contents/huge.bin', 'POST', { content: Buffer.alloc(70_000).toString('base64') }), 413);
  });

  it('uses the given identities, dates, message and sign-off', async () => {
    const body = await ok(await call('repo/contents/dated.txt', 'POST', {
      content: b64('d'), message: '  Custom message  ', signoff: true,
      author: { name: 'Ann Author', email: 'ann@example.com' }, committer: { name: 'Cy Committer', email: 'cy@example.com' },
      dates: { author: '2020-01-02T03:04:05Z', committer: '2021-02-03T04:05:06+02:00' },
    }), 201);
    expect(body.commit.author).toEqual({ name: 'Ann Author', email: 'ann@example.com', date: '2020-01-02T03:04:05Z' });
    expect(body.commit.committer).toEqual({ name: 'Cy Committer', email: 'cy@example.com', date: '2021-02-03T02:05:06Z' });
    const dir = await clone('repo');
    expect(await git(dir, 'log', '-1', '--format=%B')).toBe('Custom message\n\nSigned-off-by: Cy Committer <cy@example.com>\n\n');
    const only = await ok(await call('repo/contents/only.txt', 'POST', { content: b64('o'), author: { name: 'Solo', email: 'solo@example.com' } }), 201);
    expect(only.commit.committer).toMatchObject({ name: 'Solo', email: 'solo@example.com' });
    await ok(await call('repo/contents/bad-date.txt', 'POST', { content: b64('o'), dates: { author: 'yesterday' } }), 422);
  });

  it('writes to `branch`, creates `new_branch`, refuses missing or invalid branches', async () => {
    const created = await ok(await call('repo/contents/feature.txt', 'POST', { content: b64('f'), new_branch: 'feature/one' }), 201);
    expect(created.content.url).toBe(`${root}api/v1/repos/alice/repo/contents/feature.txt?ref=feature%2Fone`);
    expect(created.content.html_url).toBe(`${root}alice/repo/src/branch/feature/one/feature.txt`);
    await ok(await call('repo/contents/feature2.txt', 'POST', { content: b64('f'), branch: 'feature/one' }), 201);
    await ok(await call('repo/contents/feature.txt?ref=main'), 404);
    const exists = await ok(await call('repo/contents/x.txt', 'POST', { content: b64('x'), new_branch: 'feature/one' }), 422);
    expect(exists.message).toBe('branch already exists [name: feature/one]');
    const missing = await ok(await call('repo/contents/x.txt', 'POST', { content: b64('x'), branch: 'no-such' }), 404);
    expect(missing.message).toBe('branch does not exist [name: no-such]');
    await ok(await call('repo/contents/x.txt', 'POST', { content: b64('x'), new_branch: 'bad..name' }), 422);
    await ok(await call('repo/contents/x.txt', 'POST', { content: b64('x'), branch: 'a b' }), 422);
  });

  it('creates the default branch of an empty repository', async () => {
    const body = await ok(await call('empty/contents/first.txt', 'POST', { content: b64('1') }), 201);
    expect(body.commit.parents).toEqual([]);
    const repo = await ok(await call('empty'));
    expect(repo).toMatchObject({ empty: false, default_branch: 'main' });
    expect(await (await call('empty/raw/first.txt')).text()).toBe('1');
  });

  it('needs write access, a signed-in user and an unarchived repository', async () => {
    await ok(await call('repo/contents/c.txt', 'POST', { content: b64('c') }, carol), 403);
    await ok(await call('repo/contents/c.txt', 'POST', { content: b64('c') }, null), 401);
    await ok(await call('frozen/contents/c.txt', 'POST', { content: b64('c') }), 423);
    await ok(await call('repo/contents/bob.txt', 'POST', { content: b64('b') }, bob), 201);
  });
});

describe('PUT and DELETE /repos/{owner}/{repo}/contents/{filepath}', () => {
  it('updates with the current sha (200) and refuses a stale or missing one (422)', async () => {
    await ok(await call('repo/contents/upd.txt', 'POST', { content: b64('v1') }), 201);
    const sha1 = await fileSha('repo', 'upd.txt');
    const body = await ok(await call('repo/contents/upd.txt', 'PUT', { content: b64('v2'), sha: sha1 }));
    expectWriteShape(body, 'FileResponse');
    expect(body.commit.message).toBe('Update upd.txt\n');
    expect(Buffer.from(body.content.content, 'base64').toString()).toBe('v2');
    const stale = await ok(await call('repo/contents/upd.txt', 'PUT', { content: b64('v3'), sha: sha1 }), 422);
    expect(stale.message).toMatch(/^sha does not match \[given: [0-9a-f]{40}, expected: [0-9a-f]{40}\]$/);
    await ok(await call('repo/contents/upd.txt', 'PUT', { content: b64('v3') }), 422);
    await ok(await call('repo/contents/nope.txt', 'PUT', { content: b64('v3'), sha: sha1 }), 404);
  });

  it('renames with from_path; the old path is gone', async () => {
    await ok(await call('repo/contents/old/name.txt', 'POST', { content: b64('n') }), 201);
    const sha = await fileSha('repo', 'old/name.txt');
    const body = await ok(await call('repo/contents/new/name.txt', 'PUT', { content: b64('n2'), sha, from_path: 'old/name.txt' }));
    expect(body.content.path).toBe('new/name.txt');
    await ok(await call('repo/contents/old/name.txt'), 404);
    await ok(await call('repo/contents/x.txt', 'PUT', { content: b64('x'), sha, from_path: '../etc/passwd' }), 422);
  });

  it('deletes with the current sha (200, content null) and a clone no longer has it', async () => {
    await ok(await call('repo/contents/gone.txt', 'POST', { content: b64('g') }), 201);
    const sha = await fileSha('repo', 'gone.txt');
    await ok(await call('repo/contents/gone.txt', 'DELETE', { sha: '0'.repeat(40) }), 422);
    const body = await ok(await call('repo/contents/gone.txt', 'DELETE', { sha }));
    expectWriteShape(body, 'FileDeleteResponse');
    expect(body.content).toBeNull();
    expect(body.commit.message).toBe('Delete gone.txt\n');
    await ok(await call('repo/contents/gone.txt', 'DELETE', { sha }), 404);
    await ok(await call('repo/contents/gone.txt', 'DELETE', {}), 422);
    const dir = await clone('repo');
    expect((await git(dir, 'ls-files')).split('\n')).not.toContain('gone.txt');
  });

  it('keeps concurrent writers consistent: each lands on the last head or gets 409', async () => {
    const before = Number((await git(await clone('repo'), 'rev-list', '--count', 'HEAD')).trim());
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => call(`repo/contents/race-${i}.txt`, 'POST', { content: b64(String(i)) })));
    const statuses = results.map((r) => r.status);
    for (const st of statuses) expect([201, 409]).toContain(st);
    const landed = statuses.filter((st) => st === 201).length;
    expect(landed).toBeGreaterThan(0);
    const dir = await clone('repo');
    expect(Number((await git(dir, 'rev-list', '--count', 'HEAD')).trim())).toBe(before + landed);
  });
});

describe('POST /repos/{owner}/{repo}/contents (batch)', () => {
  it('creates, updates, renames and deletes in one commit (201 FilesResponse)', async () => {
    await ok(await call('batch/contents', 'POST', {
      files: [{ operation: 'create', path: 'a.txt', content: b64('a') }, { operation: 'create', path: 'b.txt', content: b64('b') },
        { operation: 'create', path: 'c.txt', content: b64('c') }],
    }), 201);
    const body = await ok(await call('batch/contents', 'POST', {
      message: 'batch', files: [
        { operation: 'create', path: 'new/d.txt', content: b64('d') },
        { operation: 'update', path: 'a.txt', content: b64('a2'), sha: await fileSha('batch', 'a.txt') },
        { operation: 'rename', path: 'moved/b.txt', from_path: 'b.txt' },
        { operation: 'delete', path: 'c.txt' },
        { operation: 'upload', path: 'README.md', content: b64('# new\n') },
      ],
    }), 201);
    expectWriteShape(body, 'FilesResponse');
    expect(body.files.map((f: { path: string } | null) => f?.path ?? null)).toEqual(['new/d.txt', 'a.txt', 'moved/b.txt', null, 'README.md']);
    expect(Buffer.from(body.files[2].content, 'base64').toString()).toBe('b');
    const dir = await clone('batch');
    expect((await git(dir, 'log', '-1', '--format=%H %s')).trim()).toBe(`${body.commit.sha} batch`);
    const changed = (await git(dir, 'show', '--name-status', '--no-renames', '--format=', 'HEAD')).trim().split('\n').sort();
    expect(changed).toEqual(['A\tmoved/b.txt', 'A\tnew/d.txt', 'D\tb.txt', 'D\tc.txt', 'M\tREADME.md', 'M\ta.txt']);
  });

  it('builds Gitea\'s default message and refuses bad operations', async () => {
    const body = await ok(await call('batch/contents', 'POST', {
      files: [{ operation: 'create', path: 'e.txt', content: b64('e') }, { operation: 'create', path: 'f.txt' },
        { operation: 'delete', path: 'new/d.txt' }],
    }), 201);
    expect(body.commit.message).toBe('Add e.txt, f.txt\nDelete new/d.txt\n');
    await ok(await call('batch/contents', 'POST', { files: [] }), 422);
    await ok(await call('batch/contents', 'POST', { files: [{ operation: 'chmod', path: 'e.txt' }] }), 422);
    await ok(await call('batch/contents', 'POST', { files: [{ operation: 'create', path: '../e.txt', content: b64('e') }] }), 422);
    await ok(await call('batch/contents', 'POST', { files: [{ operation: 'create', path: '/abs.txt', content: b64('e') }] }), 422);
    await ok(await call('batch/contents', 'POST', { files: [{ operation: 'update', path: 'e.txt', sha: 'f'.repeat(40), content: b64('e') }] }), 422);
    await ok(await call('batch/contents', 'POST', { files: [{ operation: 'delete', path: 'missing.txt' }] }), 404);
  });
});

describe('branch protection on API writes', () => {
  it('refuses writes to a protected branch without push rights and to protected files (403)', async () => {
    await ok(await call('guarded/branch_protections', 'POST', { rule_name: 'main', enable_push: true, protected_file_patterns: 'locked/*.txt' }), 201);
    const locked = await ok(await call('guarded/contents/locked/x.txt', 'POST', { content: b64('x') }), 403);
    expect(locked.message).toBe('path is protected and can not be changed [path: locked/x.txt]');
    await ok(await call('guarded/contents/free.txt', 'POST', { content: b64('x') }, bob), 201);
    await ok(await call('guarded/branch_protections/main', 'PATCH', { enable_push: false }));
    await ok(await call('guarded/contents/free2.txt', 'POST', { content: b64('x') }, bob), 403);
    await ok(await call('guarded/contents/free2.txt', 'POST', { content: b64('x'), new_branch: 'side' }, bob), 201);
  });
});

describe('POST /repos/{owner}/{repo}/diffpatch', () => {
  it('applies a unified diff to the branch in one commit', async () => {
    // The patch is made by git itself against a clone, as a client would.
    const work = await clone('patch');
    fs.appendFileSync(path.join(work, 'README.md'), 'patched line\n');
    fs.writeFileSync(path.join(work, 'added.txt'), 'added\n');
    await git(work, 'add', '-A');
    const readme = await git(work, 'show', ':README.md');
    const patch = await git(work, 'diff', '--cached');
    const body = await ok(await call('patch/diffpatch', 'POST', { content: patch }));
    expectWriteShape(body, 'FileResponse');
    expect(body.content).toBeNull();
    expect(body.commit.message).toBe('apply-patch\n');
    const dir = await clone('patch');
    expect(await git(dir, 'show', 'HEAD:README.md')).toBe(readme);
    expect(await git(dir, 'show', 'HEAD:added.txt')).toBe('added\n');
  });

  it('refuses a patch that does not apply (422), a missing branch (404), readers (403)', async () => {
    const bad = ['--- a/nope.txt', '+++ b/nope.txt', '@@ -1 +1 @@', '-x', '+y', ''].join('\n');
    const res = await ok(await call('patch/diffpatch', 'POST', { content: bad }), 422);
    expect(res.message).toMatch(/^git apply error/);
    await ok(await call('patch/diffpatch', 'POST', { content: bad, branch: 'no-such' }), 404);
    await ok(await call('patch/diffpatch', 'POST', { content: bad }, carol), 403);
    const escape = ['--- a/../x', '+++ b/../x', '@@ -0,0 +1 @@', '+x', ''].join('\n');
    await ok(await call('patch/diffpatch', 'POST', { content: escape }), 422);
  });
});

describe('concurrent writes to one branch', () => {
  it('all land, one commit each on top of the other (the later ones answered 409 when they raced)', async () => {
    await createRepo(s, alice, 'busy', { auto_init: true });
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((n) =>
      call(`busy/contents/${n}.txt`, 'POST', { content: b64(`${n}\n`), message: `add ${n}` })));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const dir = await clone('busy');
    expect((await git(dir, 'ls-tree', '--name-only', 'HEAD')).trim().split('\n').sort()).toEqual(['README.md', 'a.txt', 'b.txt', 'c.txt', 'd.txt']);
    expect((await git(dir, 'rev-list', '--count', 'HEAD')).trim()).toBe('5');
  });

  it('a stale file sha is still refused (422, as Gitea) once the writes are queued', async () => {
    const sha = await fileSha('busy', 'a.txt');
    const [first, second] = await Promise.all([
      call('busy/contents/a.txt', 'PUT', { content: b64('one\n'), sha }),
      call('busy/contents/a.txt', 'PUT', { content: b64('two\n'), sha }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 422]);
  });
});
