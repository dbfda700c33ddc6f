import crypto from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, gitTry } from './helpers/git';
import { basicHeader } from './helpers/server';
import { hearthCommand, killHard, processDatabaseEnv, runHearth, startHearthProcess } from './helpers/process';
import { sqliteOnly, testsOnPostgres } from './helpers/test-database';

// `hearth dump` while the server serves and 4 clients push and open issues, then `hearth
// restore` into a new directory: the restored server answers as the original did at the dump.
// The archive holds SQLite's database file (an online backup): on PostgreSQL both commands refuse
// in one line by design, which the PostgreSQL pass asserts against a serving instance of its own.

const root = path.resolve(__dirname, '..');
const dirs: string[] = [];
const tmp = (prefix: string) => { const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix)); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

const startProcess = (dataDir: string) => startHearthProcess(dataDir);
async function stopProcess(c: ChildProcess): Promise<void> {
  const exit = new Promise((r) => c.once('exit', r));
  killHard(c);
  await exit;
}
const hearth = (...args: string[]) => runHearth(args);

type Client = { url: string; auth: string };
const api = async (c: Client, p: string, init: { method?: string; json?: unknown; body?: Blob | FormData | Buffer } = {}) => {
  const headers: Record<string, string> = { Authorization: c.auth };
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${c.url}/${p}`, { method: init.method ?? 'GET', headers, body: init.json !== undefined ? JSON.stringify(init.json) : (init.body as RequestInit['body']) });
  return res;
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const ok = async (res: Response): Promise<any> => {
  if (res.status >= 300) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return res.headers.get('content-type')?.includes('json') ? res.json() : res.arrayBuffer();
};
const cloneUrl = (url: string, user: string, password: string, repo: string) => {
  const u = new URL(`${url}/${user}/${repo}.git`);
  u.username = user;
  u.password = password;
  return u.toString();
};

async function commitAndPush(wt: string, remote: string, branch: string, n: number): Promise<string> {
  fs.writeFileSync(path.join(wt, `f${n}.txt`), `change ${n}\n${'x'.repeat(n * 37 % 4000)}\n`);
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '-m', `change ${n}`);
  await git(wt, 'push', '-q', remote, `HEAD:refs/heads/${branch}`);
  return (await git(wt, 'rev-parse', 'HEAD')).trim();
}

describe('hearth dump and restore', () => {
  // SQLite's: the archive is the one-file dump (PostgreSQL's refusal is asserted below).
  sqliteOnly('a dump taken under concurrent pushes and issues restores to a server that agrees with the dump moment', async () => {
    const data = tmp('hearth-dump-src-');
    const first = await startProcess(data);
    const rootPw = /password:\s+(\S+)/.exec(first.out())![1]!;
    const admin: Client = { url: first.url, auth: basicHeader('root', rootPw) };
    const users = ['ann', 'ben', 'cat', 'dan'];
    const pw = 'a-long-password';
    for (const u of users) {
      await ok(await api(admin, 'api/v1/admin/users', { method: 'POST', json: { username: u, email: `${u}@example.com`, password: pw, must_change_password: false } }));
    }
    const as = (u: string): Client => ({ url: first.url, auth: basicHeader(u, pw) });
    const trees: Record<string, string> = {};
    const heads: Record<string, string> = {};
    for (const u of users) {
      await ok(await api(as(u), 'api/v1/user/repos', { method: 'POST', json: { name: 'proj' } }));
      trees[u] = tmp('hearth-dump-wt-');
      await git(trees[u]!, 'init', '-q', '-b', 'main');
      heads[u] = await commitAndPush(trees[u]!, cloneUrl(first.url, u, pw, 'proj'), 'main', 0);
      await git(trees[u]!, 'tag', '-a', 'v1', '-m', 'annotated');
      await git(trees[u]!, 'push', '-q', cloneUrl(first.url, u, pw, 'proj'), 'v1');
      await ok(await api(as(u), `api/v1/repos/${u}/proj/issues`, { method: 'POST', json: { title: `first of ${u}` } }));
    }
    const attachBytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    const form = new FormData();
    form.append('attachment', new Blob([attachBytes]), 'notes.zip');
    const attachment = await ok(await api(as('ann'), 'api/v1/repos/ann/proj/issues/1/assets', { method: 'POST', body: form }));
    const release = await ok(await api(as('ann'), 'api/v1/repos/ann/proj/releases', { method: 'POST', json: { tag_name: 'r1', target_commitish: 'main' } }));
    const assetBytes = Buffer.from('release asset bytes\n'.repeat(300));
    const form2 = new FormData();
    form2.append('attachment', new Blob([assetBytes]), 'asset.txt');
    const asset = await ok(await api(as('ann'), `api/v1/repos/ann/proj/releases/${release.id}/assets`, { method: 'POST', body: form2 }));
    const pkgBytes = Buffer.from('package file\n'.repeat(1000));
    expect((await api(as('ben'), 'api/packages/ben/generic/tool/1.0.0/tool.txt', { method: 'PUT', body: pkgBytes })).status).toBe(201);

    // 4 clients push to their branch and open issues until the dump is over.
    let stop = false;
    const pushes: Record<string, { sha: string; doneAt: number }[]> = {};
    const issues: { owner: string; title: string; startedAt: number; doneAt: number }[] = [];
    const work = users.map(async (u) => {
      pushes[u] = [];
      for (let n = 1; !stop; n++) {
        const sha = await commitAndPush(trees[u]!, cloneUrl(first.url, u, pw, 'proj'), 'main', n);
        pushes[u]!.push({ sha, doneAt: Date.now() });
        const startedAt = Date.now();
        const title = `busy ${u} ${n}`;
        await ok(await api(as(u), `api/v1/repos/${u}/proj/issues`, { method: 'POST', json: { title } }));
        issues.push({ owner: u, title, startedAt, doneAt: Date.now() });
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    const archive = path.join(tmp('hearth-dump-out-'), 'backup.tar.gz');
    const dumpStart = Date.now();
    const dumped = await hearth('dump', '--data', data, '-o', archive);
    const dumpEnd = Date.now();
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(work);
    expect(dumped.code, dumped.err).toBe(0);
    // The clients were busy while the dump ran.
    expect(issues.some((i) => i.doneAt > dumpStart && i.startedAt < dumpEnd)).toBe(true);
    expect(dumped.err).toMatch(/hearth dump: .*backup\.tar\.gz: \d+ entries, 4 repositories/);
    expect(fs.readdirSync(path.dirname(archive))).toEqual(['backup.tar.gz']);
    // Plain GNU tar reads it too: an operator can look inside or extract by hand.
    const gnuTar = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' });
    expect(gnuTar.status, gnuTar.stderr).toBe(0);
    const names = gnuTar.stdout.trim().split('\n');
    expect(names[0]).toBe('hearth.db');
    expect(names.at(-1)).toBe('manifest.json');
    expect(names.filter((n) => /^repositories\/.+\.git\/HEAD$/.test(n))).toHaveLength(4);

    // A non-empty target is refused with one line; then restore into a fresh directory.
    const busy = tmp('hearth-dump-busy-');
    fs.writeFileSync(path.join(busy, 'something'), 'x');
    const refused = await hearth('restore', archive, '--data', busy);
    expect(refused.code).toBe(1);
    expect(refused.err.trim().split('\n')).toHaveLength(1);
    expect(refused.err).toMatch(/is not empty/);
    const target = path.join(tmp('hearth-dump-dst-'), 'data');
    const restored = await hearth('restore', archive, '--data', target);
    expect(restored.code, restored.err).toBe(0);
    expect(fs.readFileSync(path.join(target, 'secret_key'), 'utf8')).toBe(fs.readFileSync(path.join(data, 'secret_key'), 'utf8'));
    expect(fs.existsSync(path.join(target, 'tmp'))).toBe(false);

    const second = await startProcess(target);
    const again: Client = { url: second.url, auth: basicHeader('root', rootPw) };
    const listed = await ok(await api(again, 'api/v1/admin/users?limit=50'));
    expect(listed.map((x: { login: string }) => x.login).sort()).toEqual(['ann', 'ben', 'cat', 'dan', 'root']);
    for (const u of users) {
      const titles = new Set<string>();
      for (let page = 1; ; page++) {
        const got = await ok(await api(again, `api/v1/repos/${u}/proj/issues?state=all&type=issues&limit=50&page=${page}`));
        for (const i of got) titles.add(i.title);
        if (got.length < 50) break;
      }
      expect(titles.has(`first of ${u}`)).toBe(true);
      for (const i of issues.filter((x) => x.owner === u)) {
        if (i.doneAt < dumpStart) expect(titles.has(i.title), `${i.title} made before the dump`).toBe(true);
        if (i.startedAt > dumpEnd) expect(titles.has(i.title), `${i.title} made after the dump`).toBe(false);
      }
      // The repository: a clone works, every ref resolves, fsck is clean, main is a pushed state.
      const bare = path.join(target, 'repositories', u, 'proj.git');
      expect((await gitTry(root, '--git-dir', bare, 'fsck', '--no-dangling', '--strict')).code).toBe(0);
      const refs = (await git(root, '--git-dir', bare, 'for-each-ref', '--format=%(refname)')).trim().split('\n');
      expect(refs).toEqual(expect.arrayContaining(['refs/heads/main', 'refs/tags/v1']));
      for (const r of refs) expect((await gitTry(root, '--git-dir', bare, 'rev-parse', '--verify', '-q', `${r}^{commit}`)).code).toBe(0);
      const clone = tmp('hearth-dump-clone-');
      await git(clone, 'clone', '-q', cloneUrl(second.url, u, pw, 'proj'), 'c');
      const main = (await git(path.join(clone, 'c'), 'rev-parse', 'HEAD')).trim();
      const states = [heads[u]!, ...pushes[u]!.map((p) => p.sha)];
      expect(states).toContain(main);
      const before = pushes[u]!.filter((p) => p.doneAt < dumpStart).length;
      expect(states.indexOf(main)).toBeGreaterThanOrEqual(before);
      expect((await gitTry(path.join(clone, 'c'), 'fsck', '--no-dangling')).code).toBe(0);
      const branch = await ok(await api(again, `api/v1/repos/${u}/proj/branches/main`));
      expect(branch.commit.id).toBe(main);
    }
    const fetchBytes = async (url: string) => Buffer.from(await ok(await fetch(url, { headers: { Authorization: again.auth } })) as ArrayBuffer);
    expect(await fetchBytes(`${second.url}/attachments/${attachment.uuid}`)).toEqual(attachBytes);
    expect(await fetchBytes(`${second.url}/attachments/${asset.uuid}`)).toEqual(assetBytes);
    expect(await fetchBytes(`${second.url}/api/packages/ben/generic/tool/1.0.0/tool.txt`)).toEqual(pkgBytes);
    await stopProcess(second.child);
    await stopProcess(first.child);
  }, 240_000);

  // SQLite's: a PostgreSQL instance has no archive to corrupt (restore into one is refused below).
  sqliteOnly('a corrupted archive (one byte flipped in an entry) is refused by its checksum and leaves nothing behind', async () => {
    const data = tmp('hearth-dump-small-');
    const started = await startProcess(data);
    await stopProcess(started.child);
    const archive = path.join(tmp('hearth-dump-out-'), 'small.tar');
    const dumped = await hearth('dump', '--data', data, '-o', archive, '--skip-repos');
    expect(dumped.code, dumped.err).toBe(0);
    const bytes = fs.readFileSync(archive);
    const secret = fs.readFileSync(path.join(data, 'secret_key'), 'utf8').trim();
    const at = bytes.indexOf(Buffer.from(secret));
    expect(at).toBeGreaterThan(0);
    bytes[at + 3] = bytes[at + 3] === 0x30 ? 0x31 : 0x30;
    fs.writeFileSync(archive, bytes);
    const target = path.join(tmp('hearth-dump-dst-'), 'data');
    const r = await hearth('restore', archive, '--data', target);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/checksum mismatch for secret_key/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(target)).toBe(false);
  }, 120_000);
});

describe('hearth dump with gitea dump\'s flags', () => {
  // SQLite's: the flags shape the one-file archive, which a PostgreSQL instance does not get.
  sqliteOnly('takes Gitea\'s names for the same choices and refuses, in one line, what hearth cannot do', async () => {
    const data = path.join(tmp('hearth-dump-flags-'), 'data');
    expect((await hearth('migrate', '--data', data)).code).toBe(0);
    const out = path.join(tmp('hearth-dump-flags-out-'), 'gitea-style.tar');
    const r = await hearth('dump', '--data', data, '-f', out, '--type', 'tar', '-R', '--skip-attachment-data', '--skip-package-data', '--skip-lfs-data', '--skip-log', '--skip-index');
    expect(r.code, r.err).toBe(0);
    const names = spawnSync('tar', ['-tf', out], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(names[0]).toBe('hearth.db');
    expect(names.some((n) => n.startsWith('repositories/'))).toBe(false);
    const manifest = spawnSync('tar', ['-xOf', out, 'manifest.json'], { encoding: 'utf8' }).stdout;
    expect(JSON.parse(manifest)).toMatchObject({ skipped: expect.arrayContaining(['repos', 'attachments', 'packages']) });
    for (const [args, message] of [
      [['--type', 'zip'], /--type zip: hearth writes tar and tar.gz archives/],
      [['--skip-db'], /the database is what a dump is for/],
      [['--skip-package-data'], /share one blob store/],
      [['-f', `${out}.gz`, '--type', 'tar'], /does not match the archive's name/],
      [['-f', out, '-o', out], /--file and --output name the same archive/],
    ] as const) {
      const refused = await hearth('dump', '--data', data, ...args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.err.trim()).toMatch(message);
      expect(refused.err.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});

describe('hearth dump on PostgreSQL', () => {
  it('refuses in one line, pointing at pg_dump, before connecting anywhere', async () => {
    const data = path.join(tmp('hearth-dump-pg-'), 'data');
    const r = await runHearth(['dump', '--data', data], { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: 'postgres://hearth:secret@127.0.0.1:9/nothing' });
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/^hearth: hearth dump archives a SQLite instance; .* back it up with pg_dump, /)]);
    expect(r.err).not.toContain('secret');
  });

  it('restore into a configuration whose database is PostgreSQL refuses in one line, before reading the archive', async () => {
    const archive = path.join(tmp('hearth-restore-pg-'), 'backup.tar.gz');
    fs.writeFileSync(archive, 'not read');
    const target = path.join(tmp('hearth-restore-pg-dst-'), 'data');
    const r = await runHearth(['restore', archive, '--data', target], { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: 'postgres://hearth:secret@127.0.0.1:9/nothing' });
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/^hearth: a hearth dump holds a SQLite database; .*'hearth admin db copy --to postgres:/)]);
    expect(r.err).not.toContain('secret');
    expect(fs.existsSync(target)).toBe(false);
  });

  // The pass's own database behind a serving instance with a repository: the refusals change nothing.
  it.runIf(testsOnPostgres)('a serving instance on the pass\'s PostgreSQL: dump and restore refuse, writing nothing, and it keeps serving', async () => {
    const data = tmp('hearth-dump-pg-serving-');
    const env = await processDatabaseEnv();
    const web = await startHearthProcess(data, env);
    try {
      const rootPw = /password:\s+(\S+)/.exec(web.out())![1]!;
      const admin: Client = { url: web.url, auth: basicHeader('root', rootPw) };
      await ok(await api(admin, 'api/v1/user/repos', { method: 'POST', json: { name: 'proj', auto_init: true } }));
      const out = tmp('hearth-dump-pg-out-');
      const dumped = await runHearth(['dump', '--data', data, '-o', path.join(out, 'backup.tar.gz')], env);
      expect(dumped.code).toBe(1);
      expect(dumped.err.trim().split('\n')).toEqual([expect.stringMatching(/^hearth: hearth dump archives a SQLite instance; .* back it up with pg_dump, /)]);
      expect(fs.readdirSync(out)).toEqual([]);
      expect(fs.existsSync(path.join(data, 'hearth.db'))).toBe(false);
      const archive = path.join(out, 'other.tar.gz');
      fs.writeFileSync(archive, 'not read');
      const target = path.join(out, 'restored');
      const restored = await runHearth(['restore', archive, '--data', target], env);
      expect(restored.code).toBe(1);
      expect(restored.err).toMatch(/^hearth: a hearth dump holds a SQLite database; /);
      expect(fs.existsSync(target)).toBe(false);
      const repo = await ok(await api(admin, 'api/v1/repos/root/proj'));
      expect(repo.empty).toBe(false);
    } finally {
      await stopProcess(web.child);
    }
  }, 120_000);
});

describe('hearth dump and restore interrupted', () => {
  /** Runs hearth with TMPDIR of its own; `signal` is sent once `ready` holds; resolves with the exit and stderr. */
  async function interrupted(args: string[], tmpDir: string, ready: () => boolean) {
    const child = spawn(...hearthCommand(args), { env: { ...process.env, TMPDIR: tmpDir } });
    let err = '';
    child.stderr.on('data', (b) => { err += b; });
    child.stdout.resume();
    const exit = new Promise<number | null>((r) => child.on('exit', r));
    for (const end = Date.now() + 60_000; !ready();) {
      if (Date.now() > end || child.exitCode !== null) throw new Error(`never ready: ${err}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGINT');
    return { code: await exit, err };
  }

  // SQLite's: the database copy and the archive are the one-file dump's.
  sqliteOnly('Ctrl-C during a dump leaves no partial archive nor database copy; during a restore, no half-restored directory', async () => {
    const data = path.join(tmp('hearth-int-'), 'data');
    expect((await hearth('migrate', '--data', data)).code).toBe(0);
    // Incompressible, so that writing and reading it takes a while.
    const big = path.join(data, 'attachments', 'ab', 'cd', 'abcd0000-0000-4000-8000-000000000000');
    fs.mkdirSync(path.dirname(big), { recursive: true });
    fs.writeFileSync(big, crypto.randomBytes(120 * 1024 * 1024));
    const tmpDir = tmp('hearth-int-tmp-');
    const archive = path.join(tmp('hearth-int-out-'), 'backup.tar.gz');
    const partial = `${archive}.partial`;

    const dump = await interrupted(['dump', '--data', data, '-o', archive], tmpDir,
      () => (fs.statSync(partial, { throwIfNoEntry: false })?.size ?? 0) > 2 * 1024 * 1024);
    expect(dump.code, dump.err).toBe(1);
    expect(dump.err).toMatch(/dump failed: interrupted \(SIGINT\)/);
    expect(fs.existsSync(partial)).toBe(false);
    expect(fs.existsSync(archive)).toBe(false);
    expect(fs.readdirSync(tmpDir).filter((n) => n.startsWith('hearth-'))).toEqual([]); // tsx's loader keeps its own cache there

    expect((await hearth('dump', '--data', data, '-o', archive)).code).toBe(0);
    const target = path.join(tmp('hearth-int-dst-'), 'data');
    const restore = await interrupted(['restore', archive, '--data', target], tmpDir,
      () => fs.existsSync(path.join(target, 'hearth.db')));
    expect(restore.code, restore.err).toBe(1);
    expect(restore.err).toMatch(/restore interrupted \(SIGINT\): nothing was left behind/);
    expect(fs.existsSync(target)).toBe(false);
  }, 120_000);
});
