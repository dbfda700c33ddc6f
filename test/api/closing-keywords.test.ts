import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git } from '../helpers/git';
import { as, cloneWork, commitFile, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Closing keywords in commits pushed to the default branch and in merged pull requests close
// (or reopen) issues, as Gitea, with the close event naming the commit.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let work: Work;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) => s.request(`api/v1/repos/${p}`, { method, auth: as(who), json: body });
const issue = async (repo: string, title: string) => (await ok(await api(`${repo}/issues`, 'POST', { title }), 201)).number as number;
const state = async (repo: string, n: number) => (await ok(await api(`${repo}/issues/${n}`))).state as string;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await createRepo(s, alice, 'other', { auto_init: true });
  await createRepo(s, bob, 'bobs', { auto_init: true });
  work = await cloneWork(s, 'alice', 'proj', alice);
});
afterAll(async () => { await s.stop(); });

describe('closing keywords', () => {
  it('a commit pushed to the default branch closes the issues it fixes, naming the commit; other branches do not', async () => {
    const one = await issue('alice/proj', 'Crash');
    const two = await issue('alice/proj', 'Typo');
    await git(work.dir, 'checkout', '-q', '-b', 'side');
    await commitFile(work.dir, 'side.txt', 'x\n');
    await git(work.dir, 'commit', '-q', '--amend', '-m', `Side work, closes #${two}`);
    const sideSha = (await git(work.dir, 'rev-parse', 'HEAD')).trim();
    await git(work.dir, 'push', '-q', 'origin', 'side');
    await git(work.dir, 'checkout', '-q', 'main');
    await commitFile(work.dir, 'fix.txt', 'fix\n');
    await git(work.dir, 'commit', '-q', '--amend', '-m', `Fix the crash\n\nFixes #${one}`);
    const sha = (await git(work.dir, 'rev-parse', 'HEAD')).trim();
    await git(work.dir, 'push', '-q', 'origin', 'main');
    expect(await state('alice/proj', one)).toBe('closed');
    expect(await state('alice/proj', two)).toBe('open');
    // Both commits reference their issues (any branch), once each, linking to the commit.
    const refs = async (n: number) => (await ok(await api(`alice/proj/issues/${n}/timeline`))).filter((e: { type: string }) => e.type === 'commit_ref');
    const [sideRef] = await refs(two);
    expect(sideRef).toMatchObject({ ref_commit_sha: sideSha, user: { login: 'alice' } });
    expect(sideRef.body).toBe(`<a href="${s.hearth.config.server.root_url}alice/proj/commit/${sideSha}">Side work, closes #${two}</a>`);
    expect((await refs(one)).map((e: { ref_commit_sha: string }) => e.ref_commit_sha)).toEqual([sha]);
    const timeline = await ok(await api(`alice/proj/issues/${one}/timeline`));
    const closed = timeline.find((e: { type: string }) => e.type === 'close');
    expect(closed).toMatchObject({ user: { login: 'alice' } });
    expect(closed.ref_commit_sha).toBe(sha);
    // Reopen keywords reopen.
    await commitFile(work.dir, 'again.txt', 'again\n');
    await git(work.dir, 'commit', '-q', '--amend', '-m', `Not fixed after all, reopens #${one}`);
    await git(work.dir, 'push', '-q', 'origin', 'main');
    expect(await state('alice/proj', one)).toBe('open');
  });

  it('closes issues of another repository the pusher may write, never those of one they may not', async () => {
    const theirs = await issue('alice/other', 'Elsewhere');
    const bobs = (await ok(await api('bob/bobs/issues', 'POST', { title: 'Not yours' }, bob), 201)).number as number;
    await commitFile(work.dir, 'cross.txt', 'x\n');
    await git(work.dir, 'commit', '-q', '--amend', '-m', `Cross fix: resolves alice/other#${theirs}, fixes bob/bobs#${bobs}`);
    await git(work.dir, 'push', '-q', 'origin', 'main');
    expect(await state('alice/other', theirs)).toBe('closed');
    expect(await state('bob/bobs', bobs)).toBe('open');
  });

  it('a pull request merged into the default branch closes the issues its body resolves, and the close names it', async () => {
    const n = await issue('alice/proj', 'Feature wanted');
    const mentioned = await issue('alice/proj', 'Only mentioned');
    await work.branch('feature', { 'feature.txt': 'f\n' });
    const pr = await ok(await api('alice/proj/pulls', 'POST', { head: 'feature', base: 'main', title: 'Add the feature', body: `Resolves #${n}, see #${mentioned}` }), 201);
    expect(await state('alice/proj', n)).toBe('open');
    // The pull request's reference says what its merge will do (Gitea's ref_action).
    const refOf = async (i: number) => (await ok(await api(`alice/proj/issues/${i}/timeline`))).find((e: { type: string }) => e.type === 'pull_ref');
    expect(await refOf(n)).toMatchObject({ ref_action: 'closes', ref_issue: { number: pr.number } });
    expect(await refOf(mentioned)).toMatchObject({ ref_action: 'none' });
    await ok(await api(`alice/proj/pulls/${pr.number}/merge`, 'POST', { Do: 'squash' }));
    await eventually(async () => (await state('alice/proj', n)) === 'closed');
    const sha = (await ok(await api(`alice/proj/pulls/${pr.number}`))).merge_commit_sha as string;
    const closed = (await ok(await api(`alice/proj/issues/${n}/timeline`))).find((e: { type: string }) => e.type === 'close');
    expect(closed.ref_commit_sha).toBe(sha);
    expect(closed.ref_issue).toMatchObject({ number: pr.number, title: 'Add the feature' });
    expect(await state('alice/proj', mentioned)).toBe('open');
  });
});
