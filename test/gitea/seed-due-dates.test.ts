import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// The seed's rule for due dates: an issue's, at creation, and a pull request's, on update, are
// taken by their date only (23:59:59 that day); a new pull request keeps the instant given, as
// Gitea's CreatePullRequest does.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

describe('due dates', () => {
  it('an issue created with a due date keeps its date only', async () => {
    const issue = await g.call('repos/user2/repo1/issues', { method: 'POST', auth: await g.basic('user2'), json: { title: 'due', due_date: '2030-05-06T13:45:00Z' } }, 201);
    expect(issue.due_date).toBe('2030-05-06T23:59:59Z');
  });

  it('a pull request keeps the instant at creation and its date only on update', async () => {
    await g.pushBranches(await g.user('user2'), 'repo1', { 'due-pull': { 'due.txt': 'due\n' } });
    const auth = await g.basic('user2');
    const pr = await g.call('repos/user2/repo1/pulls', { method: 'POST', auth, json: { head: 'due-pull', base: 'master', title: 'due', due_date: '2030-05-06T13:45:00Z' } }, 201);
    expect(pr.due_date).toBe('2030-05-06T13:45:00Z');
    const edited = await g.call(`repos/user2/repo1/pulls/${pr.number}`, { method: 'PATCH', auth, json: { due_date: '2030-06-07T08:00:00Z' } }, 201);
    expect(edited.due_date).toBe('2030-06-07T23:59:59Z');
  });
});
