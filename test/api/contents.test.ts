import { spawn } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContentsShape, ok, seedRepo, type Seeded } from '../helpers/contents';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { as, createUser, startTestServer, type TestServer } from '../helpers/server';

// Reading: contents, file-contents, raw, media and editorconfig.

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let dave: Creds; // no access to private repositories
let seeded: Seeded;
let root: string;

const call = (p: string, method = 'GET', body?: unknown, who: { username: string; password: string } | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { method, auth: who ? as(who) : undefined, json: body });
const blobOf = async (rev: string) => (await git(seeded.work, 'rev-parse', rev)).trim();

/** A request whose path reaches the server byte for byte (fetch would resolve `..` itself). */
function rawGet(path: string): Promise<number> {
  const url = new URL(s.hearth.config.server.root_url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  s = await startTestServer({ HEARTH__API__DEFAULT_MAX_BLOB_SIZE: '4096' });
  root = s.hearth.config.server.root_url;
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
  dave = await createUser(s, 'dave');
  await createRepo(s, alice, 'repo');
  await createRepo(s, alice, 'empty');
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });
  seeded = await seedRepo(s, alice, 'alice', 'repo');
}, 60_000);
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/contents', () => {
  it('lists the root of the default branch with each entry\'s last commit', async () => {
    const body = await ok(await call('repo/contents'));
    expectContentsShape(body);
    const byName = Object.fromEntries(body.map((e: { name: string }) => [e.name, e]));
    expect(Object.keys(byName).sort()).toEqual(['.editorconfig', '.gitmodules', 'README.md', 'big.txt', 'bin.dat', 'docs', 'link', 'mods', 'run.sh']);
    expect(byName.docs).toMatchObject({ type: 'dir', path: 'docs', size: 0, content: null, encoding: null, last_commit_sha: seeded.c2 });
    expect(byName['README.md']).toMatchObject({
      type: 'file', size: 8, content: null, last_commit_sha: seeded.c1, sha: await blobOf('HEAD:README.md'),
      url: `${root}api/v1/repos/alice/repo/contents/README.md?ref=main`,
      html_url: `${root}alice/repo/src/branch/main/README.md`,
      git_url: `${root}api/v1/repos/alice/repo/git/blobs/${await blobOf('HEAD:README.md')}`,
      download_url: `${root}alice/repo/raw/branch/main/README.md`,
    });
    expect(byName['README.md']._links).toEqual({ self: byName['README.md'].url, git: byName['README.md'].git_url, html: byName['README.md'].html_url });
    expect(byName['README.md'].last_committer_date).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(byName.link).toMatchObject({ type: 'symlink', target: 'README.md' });
    expect(byName['run.sh'].type).toBe('file');
  });

  it('answers [] for an empty repository and 404 for a missing or private one', async () => {
    expect(await ok(await call('empty/contents'))).toEqual([]);
    await ok(await call('empty/contents/README.md'), 404);
    await ok(await call('secret/contents', 'GET', undefined, dave), 404);
    await ok(await call('nope/contents'), 404);
  });
});

describe('GET /repos/{owner}/{repo}/contents/{filepath}', () => {
  it('returns a file with its base64 content and last commit', async () => {
    const body = await ok(await call('repo/contents/docs/a.md'));
    expectContentsShape(body);
    expect(body).toMatchObject({
      name: 'a.md', path: 'docs/a.md', type: 'file', encoding: 'base64', content: Buffer.from('a2\n').toString('base64'),
      size: 3, last_commit_sha: seeded.c2, target: null, submodule_git_url: null,
    });
  });

  it('lists a sub-directory, a symlink\'s target and a submodule\'s URL', async () => {
    const dir = await ok(await call('repo/contents/docs'));
    expectContentsShape(dir);
    expect(dir.map((e: { path: string; type: string }) => [e.path, e.type])).toEqual([['docs/a.md', 'file'], ['docs/sub', 'dir']]);
    expect(dir.find((e: { name: string }) => e.name === 'sub').last_commit_sha).toBe(seeded.c1);
    const link = await ok(await call('repo/contents/link'));
    expect(link).toMatchObject({ type: 'symlink', target: 'README.md', content: null });
    expect(link.download_url).toBe(`${root}alice/repo/raw/branch/main/link`);
    const mod = await ok(await call('repo/contents/mods/lib'));
    expectContentsShape(mod);
    expect(mod).toMatchObject({ type: 'submodule', submodule_git_url: 'https://example.com/lib.git', html_url: null, git_url: null, download_url: null });
  });

  it('reads at ?ref= a branch, a tag or a commit; an unknown ref is 404', async () => {
    const dev = await ok(await call('repo/contents/dev.txt?ref=dev'));
    expect(dev.last_commit_sha).toBe(seeded.dev);
    expect(dev.html_url).toBe(`${root}alice/repo/src/branch/dev/dev.txt`);
    const tagged = await ok(await call('repo/contents/docs/a.md?ref=v1'));
    expect(Buffer.from(tagged.content, 'base64').toString()).toBe('a\n');
    expect(tagged.html_url).toBe(`${root}alice/repo/src/tag/v1/docs/a.md`);
    const byId = await ok(await call(`repo/contents/docs/a.md?ref=${seeded.c1}`));
    expect(byId.url).toBe(`${root}api/v1/repos/alice/repo/contents/docs/a.md?ref=${seeded.c1}`);
    expect(byId.download_url).toBe(`${root}alice/repo/raw/commit/${seeded.c1}/docs/a.md`);
    await ok(await call('repo/contents/dev.txt'), 404);
    await ok(await call('repo/contents/README.md?ref=no-such'), 404);
  });

  it('leaves the content out of files over api.default_max_blob_size', async () => {
    const big = await ok(await call('repo/contents/big.txt'));
    expect(big).toMatchObject({ type: 'file', size: 5000, content: null, encoding: null });
  });

  it('answers 404 for paths that leave the tree or enter .git', async () => {
    await ok(await call('repo/contents/.git/config'), 404);
    await ok(await call('repo/contents/docs/.GIT/HEAD'), 404);
    await ok(await call('repo/contents/docs/..%2F..%2Fetc'), 404);
    await ok(await call('repo/contents/a%00b'), 404);
    expect(await rawGet('/api/v1/repos/alice/repo/contents/docs/../../../etc/passwd')).toBe(404);
    expect(await rawGet('/api/v1/repos/alice/repo/raw/docs/%2e%2e/README.md')).toBe(404);
  });
});

describe('file-contents', () => {
  it('POST returns each path\'s contents, null for missing ones, no content for large ones', async () => {
    const body = await ok(await call('repo/file-contents', 'POST', { files: ['README.md', 'nope.txt', 'big.txt', '../x', 'docs'] }));
    expectContentsShape(body);
    expect(body).toHaveLength(5);
    expect(body[0]).toMatchObject({ path: 'README.md', encoding: 'base64', content: Buffer.from('# Hello\n').toString('base64'), last_commit_sha: seeded.c1 });
    expect(body[1]).toBeNull();
    expect(body[2]).toMatchObject({ path: 'big.txt', size: 5000, content: null, encoding: null });
    expect(body[3]).toBeNull();
    expect(body[4]).toMatchObject({ path: 'docs', type: 'dir' });
  });

  it('GET takes the same body as JSON in ?body= and honours ?ref=', async () => {
    const q = encodeURIComponent(JSON.stringify({ files: ['dev.txt'] }));
    const body = await ok(await call(`repo/file-contents?ref=dev&body=${q}`));
    expectContentsShape(body);
    expect(body[0]).toMatchObject({ path: 'dev.txt', last_commit_sha: seeded.dev });
    await ok(await call('repo/file-contents?body=not-json'), 400);
    await ok(await call('repo/file-contents?ref=no-such&body=%7B%7D'), 404);
  });
});

describe('raw and media', () => {
  it('serves the bytes of the default branch with type, ETag and object type headers', async () => {
    for (const kind of ['raw', 'media']) {
      const res = await call(`repo/${kind}/README.md`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('# Hello\n');
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('etag')).toBe(`"${await blobOf('HEAD:README.md')}"`);
      expect(res.headers.get('x-gitea-object-type')).toBe('file');
      expect(res.headers.get('last-modified')).toBeTruthy();
    }
    const bin = await call('repo/raw/bin.dat');
    expect(bin.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await bin.arrayBuffer())).toEqual(Buffer.from('\0\x01\x02binary'));
    const big = await call('repo/raw/big.txt');
    expect((await big.text()).length).toBe(5000);
  });

  it('infers the ref from the path or ?ref= (branch, tag, commit), as Gitea', async () => {
    expect(await (await call('repo/raw/dev/dev.txt')).text()).toBe('dev\n');
    expect(await (await call('repo/raw/dev.txt?ref=dev')).text()).toBe('dev\n');
    expect(await (await call('repo/raw/v1/docs/a.md')).text()).toBe('a\n');
    expect(await (await call(`repo/raw/${seeded.c1}/docs/a.md`)).text()).toBe('a\n');
    expect(await (await call('repo/raw/docs/a.md?ref=v1')).text()).toBe('a\n');
  });

  it('answers 304 to a matching If-None-Match, 404 for directories, submodules and missing files', async () => {
    const etag = `"${await blobOf('HEAD:README.md')}"`;
    const res = await s.request('api/v1/repos/alice/repo/raw/README.md', { auth: as(alice), headers: { 'If-None-Match': etag } });
    expect(res.status).toBe(304);
    await ok(await call('repo/raw/docs'), 404);
    await ok(await call('repo/raw/mods/lib'), 404);
    await ok(await call('repo/raw/nope.txt'), 404);
    await ok(await call('empty/raw/README.md'), 404);
    await ok(await call('repo/raw/.git/config'), 404);
  });
});

describe('GET /repos/{owner}/{repo}/editorconfig/{filepath}', () => {
  it('merges the sections that select the file, later ones winning', async () => {
    expect(await ok(await call('repo/editorconfig/src/app.ts'))).toEqual({ charset: 'utf-8', end_of_line: 'lf', indent_style: 'space', indent_size: '2' });
    expect(await ok(await call('repo/editorconfig/docs/guide/x.md'))).toEqual({ charset: 'utf-8', end_of_line: 'lf', indent_style: 'tab' });
    expect(await ok(await call('repo/editorconfig/Makefile'))).toMatchObject({ indent_style: 'tab' });
    expect(await ok(await call('repo/editorconfig/file2.txt'))).toMatchObject({ indent_size: '8' });
    expect(await ok(await call('repo/editorconfig/file4.txt'))).not.toHaveProperty('indent_size');
  });

  it('answers {} for a file no section selects beyond [*], 404 without an .editorconfig', async () => {
    expect(await ok(await call('repo/editorconfig/notes.md?ref=v1'))).toEqual({ charset: 'utf-8', end_of_line: 'lf' });
    await ok(await call('secret/editorconfig/README.md'), 404);
    await ok(await call('empty/editorconfig/README.md'), 404);
  });
});

/** A bare repository built with fast-import: some history, then a 5,000-file directory edited a few times. */
async function wideRepo(): Promise<string> {
  const dir = tempDir('hearth-wide-');
  await git(dir, 'init', '-q', '--bare', '-b', 'main');
  let script = '';
  const commit = (n: number, files: Record<string, string>) => {
    script += `commit refs/heads/main\ncommitter T <t@example.com> ${1700000000 + n * 60} +0000\ndata 3\nc${n % 10}\n`;
    for (const [name, body] of Object.entries(files)) script += `M 100644 inline ${name}\ndata ${Buffer.byteLength(body)}\n${body}\n`;
  };
  for (let c = 0; c < 200; c++) commit(c, { [`src/f${c % 20}.txt`]: `v${c}` });
  commit(200, Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`wide/file-${i}.txt`, `${i}`])));
  for (let c = 201; c < 250; c++) commit(c, { [`wide/file-${c * 7 % 5000}.txt`]: `v${c}` });
  await new Promise<void>((resolve, reject) => {
    const p = spawn('git', ['fast-import', '--quiet'], { env: { ...process.env, GIT_DIR: dir } });
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import ${code}`))));
    p.stdin.end(script);
  });
  return dir;
}

describe('performance', () => {
  it('lists a 5,000-entry directory with last commits without per-entry work', async () => {
    await createRepo(s, alice, 'wide');
    const bare = await wideRepo();
    await git(bare, 'push', '-q', remoteUrl(s, 'alice', 'wide', alice.username, alice.password), 'main');
    const times: number[] = [];
    let body: { name: string; last_commit_sha?: string }[] = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      body = await ok(await call('wide/contents/wide'));
      times.push(performance.now() - t);
    }
    expect(body).toHaveLength(5000);
    expect(body.every((e) => e.last_commit_sha)).toBe(true);
    const head = (await git(bare, 'rev-parse', 'main')).trim();
    expect(body.find((e) => e.name === 'file-1743.txt')?.last_commit_sha).toBe(head);
    const first = times[0]!;
    const median = [...times].sort((a, b) => a - b)[3]!;
    console.log(`GET contents/wide (5,000 entries): first ${first.toFixed(1)} ms, median ${median.toFixed(1)} ms`);
    // A guard against per-entry work (one git process per entry takes seconds), loose enough
    // for a loaded machine running the suite in parallel; bench/git measures the real figure.
    expect(median).toBeLessThan(500);
  }, 60_000);
});
