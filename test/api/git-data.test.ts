import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, tempDir } from '../helpers/git';
import { cloneRepo, commitFiles, withoutNulls } from '../helpers/history';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

const run = promisify(execFile);

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let root: string;
const shas: Record<string, string> = {};
const t0 = Math.floor(Date.now() / 1000) + 86_400;
const BIG = 'x'.repeat(200);

const call = (p: string, who: { username: string; password: string } | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { auth: as(who) });


const bare = () => path.join(s.hearth.config.repository.root, 'alice', 'data.git');
const objectOf = async (rev: string) => (await git(bare(), 'rev-parse', rev)).trim();

beforeAll(async () => {
  s = await startTestServer({ HEARTH__API__DEFAULT_MAX_BLOB_SIZE: '100', HEARTH__API__DEFAULT_GIT_TREES_PER_PAGE: '5' });
  root = s.hearth.config.server.root_url;
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'data', { auto_init: true });
  await createRepo(s, alice, 'empty');
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });

  const wt = await cloneRepo(s, alice, 'alice', 'data');
  shas.c1 = await commitFiles(wt, {
    files: { 'src/a.txt': 'hello\n', 'src/lib/b.txt': 'b\n', 'big.txt': BIG, 'run.sh': '#!/bin/sh\n' },
    message: 'content', unix: t0,
  });
  fs.chmodSync(path.join(wt, 'run.sh'), 0o755);
  fs.symlinkSync('src/a.txt', path.join(wt, 'link'));
  await git(wt, 'update-index', '--add', '--cacheinfo', `160000,${shas.c1},vendor/sub`);
  fs.mkdirSync(path.join(wt, 'vendor', 'sub'), { recursive: true }); // an unpopulated submodule, kept by `add -A`
  shas.c2 = await commitFiles(wt, { message: 'link, exec and submodule', unix: t0 + 60 });
  await git(wt, 'tag', '-a', 'v1.0', '-m', 'release one', shas.c1);
  await git(wt, 'tag', 'light', shas.c1);
  await git(wt, 'checkout', '-q', '-b', 'feature/x');
  shas.f1 = await commitFiles(wt, { files: { 'feature.txt': 'f\n' }, message: 'feature', unix: t0 + 120 });
  await git(wt, 'notes', 'add', '-m', 'a note on c1', shas.c1);
  await git(wt, 'push', '-q', 'origin', 'main', 'feature/x', 'v1.0', 'light', 'refs/notes/commits');
});
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/git/blobs/{sha}', () => {
  it('returns the content base64 encoded', async () => {
    const sha = await objectOf('main:src/a.txt');
    const body = await ok(await call(`data/git/blobs/${sha}`));
    expectShape(body, 'GitBlobResponse');
    expect(body).toEqual({
      content: Buffer.from('hello\n').toString('base64'), encoding: 'base64', sha, size: 6,
      url: `${root}api/v1/repos/alice/data/git/blobs/${sha}`,
    });
  });

  it('leaves out content over api.default_max_blob_size', async () => {
    const sha = await objectOf('main:big.txt');
    const body = await ok(await call(`data/git/blobs/${sha}`));
    expect(body).toMatchObject({ sha, size: BIG.length, content: '' });
  });

  it('answers 400 for unknown or malformed ids; any object\'s id reads it, a commit too (as Gitea)', async () => {
    expect((await call('data/git/blobs/0123456789abcdef0123456789abcdef01234567')).status).toBe(400);
    expect((await call('data/git/blobs/main')).status).toBe(400);
    expect((await call('data/git/blobs/--output=x')).status).toBe(400);
    // This server's blobs are at most 100 bytes: the commit is listed, its text left out.
    const commit = await ok(await call(`data/git/blobs/${shas.c1}`));
    expect(commit.sha).toBe(shas.c1);
    expect(commit.size).toBeGreaterThan(100);
  });
});

describe('GET /repos/{owner}/{repo}/git/trees/{sha}', () => {
  it('lists a commit\'s tree with modes, types, sizes and urls', async () => {
    const res = await call(`data/git/trees/${shas.c2}`);
    const body = await ok(res);
    expectShape(body, 'GitTreeResponse');
    const tree = await objectOf(`${shas.c2}^{tree}`);
    expect(body).toMatchObject({ sha: tree, url: `${root}api/v1/repos/alice/data/git/trees/${tree}`, page: 1, truncated: true, total_count: 6 });
    expect(res.headers.get('X-Total-Count')).toBe('6');
    expect(body.tree).toHaveLength(5);
    const byPath = Object.fromEntries(body.tree.map((e: { path: string }) => [e.path, e]));
    expect(byPath['big.txt']).toMatchObject({ mode: '100644', type: 'blob', size: BIG.length });
    expect(byPath['link']).toMatchObject({ mode: '120000', type: 'blob' });
    expect(byPath['src']).toMatchObject({ mode: '040000', type: 'tree', size: 0, url: `${root}api/v1/repos/alice/data/git/trees/${byPath.src.sha}` });
    expect(byPath['run.sh']).toMatchObject({ mode: '100755', type: 'blob' });
    const rest = await ok(await call(`data/git/trees/${shas.c2}?page=2`));
    expect(rest).toMatchObject({ page: 2, truncated: false, total_count: 6 });
    expect(rest.tree).toEqual([expect.objectContaining({ path: 'vendor', mode: '040000', type: 'tree' })]);
  });

  it('pages with per_page (capped by the default) and lists recursively', async () => {
    const two = await ok(await call(`data/git/trees/main?per_page=2&page=2`));
    expect(two.tree).toHaveLength(2);
    expect(two.truncated).toBe(true);
    const capped = await ok(await call('data/git/trees/main?per_page=500'));
    expect(capped.tree).toHaveLength(5);
    const all = [];
    for (let page = 1; ; page++) {
      const body = await ok(await call(`data/git/trees/main?recursive=true&page=${page}`));
      all.push(...body.tree);
      if (!body.truncated) break;
    }
    const paths = all.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['src', 'src/lib', 'src/lib/b.txt', 'src/a.txt', 'vendor', 'vendor/sub']));
    const sub = all.find((e: { path: string }) => e.path === 'vendor/sub');
    expect(sub).toMatchObject({ type: 'commit', mode: '160000', sha: shas.c1, url: '' });
    const past = await ok(await call('data/git/trees/main?page=99'));
    expect(past).toMatchObject({ tree: [], truncated: false, total_count: 6 });
  });

  it('accepts tree ids, tags, branch names with slashes and `ref:path`', async () => {
    const srcTree = await objectOf('main:src');
    const byId = await ok(await call(`data/git/trees/${srcTree}`));
    expect(byId.sha).toBe(srcTree);
    const byPath = await ok(await call(`data/git/trees/${encodeURIComponent('main:src')}`));
    expect(byPath.sha).toBe(srcTree);
    expect(byPath.tree.map((e: { path: string }) => e.path)).toEqual(['a.txt', 'lib']);
    const nested = await ok(await call('data/git/trees/main:src/lib'));
    expect(nested.tree.map((e: { path: string }) => e.path)).toEqual(['b.txt']);
    const tag = await ok(await call('data/git/trees/v1.0'));
    expect(tag.sha).toBe(await objectOf('v1.0^{tree}'));
    const feature = await ok(await call('data/git/trees/feature/x'));
    expect(feature.sha).toBe(await objectOf('feature/x^{tree}'));
  });

  it('answers 400 for anything that names no tree', async () => {
    for (const bad of ['ghost', '0123456789abcdef0123456789abcdef01234567', 'main:nowhere', 'main:src/a.txt', '--all']) {
      expect((await call(`data/git/trees/${encodeURIComponent(bad)}`)).status, bad).toBe(400);
    }
    expect((await call('empty/git/trees/main')).status).toBe(400);
  });
});

describe('GET /repos/{owner}/{repo}/git/refs', () => {
  it('lists every ref with its object', async () => {
    const body = await ok(await call('data/git/refs'));
    expectShape(body, '[Reference]');
    const names = body.map((r: { ref: string }) => r.ref);
    expect(names).toEqual(['refs/heads/feature/x', 'refs/heads/main', 'refs/notes/commits', 'refs/tags/light', 'refs/tags/v1.0']);
    const tag = body.find((r: { ref: string }) => r.ref === 'refs/tags/v1.0');
    const tagObject = await objectOf('refs/tags/v1.0');
    expect(tag).toEqual({
      ref: 'refs/tags/v1.0', url: `${root}api/v1/repos/alice/data/git/refs/tags/v1.0`,
      object: { type: 'tag', sha: tagObject, url: `${root}api/v1/repos/alice/data/git/tags/${tagObject}` },
    });
    const main = body.find((r: { ref: string }) => r.ref === 'refs/heads/main');
    expect(main.object).toEqual({ type: 'commit', sha: shas.c2, url: `${root}api/v1/repos/alice/data/git/commits/${shas.c2}` });
  });

  it('filters by prefix, always answering a list', async () => {
    const heads = await ok(await call('data/git/refs/heads'));
    expect(heads.map((r: { ref: string }) => r.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main']);
    const exact = await ok(await call('data/git/refs/heads/main'));
    expect(exact).toHaveLength(1);
    expect(exact[0].ref).toBe('refs/heads/main');
    const partial = await ok(await call('data/git/refs/tags/v'));
    expect(partial.map((r: { ref: string }) => r.ref)).toEqual(['refs/tags/v1.0']);
    const slash = await ok(await call('data/git/refs/heads/feature/x'));
    expect(slash[0].url).toBe(`${root}api/v1/repos/alice/data/git/refs/heads/feature/x`);
  });

  it('answers 404 when no ref matches', async () => {
    expect((await call('data/git/refs/heads/ghost')).status).toBe(404);
    expect((await call('empty/git/refs')).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/git/tags/{sha}', () => {
  it('returns an annotated tag object', async () => {
    const sha = await objectOf('refs/tags/v1.0');
    const body = await ok(await call(`data/git/tags/${sha}`));
    expectShape(withoutNulls(body), 'AnnotatedTag');
    expect(body).toMatchObject({
      tag: 'v1.0', sha, url: `${root}api/v1/repos/alice/data/git/tags/${sha}`, message: 'release one\n',
      object: { type: 'commit', sha: shas.c1, url: `${root}api/v1/repos/alice/data/git/commits/${shas.c1}` },
      tagger: { name: 'Tester', email: 'tester@example.com' },
      verification: { verified: false },
    });
    expect(body.tagger.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('answers 400 for lightweight tags, commits and unknown ids', async () => {
    expect((await call(`data/git/tags/${shas.c1}`)).status).toBe(400);
    expect((await call('data/git/tags/light')).status).toBe(400);
    expect((await call('data/git/tags/0123456789abcdef0123456789abcdef01234567')).status).toBe(400);
  });
});

describe('GET /repos/{owner}/{repo}/git/notes/{sha}', () => {
  it('returns the note and the notes commit that wrote it', async () => {
    const body = await ok(await call(`data/git/notes/${shas.c1}`));
    expectShape(withoutNulls(body), 'Note');
    expect(body.message).toBe('a note on c1\n');
    expect(body.commit.sha).toBe(await objectOf('refs/notes/commits'));
    expect(body.commit.stats).toBeTruthy();
    const short = await ok(await call(`data/git/notes/${shas.c1.slice(0, 10)}?files=false&verification=false`));
    expect(short.commit.files).toBeNull();
    expect(short.commit.commit.verification).toBeNull();
  });

  it('answers 404 without a note, 422 for an invalid sha', async () => {
    expect((await call(`data/git/notes/${shas.c2}`)).status).toBe(404);
    expect((await call('data/git/notes/ghost')).status).toBe(404);
    expect((await call('data/git/notes/a..b')).status).toBe(422);
    expect((await call(`empty/git/notes/${shas.c1}`)).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/archive/{archive}', () => {
  async function download(p: string, who: Creds | null = alice): Promise<{ res: Response; file: string }> {
    const res = await call(p, who);
    const file = path.join(tempDir('hearth-archive-'), 'out');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return { res, file };
  }

  it('streams a zip with files under <repo>/', async () => {
    const { res, file } = await download('data/archive/main.zip');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    expect(res.headers.get('Content-Disposition')).toContain('filename="data-main.zip"');
    expect(res.headers.get('Link')).toBe(`<${root}api/v1/repos/alice/data/archive/${shas.c2}.zip?rev=${shas.c2}>; rel="immutable"`);
    const { stdout } = await run('unzip', ['-l', file]);
    for (const name of ['data/README.md', 'data/src/a.txt', 'data/src/lib/b.txt', 'data/run.sh']) expect(stdout).toContain(name);
    const { stdout: content } = await run('unzip', ['-p', file, 'data/src/a.txt']);
    expect(content).toBe('hello\n');
  });

  it('streams a tar.gz of a branch with a slash, a tag or a commit', async () => {
    const { res, file } = await download('data/archive/feature/x.tar.gz');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/gzip');
    expect(res.headers.get('Content-Disposition')).toContain('filename="data-feature-x.tar.gz"');
    const { stdout } = await run('tar', ['-tzf', file]);
    expect(stdout.split('\n')).toEqual(expect.arrayContaining(['data/', 'data/feature.txt', 'data/src/a.txt']));
    const tag = await download('data/archive/v1.0.tar.gz');
    const listed = (await run('tar', ['-tzf', tag.file])).stdout;
    expect(listed).toContain('data/big.txt');
    expect(listed).not.toContain('data/link');
    const bySha = await download(`data/archive/${shas.c1.slice(0, 12)}.zip`);
    expect(bySha.res.status).toBe(200);
  });

  it('answers 404 for unknown refs and empty or hidden repositories, 400 for other formats', async () => {
    expect((await call('data/archive/ghost.zip')).status).toBe(404);
    expect((await call('data/archive/--output=x.zip')).status).toBe(404);
    expect((await call('empty/archive/main.zip')).status).toBe(404);
    expect((await call('secret/archive/main.zip', null)).status).toBe(404);
    expect((await call('secret/archive/main.zip')).status).toBe(200);
    expect((await call('data/archive/main.rar')).status).toBe(400);
  });
});
