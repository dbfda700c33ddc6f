import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { userEmails } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_user_email_test.go. Gitea's fixture gives user2 a
// second, unverified address user2-2@example.com; hearth sends no confirmation mail, so an
// address added through the API counts as verified (as Gitea's with RegisterEmailConfirm off,
// its default): the second row reads verified here.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const row = (email: string, primary = false) => ({ email, verified: true, primary, user_id: 0, username: '' });

it('TestAPIListEmails', async () => {
  await userEmails(g, 'user2', ['user2-2@example.com']);
  const list = await g.call('user/emails', { auth: await g.tokenAuth('user2', 'read:user') });
  expect(list).toEqual([row('user2@example.com', true), row('user2-2@example.com')]);
});

it('TestAPIAddEmail', async () => {
  await userEmails(g, 'user2', ['user2-2@example.com']);
  await g.user('user101');
  const auth = await g.tokenAuth('user2', 'write:user');
  const add = (emails: string[], status: number) => g.call('user/emails', { method: 'POST', auth, json: { emails } }, status);

  // Another user's address.
  expect((await add(['user101@example.com'], 422)).message).toBe('Email address has been used: user101@example.com');
  expect(await add(['user2-3@example.com'], 201)).toEqual([row('user2@example.com', true), row('user2-2@example.com'), row('user2-3@example.com')]);
  await add(['notAEmail'], 422);
});

it('TestAPIDeleteEmail', async () => {
  await userEmails(g, 'user2', ['user2-2@example.com']);
  const auth = await g.tokenAuth('user2', 'write:user');
  const del = (emails: string[], status: number) => g.call('user/emails', { method: 'DELETE', auth, json: { emails } }, status);

  await del(['user2-3@example.com'], 404);
  await del(['user2-2@example.com'], 204);
  expect(await g.call('user/emails', { auth })).toEqual([row('user2@example.com', true)]);
});
