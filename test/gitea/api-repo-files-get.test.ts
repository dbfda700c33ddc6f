import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import fs from 'node:fs';
import path from 'node:path';
import { lastCommitOf, once, repo } from '../helpers/gitea-extra';
import { git, remoteUrl, tempDir } from '../helpers/git';

// Port of Gitea's tests/integration/api_repo_files_get_test.go: POST (or GET with ?body=)
// /repos/{owner}/{repo}/file-contents over the kit's repo1, with a tag v1.1 and a branch
// DefaultBranch that adds a LICENSE beside README.md. The expected record is read from git
// (Gitea's is its fixture's). Gitea changes its [api] limits midway; a second server here has
// DEFAULT_PAGING_NUM = 2 and DEFAULT_MAX_BLOB_SIZE = 200 from the start.

let g: GiteaFixtures;
let small: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  small = await startGitea({ HEARTH__API__DEFAULT_PAGING_NUM: '2', HEARTH__API__DEFAULT_MAX_BLOB_SIZE: '200' });
});
afterAll(async () => { await g.stop(); await small.stop(); });

const license = `MIT License\n\nCopyright (c) 2024 Gitea\n\n${'Permission is hereby granted, free of charge, to any person obtaining a copy. '.repeat(12)}\n`;

/** repo1 with tag v1.1 and the DefaultBranch branch, on server `s`. */
const world = (s: GiteaFixtures) => once(s, 'files-get', async () => {
  const r = await s.repo1();
  await s.call('repos/user2/repo1/tags', { method: 'POST', auth: await s.basic('user2'), json: { tag_name: 'v1.1', target: 'master' } }, 201);
  // With git: the contents API of the small server refuses a file over its blob limit.
  const dir = tempDir();
  await git(dir, 'clone', '-q', remoteUrl(s.s, 'user2', 'repo1', r.owner.username, r.owner.password), '.');
  await git(dir, 'checkout', '-q', '-b', 'DefaultBranch');
  fs.writeFileSync(path.join(dir, 'LICENSE'), license);
  await git(dir, 'add', 'LICENSE');
  await git(dir, 'commit', '-q', '-m', 'add LICENSE');
  await git(dir, 'push', '-q', 'origin', 'DefaultBranch');
  return { last: await lastCommitOf(s, 'user2/repo1', 'README.md'), master: (await s.call('repos/user2/repo1/branches/master')).commit.id as string };
});

type Content = { name: string; content?: string | null } | null;

async function expected(ref: string, refType: string, commitSha: string) {
  const root = g.s.hearth.config.server.root_url;
  const text = await (await g.api('repos/user2/repo1/raw/README.md?ref=master')).text();
  const blob = (await g.call('repos/user2/repo1/git/trees/master')).tree.find((e: { path: string }) => e.path === 'README.md') as { sha: string; size: number };
  const self = `${root}api/v1/repos/user2/repo1/contents/README.md?ref=${ref}`;
  const html = `${root}user2/repo1/src/${refType}/${ref}/README.md`;
  const gitUrl = `${root}api/v1/repos/user2/repo1/git/blobs/${blob.sha}`;
  return [{
    name: 'README.md', path: 'README.md', sha: blob.sha, last_commit_sha: commitSha, type: 'file', size: blob.size,
    encoding: 'base64', content: Buffer.from(text).toString('base64'), url: self, html_url: html, git_url: gitUrl,
    download_url: `${root}user2/repo1/raw/${refType}/${ref}/README.md`, _links: { self, git: gitUrl, html },
  }];
}

const requestFiles = async (s: GiteaFixtures, query: string, files: string[], status = 200): Promise<Content[]> =>
  s.call(`repos/user2/repo1/file-contents${query}`, { method: 'POST', json: { files } }, status);

describe('TestAPIGetRequestedFiles', () => {
  it('TestAPIGetRequestedFiles/User2Get', async () => {
    const w = await world(g);
    const body = encodeURIComponent(JSON.stringify({ files: ['README.md'] }));
    expect(await g.call(`repos/user2/repo1/file-contents?body=${body}`)).toMatchObject(await expected('master', 'branch', w.last));
  });

  it('TestAPIGetRequestedFiles/User2NoRef', async () => {
    const w = await world(g);
    expect(await requestFiles(g, '', ['README.md'])).toMatchObject(await expected('master', 'branch', w.last));
  });

  it('TestAPIGetRequestedFiles/User2RefBranch', async () => {
    const w = await world(g);
    expect(await requestFiles(g, '?ref=master', ['README.md'])).toMatchObject(await expected('master', 'branch', w.last));
  });

  it('TestAPIGetRequestedFiles/User2RefTag', async () => {
    const w = await world(g);
    expect(await requestFiles(g, '?ref=v1.1', ['README.md'])).toMatchObject(await expected('v1.1', 'tag', w.last));
  });

  it('TestAPIGetRequestedFiles/User2RefCommit', async () => {
    const w = await world(g);
    expect(await requestFiles(g, `?ref=${w.master}`, ['README.md'])).toMatchObject(await expected(w.master, 'commit', w.last));
  });

  it('TestAPIGetRequestedFiles/User2RefNotExist', async () => {
    await world(g);
    await requestFiles(g, '?ref=not-exist', ['README.md'], 404);
  });

  it('TestAPIGetRequestedFiles/PermissionCheck', async () => {
    await world(g);
    await g.org3();
    await repo(g, 'user2', 'repo16', { private: true });
    const files = { files: ['README.md'] };
    const [token2, token4] = [await g.tokenAuth('user2', 'write:repository'), await g.tokenAuth('user4', 'write:repository')];
    expect((await g.api('repos/user2/repo16/file-contents', { method: 'POST', auth: token4, json: files })).status).toBe(404);
    expect((await g.api('repos/user2/repo16/file-contents', { method: 'POST', auth: token2, json: files })).status).toBe(200);
    expect((await g.api('repos/org3/repo3/file-contents', { method: 'POST', auth: token2, json: files })).status).toBe(200);
  });

  it('TestAPIGetRequestedFiles/ResponseList', async () => {
    await world(g);
    const names = (list: Content[]) => list.map((c) => (c ? { name: c.name, content: !!c.content } : null));
    const asked = ['no-such.txt', 'LICENSE', 'README.md'];
    // A missing file is a null entry; both others carry their content.
    expect(names(await requestFiles(g, '?ref=DefaultBranch', asked))).toEqual([null, { name: 'LICENSE', content: true }, { name: 'README.md', content: true }]);
    // At most DEFAULT_PAGING_NUM entries; a file over DEFAULT_MAX_BLOB_SIZE comes without content.
    await world(small);
    expect(names(await requestFiles(small, '?ref=DefaultBranch', asked))).toEqual([null, { name: 'LICENSE', content: false }]);
  });
});
