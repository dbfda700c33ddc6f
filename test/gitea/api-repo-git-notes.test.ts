import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { git, remoteUrl, tempDir } from '../helpers/git';

// Port of Gitea's tests/integration/api_repo_git_notes_test.go: a clone of the kit's repo1
// adds the note Gitea's fixture carries on a commit and pushes refs/notes/commits.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

/** The status of a GET of `pathname` sent as written (fetch would fold a `..` segment away). */
function rawStatus(pathname: string, token: string): Promise<number> {
  const url = new URL(g.s.hearth.config.server.root_url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: pathname, headers: { Authorization: `token ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('api_repo_git_notes_test', () => {
  it('TestAPIReposGitNotes', async () => {
    const r = await g.repo1();
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(g.s, 'user2', 'repo1', r.owner.username, r.owner.password), '.');
    const commit = (await git(dir, 'rev-parse', 'master')).trim();
    await git(dir, 'notes', 'add', '-m', 'This is a test note', commit);
    await git(dir, 'push', '-q', 'origin', 'refs/notes/commits');

    const token = await g.token('user2');
    const auth = { token };
    expect((await g.api('repos/user2/repo1/git/notes/12345', { auth })).status).toBe(404);
    expect(await rawStatus('/api/v1/repos/user2/repo1/git/notes/..', token)).toBe(422);
    const note = await g.call(`repos/user2/repo1/git/notes/${commit}`, { auth });
    expect(note.message).toBe('This is a test note\n');
    // As Gitea's GetNote, the commit given is the notes history's last commit for that note.
    expect(note.commit.sha).toBe((await git(dir, 'rev-parse', 'refs/notes/commits')).trim());
  });
});
