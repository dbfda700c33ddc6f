import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createRepo, git } from '../helpers/git';
import { expectNullableShape } from '../helpers/issue-shape';
import { addTeam, createOrg } from '../helpers/orgs';
import { as, cloneWork, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// Lookups around pull requests: pinned pulls, the pull a merge commit came from, reviewers.

let s: TestServer;
let alice: Creds;
let work: Work;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/repos/${p}`, { method, auth: as(who), json: body });
const logins = (users: { login: string }[]) => users.map((u) => u.login);

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  work = await cloneWork(s, 'alice', 'proj', alice);
});
afterAll(async () => { await s.stop(); });

describe('pull lookups', () => {
  it('lists pinned pull requests as PullRequest JSON, not pinned issues', async () => {
    await work.branch('pin-me', { 'pin.txt': 'p\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'pin-me', base: 'main', title: 'Pin me' }), 201);
    const issue = await ok(await api('alice/proj/issues', 'POST', { title: 'an issue' }), 201);
    await ok(await api(`alice/proj/issues/${pr.number}/pin`, 'POST'), 204);
    await ok(await api(`alice/proj/issues/${issue.number}/pin`, 'POST'), 204);
    const pinned = await ok(await api('alice/proj/pulls/pinned'));
    expectNullableShape(pinned, '[PullRequest]');
    expect(pinned.map((p: { number: number }) => p.number)).toEqual([pr.number]);
    expect(pinned[0].head.ref).toBe('pin-me');
  });

  it('finds the pull request a merge commit came from (404 for other commits)', async () => {
    const head = await work.branch('to-merge', { 'merge.txt': 'm\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'to-merge', base: 'main', title: 'To merge' }), 201);
    await ok(await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'merge' }), 200);
    const merged = await ok(await api(`alice/proj/pulls/${pr.number}`));
    const found = await ok(await api(`alice/proj/commits/${merged.merge_commit_sha}/pull`));
    expectNullableShape(found, 'PullRequest');
    expect(found).toMatchObject({ number: pr.number, merged: true });
    expect((await api(`alice/proj/commits/${head}/pull`)).status).toBe(404);
    expect((await api('alice/proj/commits/0000000000000000000000000000000000000000/pull')).status).toBe(404);
  });

  it('lists reviewers: readers, the individual owner, and for a public repository its watchers', async () => {
    const carol = await createUser(s, 'carol');
    const first = await ok(await api('alice/proj/reviewers'));
    expectShape(first, '[User]');
    expect(logins(first)).toEqual(['alice']);
    await ok(await api('alice/proj/collaborators/bob', 'PUT', { permission: 'read' }), 204);
    await ok(await api('alice/proj/subscription', 'PUT', undefined, carol), 200);
    expect(logins(await ok(await api('alice/proj/reviewers')))).toEqual(['alice', 'bob', 'carol']);
    await ok(await api('alice/proj', 'PATCH', { private: true }), 200);
    expect(logins(await ok(await api('alice/proj/reviewers')))).toEqual(['alice', 'bob']);
    // Private now: anonymous callers are 404 too, as Gitea resolves the repository before the sign-in.
    expect((await s.request('api/v1/repos/alice/proj/reviewers')).status).toBe(404);
    expect((await api('alice/proj/reviewers', 'GET', undefined, carol)).status).toBe(404);
  });

  it('lists the members of teams that read pull requests in an organization repository', async () => {
    const org = await createOrg(s, alice, 'acme');
    await ok(await s.request('api/v1/orgs/acme/repos', { method: 'POST', auth: as(alice), json: { name: 'tool', private: true } }), 201);
    await createUser(s, 'dave');
    const daveId = (await ok(await s.request('api/v1/users/dave'))).id;
    const bobId = (await ok(await s.request('api/v1/users/bob'))).id;
    await addTeam(s, org.id, 'readers', { mode: 1, allRepos: true, uids: [daveId] });
    await addTeam(s, org.id, 'elsewhere', { mode: 1, allRepos: false, uids: [bobId] });
    const list = logins(await ok(await api('acme/tool/reviewers')));
    expect(list).toContain('dave');
    expect(list).toContain('alice');
    expect(list).not.toContain('bob');
  });
});

describe('pull files', () => {
  it('detects renames (previous_filename), starts at skip-to, and ignores whitespace when asked', async () => {
    await git(work.dir, 'fetch', '-q', 'origin');
    await git(work.dir, 'checkout', '-q', '-B', 'files', 'origin/main');
    fs.writeFileSync(path.join(work.dir, 'big.txt'), Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n');
    fs.writeFileSync(path.join(work.dir, 'spaces.txt'), 'a b\n');
    await git(work.dir, 'add', '-A');
    await git(work.dir, 'commit', '-q', '-m', 'base files');
    await git(work.dir, 'push', '-q', 'origin', 'HEAD:main');
    await git(work.dir, 'mv', 'big.txt', 'moved.txt');
    fs.writeFileSync(path.join(work.dir, 'spaces.txt'), 'a  b\n');
    fs.writeFileSync(path.join(work.dir, 'z.txt'), 'z\n');
    await git(work.dir, 'add', '-A');
    await git(work.dir, 'commit', '-q', '-m', 'rename and respace');
    await git(work.dir, 'push', '-q', 'origin', 'HEAD:refs/heads/files');
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'files', base: 'main', title: 'Files' }), 201);
    const files = await ok(await api(`alice/proj/pulls/${pr.number}/files`));
    expectNullableShape(files, '[ChangedFile]');
    const summary = files.map((f: { filename: string; previous_filename: string; status: string; changes: number }) => [f.filename, f.previous_filename, f.status, f.changes]);
    expect(summary).toEqual([['moved.txt', 'big.txt', 'renamed', 0], ['spaces.txt', '', 'changed', 2], ['z.txt', '', 'added', 1]]);
    const skipped = await api(`alice/proj/pulls/${pr.number}/files?skip-to=spaces.txt`);
    expect((await ok(skipped)).map((f: { filename: string }) => f.filename)).toEqual(['spaces.txt', 'z.txt']);
    expect(skipped.headers.get('x-total-count')).toBe('2');
    const ignoring = await ok(await api(`alice/proj/pulls/${pr.number}/files?whitespace=ignore-all`));
    expect(ignoring.find((f: { filename: string }) => f.filename === 'spaces.txt').changes).toBe(0);
    expect((await api(`alice/proj/pulls/${pr.number}/files?whitespace=bogus`)).status).toBe(422);
  });
});
