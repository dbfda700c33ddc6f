import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Request bodies bound as Gitea binds them: JSON field names ignoring case, as Go's decoder
// reads them, and form bodies (urlencoded) typed by the option's fields.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.call('user/repos', { method: 'POST', auth: await g.basic('user2'), json: { name: 'bind' } }, 201);
});
afterAll(async () => { await g.stop(); });

const form = (fields: [string, string][]) => ({
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(),
});

describe('request bodies', () => {
  it('reads a form-encoded body: text, numbers, booleans and repeated keys', async () => {
    const auth = await g.basic('user2');
    const label = await g.call('repos/user2/bind/labels', { method: 'POST', auth, json: { name: 'bug', color: '#ff0000' } }, 201);
    const issue = await g.call('repos/user2/bind/issues', {
      method: 'POST', auth, ...form([['title', 'from a form'], ['body', 'text'], ['labels', String(label.id)], ['closed', 'true']]),
    }, 201);
    expect(issue).toMatchObject({ title: 'from a form', body: 'text', state: 'closed', labels: [{ name: 'bug' }] });
    const comment = await g.call(`repos/user2/bind/issues/${issue.number}/comments`, { method: 'POST', auth, ...form([['body', 'Comment body']]) }, 201);
    expect(comment.body).toBe('Comment body');
    // Text where a number belongs is refused as Gitea's binding refuses it.
    expect((await g.api('repos/user2/bind/issues', { method: 'POST', auth, ...form([['title', 'x'], ['milestone', 'abc']]) })).status).toBe(422);
  });

  it('matches JSON field names ignoring case; an exact name wins', async () => {
    const auth = await g.basic('user2');
    const issue = await g.call('repos/user2/bind/issues', { method: 'POST', auth, json: { Title: 'Cased', BODY: 'upper' } }, 201);
    expect(issue).toMatchObject({ title: 'Cased', body: 'upper' });
    const both = await g.call('repos/user2/bind/issues', { method: 'POST', auth, json: { TITLE: 'loses', title: 'wins' } }, 201);
    expect(both.title).toBe('wins');
    // Nested options too (a repository's internal tracker).
    const repo = await g.call('repos/user2/bind', { method: 'PATCH', auth, json: { Has_Issues: true, Internal_Tracker: { Enable_Issue_Dependencies: false } } });
    expect(repo.internal_tracker).toMatchObject({ enable_time_tracker: true, enable_issue_dependencies: false });
  });
});
