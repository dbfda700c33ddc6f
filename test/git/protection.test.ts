import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, gitTry, remoteUrl, tempDir } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // write collaborator

const call = (p: string, method = 'GET', body?: unknown) =>
  s.request(`api/v1/repos/alice/${p}`, { method, auth: as(alice), json: body });


/** A clone of alice/<repo> pushing as `who`. */
async function cloneAs(repo: string, who: Creds): Promise<string> {
  const dir = tempDir();
  await git(dir, 'clone', '-q', remoteUrl(s, 'alice', repo, who.username, who.password), 'c');
  return path.join(dir, 'c');
}

async function commitFile(dir: string, file: string, content: string): Promise<string> {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', `change ${file}`);
  return (await git(dir, 'rev-parse', 'HEAD')).trim();
}

/** Replaces the last commit: pushing it is a force push. */
async function rewrite(dir: string, file: string): Promise<void> {
  fs.writeFileSync(path.join(dir, file), `rewritten ${Math.random()}`);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '--amend', '-m', 'rewritten');
}

const headOnServer = async (repo: string, branch: string) =>
  (await ok(await call(`${repo}/branches/${branch}`))).commit.id as string;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true });
  await ok(await call('proj/collaborators/bob', 'PUT', { permission: 'write' }), 204);
  await ok(await call('proj/branches', 'POST', { new_branch_name: 'release/1' }), 201);
  await ok(await call('proj/branches', 'POST', { new_branch_name: 'free' }), 201);
  await ok(await call('proj/branch_protections', 'POST', { rule_name: 'main', enable_push: true }), 201);
  await ok(await call('proj/branch_protections', 'POST', { rule_name: 'release/*', enable_push: false }), 201);
});
afterAll(async () => { await s.stop(); });

describe('protected branches on push', () => {
  it('accepts a fast-forward push to a protected branch that allows pushing', async () => {
    const dir = await cloneAs('proj', alice);
    const sha = await commitFile(dir, 'a.txt', 'one');
    await git(dir, 'push', '-q', 'origin', 'main');
    expect(await headOnServer('proj', 'main')).toBe(sha);
  });

  it('refuses a force push with the reason in git\'s stderr, and keeps the branch', async () => {
    const dir = await cloneAs('proj', alice);
    const before = await headOnServer('proj', 'main');
    await rewrite(dir, 'a.txt');
    const r = await gitTry(dir, 'push', '--force', 'origin', 'main');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('remote: branch main is protected from force push');
    expect(r.stderr).toMatch(/pre-receive hook declined/);
    expect(await headOnServer('proj', 'main')).toBe(before);
  });

  it('refuses deleting a protected branch by push', async () => {
    const dir = await cloneAs('proj', alice);
    const r = await gitTry(dir, 'push', 'origin', '--delete', 'release/1');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('remote: branch release/1 is protected from deletion');
    expect((await call('proj/branches/release/1')).status).toBe(200);
  });

  it('refuses any push to a branch whose rule disables pushing (glob rule)', async () => {
    const dir = await cloneAs('proj', alice);
    await git(dir, 'checkout', '-q', 'release/1');
    await commitFile(dir, 'r.txt', 'x');
    const r = await gitTry(dir, 'push', 'origin', 'release/1');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('remote: Not allowed to push to protected branch release/1');
    // Creating a new branch matching the glob is refused too.
    const c = await gitTry(dir, 'push', 'origin', 'HEAD:refs/heads/release/2');
    expect(c.stderr).toContain('Not allowed to push to protected branch release/2');
    expect((await call('proj/branches/release/2')).status).toBe(404);
  });

  it('accepts a force push and a deletion on an unprotected branch', async () => {
    const dir = await cloneAs('proj', bob);
    await git(dir, 'checkout', '-q', 'free');
    await commitFile(dir, 'f.txt', '1');
    await git(dir, 'push', '-q', 'origin', 'free');
    await rewrite(dir, 'f.txt');
    await git(dir, 'push', '-q', '--force', 'origin', 'free');
    expect(await headOnServer('proj', 'free')).toBe((await git(dir, 'rev-parse', 'HEAD')).trim());
    await git(dir, 'push', '-q', 'origin', 'HEAD:refs/heads/scratch');
    await git(dir, 'push', '-q', 'origin', '--delete', 'scratch');
    expect((await call('proj/branches/scratch')).status).toBe(404);
  });
});

describe('push whitelists', () => {
  it('lets only whitelisted users push', async () => {
    await ok(await call('proj/branch_protections/main', 'PATCH', {
      enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['bob'],
    }));
    const a = await cloneAs('proj', alice);
    await commitFile(a, 'w.txt', 'alice');
    const denied = await gitTry(a, 'push', 'origin', 'main');
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('Not allowed to push to protected branch main');

    const b = await cloneAs('proj', bob);
    const sha = await commitFile(b, 'w.txt', 'bob');
    await git(b, 'push', '-q', 'origin', 'main');
    expect(await headOnServer('proj', 'main')).toBe(sha);
  });

  it('allows force pushes only to the force-push allowlist', async () => {
    await ok(await call('proj/branch_protections/main', 'PATCH', {
      enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: ['bob'],
      push_whitelist_usernames: ['alice', 'bob'],
    }));
    const a = await cloneAs('proj', alice);
    await rewrite(a, 'w.txt');
    expect((await gitTry(a, 'push', '--force', 'origin', 'main')).stderr).toContain('protected from force push');
    const b = await cloneAs('proj', bob);
    await rewrite(b, 'w.txt');
    await git(b, 'push', '-q', '--force', 'origin', 'main');
    expect(await headOnServer('proj', 'main')).toBe((await git(b, 'rev-parse', 'HEAD')).trim());
  });
});

describe('protected and unprotected file patterns', () => {
  it('refuses changes to protected files, and allows unprotected-only changes without push rights', async () => {
    await ok(await call('proj/branch_protections', 'POST', {
      rule_name: 'files', enable_push: true, protected_file_patterns: '*.lock;config/**',
    }), 201);
    await ok(await call('proj/branches', 'POST', { new_branch_name: 'files' }), 201);
    const dir = await cloneAs('proj', alice);
    await git(dir, 'checkout', '-q', 'files');
    await commitFile(dir, 'yarn.lock', 'x');
    const r = await gitTry(dir, 'push', 'origin', 'files');
    expect(r.stderr).toContain('remote: branch files is protected from changing file yarn.lock');

    await ok(await call('proj/branch_protections/files', 'PATCH', {
      enable_push: false, protected_file_patterns: '', unprotected_file_patterns: 'docs/**;*.md',
    }));
    await git(dir, 'reset', '-q', '--hard', 'origin/files');
    const sha = await commitFile(dir, 'docs/guide/intro.txt', 'docs');
    await git(dir, 'push', '-q', 'origin', 'files');
    expect(await headOnServer('proj', 'files')).toBe(sha);
    await commitFile(dir, 'src/code.ts', 'code');
    expect((await gitTry(dir, 'push', 'origin', 'files')).stderr).toContain('Not allowed to push to protected branch files');
  });
});

describe('protected tags on push', () => {
  it('lets only whitelisted users create, move or delete a matching tag', async () => {
    await ok(await call('proj/tag_protections', 'POST', { name_pattern: 'v*', whitelist_usernames: ['alice'] }), 201);
    const b = await cloneAs('proj', bob);
    await git(b, 'tag', 'v1.0');
    const denied = await gitTry(b, 'push', 'origin', 'v1.0');
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('remote: Tag v1.0 is protected');
    await git(b, 'tag', 'nightly');
    await git(b, 'push', '-q', 'origin', 'nightly');

    const a = await cloneAs('proj', alice);
    await git(a, 'tag', 'v1.0');
    await git(a, 'push', '-q', 'origin', 'v1.0');
    expect((await call('proj/tags/v1.0')).status).toBe(200);
    expect((await gitTry(b, 'push', 'origin', '--delete', 'v1.0')).stderr).toContain('Tag v1.0 is protected');
    await git(a, 'push', '-q', 'origin', '--delete', 'v1.0');
    expect((await call('proj/tags/v1.0')).status).toBe(404);
  });
});
