import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, tempDir } from '../helpers/git';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { createUser, json, ok, startSshTestServer, type TestServer } from '../helpers/server';
import { addDeployKey, addUserKey, gitSshCommand, makeKey, runCmd, ssh, sshGit, sshUrl, type SshKey } from '../helpers/ssh';
import { eventually } from '../helpers/wait';

// Git over the built-in SSH server with the real OpenSSH client and git.

type User = { username: string; password: string; id: number };
let s: TestServer;
let port: number;
let alice: User;
let bob: User;
let aliceKey: SshKey;
let bobKey: SshKey;
let receiver: Receiver;
const auth = (u: User) => ({ basic: [u.username, u.password] as [string, string] });

beforeAll(async () => {
  s = await startSshTestServer({
    HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback', HEARTH__METRICS__ENABLED: 'true', HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true',
  });
  port = s.sshPort!;
  receiver = await startReceiver();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  aliceKey = makeKey('ed25519', 'alice@laptop');
  bobKey = makeKey('ecdsa', 'bob@desk');
  await addUserKey(s, alice, aliceKey, 'alice laptop');
  await addUserKey(s, bob, bobKey, 'bob desk');
}, 60_000);
afterAll(async () => {
  await receiver.close();
  await s.stop();
});

/** A fresh repository of alice's with one commit. */
async function repoOf(owner: User, name: string, extra: Record<string, unknown> = {}) {
  await createRepo(s, owner, name, { auto_init: true, ...extra });
}

/** Clones over SSH into a new directory, commits a file and returns the work tree. */
async function cloneAndCommit(key: SshKey, owner: string, repo: string, file = 'new.txt', protocol: 0 | 2 = 2): Promise<string> {
  const dir = tempDir();
  const c = await sshGit(port, key, dir, ['clone', '-q', sshUrl(port, owner, repo), 'w'], { protocol });
  expect(c.code, c.stderr).toBe(0);
  const wt = path.join(dir, 'w');
  fs.writeFileSync(path.join(wt, file), `${file}\n`);
  expect((await runCmd('git', ['add', file], { cwd: wt })).code).toBe(0);
  expect((await runCmd('git', ['commit', '-q', '-m', `add ${file}`], { cwd: wt })).code).toBe(0);
  return wt;
}

const headOf = async (wt: string) => (await runCmd('git', ['rev-parse', 'HEAD'], { cwd: wt })).stdout.trim();

describe('git over SSH with a user key', () => {
  it('clones, shallow-clones, fetches and pushes over protocol v2 and v0', async () => {
    await repoOf(alice, 'code');
    for (const protocol of [2, 0] as const) {
      const wt = await cloneAndCommit(aliceKey, 'alice', 'code', `v${protocol}.txt`, protocol);
      expect(fs.readFileSync(path.join(wt, 'README.md'), 'utf8')).toContain('# code');
      const push = await sshGit(port, aliceKey, wt, ['push', '-q', 'origin', 'main'], { protocol });
      expect(push.code, push.stderr).toBe(0);
      const branch = await json(await s.request('api/v1/repos/alice/code/branches/main', { auth: auth(alice) }));
      expect(branch.commit.id).toBe(await headOf(wt));
      const fetched = await sshGit(port, aliceKey, wt, ['fetch', '-q', 'origin'], { protocol });
      expect(fetched.code, fetched.stderr).toBe(0);
    }
    const shallow = tempDir();
    const c = await sshGit(port, aliceKey, shallow, ['clone', '-q', '--depth', '1', sshUrl(port, 'alice', 'code'), 's']);
    expect(c.code, c.stderr).toBe(0);
    expect((await runCmd('git', ['rev-list', '--count', 'HEAD'], { cwd: path.join(shallow, 's') })).stdout.trim()).toBe('1');
    expect(fs.existsSync(path.join(shallow, 's', 'v0.txt'))).toBe(true);
  });

  it('takes the path with or without a leading slash and .git, and scp-like URLs', async () => {
    await repoOf(alice, 'paths');
    for (const cmd of ["git-upload-pack '/alice/paths.git'", "git-upload-pack 'alice/paths'", 'git upload-pack alice/paths.git']) {
      const r = await ssh(port, aliceKey, [cmd], [], 'git');
      // upload-pack advertises and waits; ssh's stdin is closed, so it ends after the advertisement.
      expect(r.stdout, `${cmd}: ${r.stderr}`).toMatch(/refs\/heads\/main/);
    }
    const dir = tempDir();
    const c = await sshGit(port, aliceKey, dir, ['ls-remote', `git@127.0.0.1:alice/paths.git`], {
      env: { GIT_SSH_COMMAND: `ssh -p ${port} -i ${aliceKey.file} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR` },
    });
    expect(c.stdout).toMatch(/refs\/heads\/main/);
  });

  it('greets a signed-in key by its user and title, with exit 0 and no shell', async () => {
    const r = await ssh(port, aliceKey);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Hi there, alice! You've successfully authenticated with the key named alice laptop, but Hearth does not provide shell access.");
    const tty = await ssh(port, bobKey, [], ['-tt']);
    expect(tty.code).toBe(0);
    expect(tty.stdout + tty.stderr).toContain('Hi there, bob!');
  });

  it('signs in with a key an admin added for a user', async () => {
    const carol = await createUser(s, 'carol');
    const key = makeKey('ed25519', 'carol');
    await ok(await s.request(`api/v1/admin/users/${carol.username}/keys`, {
      method: 'POST', auth: { basic: [s.admin.username, s.admin.password] }, json: { title: 'given by admin', key: key.pub },
    }), 201);
    const r = await ssh(port, key);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Hi there, carol! You\'ve successfully authenticated with the key named given by admin');
  });

  it('answers a missing repository and a private one of someone else alike', async () => {
    await repoOf(bob, 'secret', { private: true });
    const dir = tempDir();
    const hidden = await sshGit(port, aliceKey, dir, ['clone', sshUrl(port, 'bob', 'secret'), 'a']);
    const missing = await sshGit(port, aliceKey, dir, ['clone', sshUrl(port, 'bob', 'nothing'), 'b']);
    expect(hidden.code).not.toBe(0);
    expect(missing.code).toBe(hidden.code);
    expect(hidden.stderr).toContain('Hearth: Cannot find repository: bob/secret');
    expect(missing.stderr.replace('nothing', 'secret')).toBe(hidden.stderr.replace(/'a'/g, "'b'"));
    // Bob, its owner, clones it.
    const own = await sshGit(port, bobKey, dir, ['clone', '-q', sshUrl(port, 'bob', 'secret'), 'c']);
    expect(own.code, own.stderr).toBe(0);
  });

  it('refuses a push without write access, to a mirror, to an archived repository and to a protected branch, saying why', async () => {
    await repoOf(alice, 'guarded');
    const readOnly = await cloneAndCommit(bobKey, 'alice', 'guarded');
    const denied = await sshGit(port, bobKey, readOnly, ['push', 'origin', 'main']);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('Hearth: User permission denied');

    await ok(await s.request('api/v1/repos/alice/guarded/branch_protections', {
      method: 'POST', auth: auth(alice), json: { rule_name: 'main', enable_push: false },
    }), 201);
    const wt = await cloneAndCommit(aliceKey, 'alice', 'guarded', 'p.txt');
    const protectedPush = await sshGit(port, aliceKey, wt, ['push', 'origin', 'main']);
    expect(protectedPush.code).not.toBe(0);
    expect(protectedPush.stderr).toContain('Not allowed to push to protected branch main');
    const other = await sshGit(port, aliceKey, wt, ['push', '-q', 'origin', 'HEAD:refs/heads/topic']);
    expect(other.code, other.stderr).toBe(0);

    const mirrored = await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: auth(alice), json: { clone_addr: `${s.hearth.config.server.root_url}alice/guarded.git`, repo_name: 'guarded-mirror', mirror: true },
    });
    expect(mirrored.status, await mirrored.clone().text()).toBe(201);
    const toMirror = await sshGit(port, aliceKey, wt, ['push', sshUrl(port, 'alice', 'guarded-mirror'), 'HEAD:refs/heads/x']);
    expect(toMirror.code).not.toBe(0);
    expect(toMirror.stderr).toContain('Hearth: mirror repository is read-only');

    await ok(await s.request('api/v1/repos/alice/guarded', { method: 'PATCH', auth: auth(alice), json: { archived: true } }));
    const archived = await sshGit(port, aliceKey, wt, ['push', 'origin', 'HEAD:refs/heads/late']);
    expect(archived.code).not.toBe(0);
    expect(archived.stderr).toContain('Hearth: repo is archived');
  });

  it('fires the push webhook and moves the branch in the API', async () => {
    await repoOf(alice, 'hooked');
    await ok(await s.request('api/v1/repos/alice/hooked/hooks', {
      method: 'POST', auth: auth(alice),
      json: { type: 'gitea', config: { url: receiver.url, content_type: 'json' }, events: ['push'], active: true },
    }), 201);
    const wt = await cloneAndCommit(aliceKey, 'alice', 'hooked');
    const push = await sshGit(port, aliceKey, wt, ['push', '-q', 'origin', 'main']);
    expect(push.code, push.stderr).toBe(0);
    const head = await headOf(wt);
    const branch = await json(await s.request('api/v1/repos/alice/hooked/branches/main', { auth: auth(alice) }));
    expect(branch.commit.id).toBe(head);
    await eventually(async () => receiver.of('push').some((r) => JSON.parse(r.body).after === head), 15_000, 'push webhook');
    const payload = JSON.parse(receiver.of('push').find((r) => JSON.parse(r.body).after === head)!.body);
    expect(payload.pusher.login).toBe('alice');
    expect(payload.repository.ssh_url).toBe(sshUrl(port, 'alice', 'hooked'));
  });

  it('serves git archive --remote and the wiki', async () => {
    await repoOf(alice, 'docs');
    const dir = tempDir();
    const tar = path.join(dir, 'out.tar');
    const a = await runCmd('sh', ['-c', `git archive --remote=${sshUrl(port, 'alice', 'docs')} --format=tar main > ${tar}`], {
      env: { GIT_SSH_COMMAND: `ssh -p ${port} -i ${aliceKey.file} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR` },
    });
    expect(a.code, a.stderr).toBe(0);
    expect((await runCmd('tar', ['tf', tar])).stdout).toContain('README.md');

    await ok(await s.request('api/v1/repos/alice/docs/wiki/new', {
      method: 'POST', auth: auth(alice), json: { title: 'Home', content_base64: Buffer.from('# Welcome').toString('base64') },
    }), 201);
    const w = await sshGit(port, aliceKey, dir, ['clone', '-q', sshUrl(port, 'alice', 'docs.wiki'), 'wiki']);
    expect(w.code, w.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'wiki', 'Home.md'), 'utf8')).toBe('# Welcome');
  });

  it('hands out an LFS token for the repository, as Gitea (git-lfs-authenticate)', async () => {
    await repoOf(alice, 'big');
    await repoOf(alice, 'other');
    const r = await ssh(port, aliceKey, ['git-lfs-authenticate', 'alice/big.git', 'download']);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { href: string; header: { Authorization: string } };
    expect(answer.href).toBe(`${s.hearth.config.server.root_url}alice/big.git/info/lfs`);
    expect(answer.header.Authorization).toMatch(/^Bearer /);
    const batch = (repo: string, operation: string) => fetch(`${s.hearth.config.server.root_url}alice/${repo}.git/info/lfs/objects/batch`, {
      method: 'POST',
      headers: { ...answer.header, Accept: 'application/vnd.git-lfs+json', 'Content-Type': 'application/vnd.git-lfs+json' },
      body: JSON.stringify({ operation, objects: [{ oid: 'a'.repeat(64), size: 1 }] }),
    });
    expect((await batch('big', 'download')).status).toBe(200);
    expect((await batch('big', 'upload')).status).toBe(403);
    expect((await batch('other', 'download')).status).toBe(404);
    const up = await ssh(port, bobKey, ['git-lfs-authenticate', 'alice/big.git', 'upload']);
    expect(up.code).toBe(1);
    expect(up.stderr).toContain('Hearth: User permission denied');
  });
});

describe('LFS over SSH', () => {
  it('git lfs pushes and fetches objects through git-lfs-authenticate', async () => {
    await repoOf(alice, 'media');
    const wt = await cloneAndCommit(aliceKey, 'alice', 'media');
    const lfsEnv = { GIT_SSH_COMMAND: gitSshCommand(port, aliceKey), GIT_SSH_VARIANT: 'ssh' };
    expect((await runCmd('git', ['lfs', 'install', '--local'], { cwd: wt })).code).toBe(0);
    expect((await runCmd('git', ['lfs', 'track', '*.bin'], { cwd: wt })).code).toBe(0);
    const content = Buffer.alloc(4096, 7);
    fs.writeFileSync(path.join(wt, 'asset.bin'), content);
    await runCmd('git', ['add', '.gitattributes', 'asset.bin'], { cwd: wt });
    await runCmd('git', ['commit', '-q', '-m', 'asset'], { cwd: wt });
    const push = await runCmd('git', ['push', '-q', 'origin', 'main'], { cwd: wt, env: lfsEnv });
    expect(push.code, push.stderr).toBe(0);
    const oid = crypto.createHash('sha256').update(content).digest('hex');
    const stored = await s.request(`alice/media.git/info/lfs/objects/${oid}`, { auth: auth(alice) });
    expect(stored.status).toBe(200);
    expect(Buffer.from(await stored.arrayBuffer()).equals(content)).toBe(true);
    const dir = tempDir();
    const lfsFilter = ['-c', 'filter.lfs.process=git-lfs filter-process', '-c', 'filter.lfs.required=true'];
    const again = await runCmd('git', [...lfsFilter, 'clone', '-q', sshUrl(port, 'alice', 'media'), 'again'], { cwd: dir, env: lfsEnv });
    expect(again.code, again.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'again', 'asset.bin')).equals(content)).toBe(true);
  });
});

describe('deploy keys over SSH', () => {
  it('a read-only key clones but cannot push; a writable one pushes; neither opens another repository', async () => {
    await repoOf(alice, 'site');
    await repoOf(alice, 'elsewhere', { private: true });
    const ro = makeKey('ed25519', 'ci-ro');
    const rw = makeKey('ed25519', 'ci-rw');
    await addDeployKey(s, alice, 'alice', 'site', ro, true, 'ci read');
    await addDeployKey(s, alice, 'alice', 'site', rw, false, 'ci write');

    const greeting = await ssh(port, ro);
    expect(greeting.stderr).toContain("Hi there! You've successfully authenticated with the deploy key named ci read");

    const wt = await cloneAndCommit(ro, 'alice', 'site');
    const refused = await sshGit(port, ro, wt, ['push', 'origin', 'main']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Hearth: the deploy key is read-only');

    const pushed = await sshGit(port, rw, wt, ['push', '-q', 'origin', 'main']);
    expect(pushed.code, pushed.stderr).toBe(0);
    const branch = await json(await s.request('api/v1/repos/alice/site/branches/main', { auth: auth(alice) }));
    expect(branch.commit.id).toBe(await headOf(wt));

    const dir = tempDir();
    const other = await sshGit(port, rw, dir, ['clone', sshUrl(port, 'alice', 'elsewhere'), 'x']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('Hearth: Cannot find repository: alice/elsewhere');
  });
});

describe('deploy keys and protected branches', () => {
  it('a writable deploy key passes a push allowlist only when the rule lets deploy keys push', async () => {
    await repoOf(alice, 'released');
    const rw = makeKey('ed25519', 'release-bot');
    await addDeployKey(s, alice, 'alice', 'released', rw, false, 'release bot');
    await ok(await s.request('api/v1/repos/alice/released/branch_protections', {
      method: 'POST', auth: auth(alice),
      json: { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['alice'], push_whitelist_deploy_keys: false },
    }), 201);
    const wt = await cloneAndCommit(rw, 'alice', 'released');
    const refused = await sshGit(port, rw, wt, ['push', 'origin', 'main']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Not allowed to push to protected branch main');
    await ok(await s.request('api/v1/repos/alice/released/branch_protections/main', {
      method: 'PATCH', auth: auth(alice), json: { enable_push: true, enable_push_whitelist: true, push_whitelist_deploy_keys: true },
    }));
    const allowed = await sshGit(port, rw, wt, ['push', '-q', 'origin', 'main']);
    expect(allowed.code, allowed.stderr).toBe(0);
  });
});

describe('refusals and the URLs', () => {
  it('hides the internal endpoint of hearth serv and keys from callers without its token', async () => {
    expect((await s.request('api/internal/ssh/authorized-key?content=x')).status).toBe(404);
    const bearer = await s.request('api/internal/ssh/serv/1', { method: 'POST', headers: { Authorization: 'Bearer 0123' } });
    expect(bearer.status).toBe(404);
    const asAdmin = await s.request('api/internal/ssh/authorized-key?content=x', { auth: { basic: [s.admin.username, s.admin.password] } });
    expect(asAdmin.status).toBe(404);
  });

  it('refuses an unknown key and another user name', async () => {
    const stranger = makeKey();
    const r = await ssh(port, stranger);
    expect(r.code).toBe(255);
    expect(r.stderr).toContain('Permission denied (publickey)');
    const wrongUser = await ssh(port, aliceKey, [], [], 'root');
    expect(wrongUser.code).toBe(255);
  });

  it('puts the SSH URL of the configured port in the repository JSON', async () => {
    await repoOf(alice, 'urls');
    const repo = await json(await s.request('api/v1/repos/alice/urls', { auth: auth(alice) }));
    expect(repo.ssh_url).toBe(`ssh://git@127.0.0.1:${port}/alice/urls.git`);
    expect(repo.clone_url).toBe(`${s.hearth.config.server.root_url}alice/urls.git`);
  });

  it('counts SSH connections, commands and bytes in /metrics', async () => {
    await repoOf(alice, 'counted');
    const dir = tempDir();
    expect((await sshGit(port, aliceKey, dir, ['clone', '-q', sshUrl(port, 'alice', 'counted'), 'c'])).code).toBe(0);
    const text = await (await s.request('metrics')).text();
    expect(text).toMatch(/hearth_ssh_connections_total [1-9]/);
    expect(text).toMatch(/hearth_ssh_sessions_total\{command="upload-pack"\} [1-9]/);
    expect(text).toMatch(/hearth_ssh_bytes_total\{direction="out"\} [1-9]\d{2,}/);
  });
});
