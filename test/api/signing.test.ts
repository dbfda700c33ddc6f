import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { cloneWork, commitFile, type Work } from '../helpers/pull-fixtures';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';
import { sqliteOnly } from '../helpers/test-database';
import { dumpInstance } from '../../src/services/backup/dump';

// [repository.signing]: the instance key, signed merges and API commits, and commit verification
// against the instance key and users' own GPG and SSH keys.

const run = promisify(execFile);

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let work: Work;
const homes: string[] = [];

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

/** A fresh GNUPGHOME (short path: gpg-agent's socket lives in it), its agent killed in afterAll. */
function gnupgHome(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hg-'));
  fs.chmodSync(dir, 0o700);
  homes.push(dir);
  return dir;
}
const gpg = (home: string, ...args: string[]) =>
  run('gpg', ['--homedir', home, '--batch', '--no-tty', ...args], { env: { ...process.env, GNUPGHOME: home } });

/** Runs git in `cwd` as `who` (author and committer), with extra environment. */
const gitAs = (cwd: string, who: { name: string; email: string }, env: Record<string, string>, ...args: string[]) => run('git', args, {
  cwd, env: {
    ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir(), ...env,
    GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email,
  },
});

beforeAll(async () => {
  s = await startTestServer({
    HEARTH__REPOSITORY__SIGNING__SIGNING_KEY: 'default',
    HEARTH__REPOSITORY__SIGNING__MERGES: 'always',
    HEARTH__REPOSITORY__SIGNING__CRUD_ACTIONS: 'always',
  });
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  work = await cloneWork(s, 'alice', 'proj', alice);
}, 60_000);
afterAll(async () => {
  await s.stop();
  for (const home of homes) {
    await run('gpgconf', ['--homedir', home, '--kill', 'gpg-agent']).catch(() => undefined);
    fs.rmSync(home, { recursive: true, force: true });
  }
});

describe('signing keys', () => {
  it('GET /signing-key.gpg serves the instance key, generated on first use, also per repository', async () => {
    const res = await s.request('api/v1/signing-key.gpg');
    const key = await ok(res);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(key).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----/);
    expect(await ok(await api('repos/alice/proj/signing-key.gpg'))).toBe(key);
    // The key lives under the data directory, which `hearth dump` carries.
    expect(fs.existsSync(path.join(s.dataDir, 'home', '.gnupg'))).toBe(true);
  });

  it('GET /signing-key.pub is 404 when the key is an OpenPGP one, as Gitea', async () => {
    expect((await s.request('api/v1/signing-key.pub')).status).toBe(404);
    expect((await api('repos/alice/proj/signing-key.pub')).status).toBe(404);
  });

  it('the per-repository key needs read access to the repository (404 otherwise)', async () => {
    await createRepo(s, alice, 'secret', { private: true });
    expect((await s.request('api/v1/repos/alice/secret/signing-key.gpg')).status).toBe(404);
  });
});

/** `git verify-commit` of `sha` in a clone, trusting only the instance key. */
async function verifyWithInstanceKey(sha: string): Promise<void> {
  const home = gnupgHome();
  const key = path.join(home, 'instance.asc');
  fs.writeFileSync(key, await ok(await s.request('api/v1/signing-key.gpg')));
  await gpg(home, '--import', key);
  await git(work.dir, 'fetch', '-q', 'origin');
  await gitAs(work.dir, { name: 'x', email: 'x@example.com' }, { GNUPGHOME: home }, 'verify-commit', sha);
}

describe('signed commits', () => {
  it('with merges = always the merge commit of a pull request verifies with the instance key', async () => {
    await work.branch('feature', { 'a.txt': 'a\n' });
    const pr = await ok(await api('repos/alice/proj/pulls', 'POST', { head: 'feature', base: 'main', title: 'Add a' }), 201);
    await ok(await api(`repos/alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }));
    const merged = await ok(await api(`repos/alice/proj/pulls/${pr.number}`));
    await verifyWithInstanceKey(merged.merge_commit_sha);
    const commit = await ok(await api(`repos/alice/proj/git/commits/${merged.merge_commit_sha}`));
    expectShape(commit, 'Commit');
    expect(commit.commit.verification).toMatchObject({ verified: true, signer: { name: 'Hearth' } });
    expect(commit.commit.verification.reason).toMatch(/^Hearth \/ [0-9A-F]{16}$/);
    expect(commit.commit.verification.signature).toMatch(/^-----BEGIN PGP SIGNATURE-----/);
    expect(commit.commit.verification.payload).toContain(`tree ${commit.commit.tree.sha}`);
    // The doer stays the committer (Gitea's default trust model).
    expect(commit.commit.committer.email).toBe('alice@example.com');
  });

  it('a squash merge is signed too', async () => {
    await work.branch('squashed', { 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const pr = await ok(await api('repos/alice/proj/pulls', 'POST', { head: 'squashed', base: 'main', title: 'Add b, c' }), 201);
    await ok(await api(`repos/alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'squash' }));
    const merged = await ok(await api(`repos/alice/proj/pulls/${pr.number}`));
    await verifyWithInstanceKey(merged.merge_commit_sha);
  });

  it('a rebase merge signs every replayed commit', async () => {
    await work.branch('rebased', { 'r1.txt': '1\n', 'r2.txt': '2\n' });
    await ok(await api('repos/alice/proj/contents/moved.txt', 'POST', { content: Buffer.from('m\n').toString('base64') }), 201);
    const pr = await ok(await api('repos/alice/proj/pulls', 'POST', { head: 'rebased', base: 'main', title: 'Rebase me' }), 201);
    await ok(await api(`repos/alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'rebase' }));
    const commits = await ok(await api('repos/alice/proj/commits?sha=main&limit=2&files=false&stat=false'));
    expect(commits.map((c: { commit: { message: string } }) => c.commit.message.trim())).toEqual(['change r2.txt', 'change r1.txt']);
    for (const c of commits) {
      expect(c.commit.verification.verified).toBe(true);
      await verifyWithInstanceKey(c.sha);
    }
  });

  it('updating a pull request branch by merge signs the merge commit (merge rules, as Gitea)', async () => {
    await work.branch('behind', { 'behind.txt': 'x\n' });
    await ok(await api('repos/alice/proj/contents/ahead.txt', 'POST', { content: Buffer.from('y\n').toString('base64') }), 201);
    const pr = await ok(await api('repos/alice/proj/pulls', 'POST', { head: 'behind', base: 'main', title: 'Behind' }), 201);
    await ok(await api(`repos/alice/proj/pulls/${pr.number}/update`, 'POST'));
    const [tip] = await ok(await api('repos/alice/proj/commits?sha=behind&limit=1&files=false&stat=false'));
    expect(tip.parents).toHaveLength(2);
    expect(tip.commit.verification.verified).toBe(true);
  });

  it('with crud_actions = always an API file commit is signed and verified', async () => {
    const res = await ok(await api('repos/alice/proj/contents/api.txt', 'POST', { content: Buffer.from('hi\n').toString('base64'), branch: 'main' }), 201);
    await verifyWithInstanceKey(res.commit.sha);
    const commits = await ok(await api('repos/alice/proj/commits?sha=main&limit=3'));
    expect(commits[0].sha).toBe(res.commit.sha);
    expect(commits[0].commit.verification.verified).toBe(true);
    // An annotated tag's verification is its commit's, as Gitea's GET git/tags/{sha} answers it.
    const tag = await ok(await api('repos/alice/proj/tags', 'POST', { tag_name: 'v-signed', target: res.commit.sha, message: 'signed commit' }), 201);
    const annotated = await ok(await api(`repos/alice/proj/git/tags/${tag.id}`));
    expectShape(annotated, 'AnnotatedTag');
    expect(annotated.object.sha).toBe(res.commit.sha);
    expect(annotated.verification).toMatchObject({ verified: true, signer: { name: 'Hearth' } });
  });

  it('an unsigned commit pushed over git is unverified with reason gpg.error.not_signed_commit', async () => {
    await git(work.dir, 'checkout', '-q', '-B', 'main', 'origin/main');
    const sha = await commitFile(work.dir, 'plain.txt', 'plain\n');
    await git(work.dir, 'push', '-q', 'origin', 'HEAD:main');
    const commit = await ok(await api(`repos/alice/proj/git/commits/${sha}`));
    expect(commit.commit.verification).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' });
  });
});

describe('commits signed by users', () => {
  it('a commit signed with the committer\'s own GPG key (added with POST /user/gpg_keys) verifies with the user as signer', async () => {
    const sam = await createUser(s, 'sam', { full_name: 'Sam Signer' });
    const home = gnupgHome();
    await gpg(home, '--passphrase', '', '--pinentry-mode', 'loopback', '--quick-gen-key', 'Sam Signer <sam@example.com>', 'ed25519', 'sign', 'never');
    const { stdout: armored } = await gpg(home, '--armor', '--export', 'sam@example.com');
    const added = await ok(await api('user/gpg_keys', 'POST', { armored_public_key: armored }, sam), 201);
    await createRepo(s, sam, 'own', { auto_init: true, default_branch: 'main' });
    const dir = path.join(tempDir(), 'own');
    await git(path.dirname(dir), 'clone', '-q', remoteUrl(s, 'sam', 'own', sam.username, sam.password), 'own');
    fs.writeFileSync(path.join(dir, 'signed.txt'), 'signed\n');
    const who = { name: 'Sam Signer', email: 'sam@example.com' };
    await gitAs(dir, who, {}, 'add', '-A');
    await gitAs(dir, who, { GNUPGHOME: home }, '-c', `user.signingkey=${added.key_id}`, 'commit', '-q', '-S', '-m', 'signed by sam');
    await gitAs(dir, who, {}, 'push', '-q', 'origin', 'HEAD:main');
    const sha = (await gitAs(dir, who, {}, 'rev-parse', 'HEAD')).stdout.trim();
    const commit = await ok(await api(`repos/sam/own/commits/${sha}`, 'GET', undefined, sam));
    expect(commit.commit.verification).toMatchObject({
      verified: true, signer: { name: 'Sam Signer', email: 'sam@example.com', username: 'sam' },
    });
    expect(commit.commit.verification.reason).toMatch(/^sam \/ [0-9A-F]{16}$/);
  });

  it('a commit signed with the committer\'s SSH key (added with POST /user/keys) verifies', async () => {
    const tess = await createUser(s, 'tess');
    const keyDir = tempDir('hearth-ssh-');
    const keyFile = path.join(keyDir, 'id_ed25519');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
    const added = await ok(await api('user/keys', 'POST', { title: 'laptop', key: fs.readFileSync(`${keyFile}.pub`, 'utf8') }, tess), 201);
    await createRepo(s, tess, 'own', { auto_init: true, default_branch: 'main' });
    const dir = path.join(tempDir(), 'own');
    await git(path.dirname(dir), 'clone', '-q', remoteUrl(s, 'tess', 'own', tess.username, tess.password), 'own');
    fs.writeFileSync(path.join(dir, 'signed.txt'), 'signed\n');
    const who = { name: 'Tess', email: 'tess@example.com' };
    await gitAs(dir, who, {}, 'add', '-A');
    await gitAs(dir, who, {}, '-c', 'gpg.format=ssh', '-c', `user.signingkey=${keyFile}`, 'commit', '-q', '-S', '-m', 'ssh signed');
    await gitAs(dir, who, {}, 'push', '-q', 'origin', 'HEAD:main');
    const list = await json(await api('repos/tess/own/commits?limit=1', 'GET', undefined, tess));
    expect(list[0].commit.verification).toMatchObject({ verified: true, reason: `tess / ${added.fingerprint}`, signer: { username: 'tess' } });
    expect(list[0].commit.verification.signature).toMatch(/^-----BEGIN SSH SIGNATURE-----/);
  });
});

describe('hearth dump', () => {
  // dump writes SQLite's one file; on PostgreSQL it refuses, pointing at pg_dump (README).
  sqliteOnly('carries the instance signing key home', async () => {
    const out = path.join(tempDir('hearth-sdump-'), 'd.tar');
    await dumpInstance(s.hearth.config, out, { repos: true }, fs.createWriteStream('/dev/null') as unknown as NodeJS.WriteStream);
    const { stdout } = await run('tar', ['tf', out]);
    expect(stdout.split('\n').filter((n) => n.startsWith('home/.gnupg/private-keys-v1.d/'))).not.toHaveLength(0);
  });
});

describe('other signing settings', () => {
  it('signing_key = none (the default): both key endpoints answer 404 and merges stay unsigned', async () => {
    const off = await startTestServer();
    try {
      expect((await off.request('api/v1/signing-key.gpg')).status).toBe(404);
      expect((await off.request('api/v1/signing-key.pub')).status).toBe(404);
      const bob = await createUser(off, 'bob');
      await createRepo(off, bob, 'p', { auto_init: true });
      const [c] = await json(await off.request('api/v1/repos/bob/p/commits?limit=1', { auth: as(bob) }));
      expect(c.commit.verification.reason).toBe('gpg.error.not_signed_commit');
    } finally {
      await off.stop();
    }
  });

  it('signing_format = ssh: an ed25519 instance key is generated, served at /signing-key.pub, and signs initial commits', async () => {
    const sshOn = await startTestServer({ HEARTH__REPOSITORY__SIGNING__SIGNING_KEY: 'default', HEARTH__REPOSITORY__SIGNING__SIGNING_FORMAT: 'ssh' });
    try {
      const pub = await ok(await sshOn.request('api/v1/signing-key.pub'));
      expect(pub).toMatch(/^ssh-ed25519 /);
      expect((await sshOn.request('api/v1/signing-key.gpg')).status).toBe(404);
      const bob = await createUser(sshOn, 'bob');
      await createRepo(sshOn, bob, 'p', { auto_init: true });
      const [c] = await json(await sshOn.request('api/v1/repos/bob/p/commits?limit=1', { auth: as(bob) }));
      expect(c.commit.verification).toMatchObject({ verified: true, signer: { name: 'Hearth' } });
      expect(c.commit.verification.signature).toMatch(/^-----BEGIN SSH SIGNATURE-----/);
      // ssh-keygen agrees, given the instance key as the allowed signer.
      const dir = tempDir('hearth-sshv-');
      fs.writeFileSync(path.join(dir, 'allowed'), `${c.commit.verification.signer.email} ${pub.trim()}\n`);
      fs.writeFileSync(path.join(dir, 'sig'), c.commit.verification.signature);
      const check = run('ssh-keygen', ['-Y', 'verify', '-f', path.join(dir, 'allowed'), '-I', c.commit.verification.signer.email, '-n', 'git', '-s', path.join(dir, 'sig')]);
      check.child.stdin!.end(c.commit.verification.payload);
      await check;
    } finally {
      await sshOn.stop();
    }
  });

  it('crud_actions = parentsigned signs an API commit only on top of a verified commit', async () => {
    const srv = await startTestServer({
      HEARTH__REPOSITORY__SIGNING__SIGNING_KEY: 'default', HEARTH__REPOSITORY__SIGNING__SIGNING_FORMAT: 'ssh',
      HEARTH__REPOSITORY__SIGNING__CRUD_ACTIONS: 'parentsigned',
    });
    try {
      const bob = await createUser(srv, 'bob');
      await createRepo(srv, bob, 'p', { auto_init: true, default_branch: 'main' });
      const put = async (name: string) => (await ok(await srv.request(`api/v1/repos/bob/p/contents/${name}`, {
        method: 'POST', auth: as(bob), json: { content: 'eA==' },
      }), 201)).commit.sha as string;
      const state = async (sha: string) => (await json(await srv.request(`api/v1/repos/bob/p/git/commits/${sha}`, { auth: as(bob) }))).commit.verification;
      // The initial commit (initial_commit = always) is signed, so the first API commit is too.
      expect((await state(await put('one.txt'))).verified).toBe(true);
      const dir = path.join(tempDir(), 'p');
      await git(path.dirname(dir), 'clone', '-q', remoteUrl(srv, 'bob', 'p', bob.username, bob.password), 'p');
      await commitFile(dir, 'pushed.txt', 'unsigned\n');
      await git(dir, 'push', '-q', 'origin', 'HEAD:main');
      expect((await state(await put('two.txt'))).reason).toBe('gpg.error.not_signed_commit');
    } finally {
      await srv.stop();
    }
  });

  it('initial_commit = pubkey signs only for users with a GPG key; twofa never signs (hearth has no 2FA)', async () => {
    const rules = await startTestServer({
      HEARTH__REPOSITORY__SIGNING__SIGNING_KEY: 'default', HEARTH__REPOSITORY__SIGNING__SIGNING_FORMAT: 'ssh',
      HEARTH__REPOSITORY__SIGNING__INITIAL_COMMIT: 'pubkey', HEARTH__REPOSITORY__SIGNING__CRUD_ACTIONS: 'twofa',
    });
    try {
      const bob = await createUser(rules, 'bob');
      await createRepo(rules, bob, 'p', { auto_init: true });
      const first = await json(await rules.request('api/v1/repos/bob/p/commits?limit=1', { auth: as(bob) }));
      expect(first[0].commit.verification.reason).toBe('gpg.error.not_signed_commit');
      const file = await ok(await rules.request('api/v1/repos/bob/p/contents/x.txt', { method: 'POST', auth: as(bob), json: { content: 'eA==' } }), 201);
      const c = await json(await rules.request(`api/v1/repos/bob/p/git/commits/${file.commit.sha}`, { auth: as(bob) }));
      expect(c.commit.verification.reason).toBe('gpg.error.not_signed_commit');
    } finally {
      await rules.stop();
    }
  });
});
