import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, repo } from '../helpers/gitea-extra';
import { git, remoteUrl, workTree } from '../helpers/git';
import type { Auth } from '../helpers/server';

// Port of Gitea's tests/integration/api_repo_git_commits_test.go. repo16 (user2's, private) is
// pushed with the real git: three commits on master, each touching readme.md, and a branch
// good-sign of one root commit by User2 dated as Gitea's fixture ("good signed commit").

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Repo16 = { master: string[]; goodSign: string };

function repo16(): Promise<Repo16> {
  return once(g, 'repo16-history', async () => {
    const owner = await g.user('user2');
    await repo(g, 'user2', 'repo16', { private: true, auto_init: false });
    const dir = await workTree({ 'readme.md': 'one\n' }, 'master');
    for (const text of ['two\n', 'three\n']) {
      fs.writeFileSync(path.join(dir, 'readme.md'), text);
      await git(dir, 'commit', '-q', '-am', `readme: ${text.trim()}`);
    }
    const master = (await git(dir, 'rev-list', 'master')).trim().split('\n');
    await git(dir, 'checkout', '-q', '--orphan', 'good-sign');
    await git(dir, 'rm', '-q', '-rf', '--cached', '.');
    fs.writeFileSync(path.join(dir, 'readme.md'), 'good sign\n');
    await git(dir, 'add', 'readme.md');
    await git(dir, 'commit', '-q', '-m', 'good signed commit', '--author=User2 <user2@example.com>', '--date=2017-08-06T19:55:01+02:00');
    const goodSign = (await git(dir, 'rev-parse', 'HEAD')).trim();
    await git(dir, 'push', '-q', remoteUrl(g.s, 'user2', 'repo16', owner.username, owner.password), 'master', 'good-sign');
    return { master, goodSign };
  });
}

/** The status of a GET of `pathname` sent verbatim. */
function rawStatus(pathname: string, auth: Auth): Promise<number> {
  const url = new URL(g.s.hearth.config.server.root_url);
  const headers = auth && 'token' in auth ? { Authorization: `token ${auth.token}` } : {};
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: pathname, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

type Commit = { sha: string; files: { filename: string }[] };
const files = (c: Commit) => c.files.map((f) => f.filename);

describe('api_repo_git_commits_test', () => {
  it('TestAPIReposGitCommits', async () => {
    const r = await g.repo1();
    const auth = await g.tokenAuth('user2');
    await g.call('repos/user2/repo1/tags', { method: 'POST', auth, json: { tag_name: 'v1.1', target: 'master' } }, 201);
    expect((await g.api('repos/user2/repo1/git/commits/12345', { auth })).status).toBe(404);
    // fetch would fold the `..` segment away: Go's client sends it as written, so does node:http.
    expect(await rawStatus('/api/v1/repos/user2/repo1/git/commits/..', auth)).toBe(422);
    expect((await g.api('repos/user2/repo1/git/commits/branch-not-exist', { auth })).status).toBe(404);
    const full = (await g.call('repos/user2/repo1/branches/branch1', { auth })).commit.id as string;
    expect(full).toBe(r.heads.branch1);
    for (const ref of ['master', 'v1.1', full.slice(0, 4), full]) {
      expect((await g.api(`repos/user2/repo1/git/commits/${ref}`, { auth })).status, ref).toBe(200);
    }
  });

  it('TestAPIReposGitCommitList', async () => {
    const r = await repo16();
    const list = (await g.call('repos/user2/repo16/commits', { auth: await g.tokenAuth('user2') })) as Commit[];
    expect(list.map((c) => c.sha)).toEqual(r.master);
    for (const c of list) expect(files(c)).toEqual(['readme.md']);
  });

  it('TestAPIReposGitCommitListPage2Empty', async () => {
    await repo16();
    expect(await g.call('repos/user2/repo16/commits?page=2', { auth: await g.tokenAuth('user2') })).toEqual([]);
  });

  it('TestAPIReposGitCommitListDifferentBranch', async () => {
    const r = await repo16();
    const list = (await g.call('repos/user2/repo16/commits?sha=good-sign', { auth: await g.tokenAuth('user2') })) as Commit[];
    expect(list.map((c) => c.sha)).toEqual([r.goodSign]);
    expect(files(list[0]!)).toEqual(['readme.md']);
  });

  it('TestDownloadCommitDiffOrPatch', async () => {
    const r = await repo16();
    const auth = await g.tokenAuth('user2');
    const diff = await g.api(`repos/user2/repo16/git/commits/${r.goodSign}.diff`, { auth });
    expect(diff.status).toBe(200);
    expect(await diff.text()).toBe(`commit ${r.goodSign}\nAuthor: User2 <user2@example.com>\nDate:   Sun Aug 6 19:55:01 2017 +0200\n\n`
      + '    good signed commit\n\ndiff --git a/readme.md b/readme.md\nnew file mode 100644\nindex 0000000..458121c\n'
      + '--- /dev/null\n+++ b/readme.md\n@@ -0,0 +1 @@\n+good sign\n');
    const patch = await g.api(`repos/user2/repo16/git/commits/${r.goodSign}.patch`, { auth });
    expect(patch.status).toBe(200);
    expect(await patch.text()).toBe(`From ${r.goodSign} Mon Sep 17 00:00:00 2001\nFrom: User2 <user2@example.com>\n`
      + 'Date: Sun, 6 Aug 2017 19:55:01 +0200\nSubject: [PATCH] good signed commit\n\n---\n readme.md | 1 +\n'
      + ' 1 file changed, 1 insertion(+)\n create mode 100644 readme.md\n\ndiff --git a/readme.md b/readme.md\n'
      + 'new file mode 100644\nindex 0000000..458121c\n--- /dev/null\n+++ b/readme.md\n@@ -0,0 +1 @@\n+good sign\n');
  });

  it('TestGetFileHistory', async () => {
    const r = await repo16();
    const list = (await g.call('repos/user2/repo16/commits?path=readme.md&sha=good-sign', { auth: await g.tokenAuth('user2') })) as Commit[];
    expect(list.map((c) => c.sha)).toEqual([r.goodSign]);
    expect(files(list[0]!)).toEqual(['readme.md']);
  });
});

describe('api_repo_git_commits_test (later functions)', () => {
  it('TestAPIReposGitCommitListNotMaster', async () => {
    const r = await repo16();
    const res = await g.api('repos/user2/repo16/commits', { auth: await g.tokenAuth('user2', 'read:repository') });
    const list = (await res.json()) as Commit[];
    expect(list.map((c) => c.sha)).toEqual(r.master);
    for (const c of list) expect(files(c)).toEqual(['readme.md']);
    expect(res.headers.get('x-total')).toBe('3');
  });

  it('TestAPIReposGitCommitListWithoutSelectFields', async () => {
    const r = await repo16();
    const list = await g.call('repos/user2/repo16/commits?sha=good-sign&stat=false&files=false&verification=false', { auth: await g.tokenAuth('user2', 'read:repository') });
    expect(list).toHaveLength(1);
    expect(list[0].sha).toBe(r.goodSign);
    expect(list[0].stats ?? null).toBeNull();
    expect(list[0].commit.verification ?? null).toBeNull();
    expect(list[0].files ?? null).toBeNull();
  });

  it('TestGetFileHistoryNotOnMaster', async () => {
    // Gitea's repo20: a branch add-csv that adds test.csv on top of master.
    const user2 = await g.user('user2');
    await once(g, 'repo20', async () => {
      await repo(g, 'user2', 'repo20');
      return g.pushBranches(user2, 'repo20', { 'add-csv': { 'test.csv': 'a,b\n' } });
    });
    const heads = (await g.call('repos/user2/repo20/branches/add-csv')).commit.id as string;
    const res = await g.api('repos/user2/repo20/commits?path=test.csv&sha=add-csv&not=master', { auth: await g.tokenAuth('user2', 'read:repository') });
    const list = (await res.json()) as Commit[];
    expect(list.map((c) => c.sha)).toEqual([heads]);
    expect(files(list[0]!)).toEqual(['test.csv']);
    expect(res.headers.get('x-total')).toBe('1');
  });
});
