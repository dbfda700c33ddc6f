import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_nodeinfo_test.go. Gitea's test turns federation and
// sign-up on; hearth serves federation by default, and sign-up is opened here as Gitea's test
// environment has it.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea({ HEARTH__SERVICE__DISABLE_REGISTRATION: 'false' }); });
afterAll(async () => { await g.stop(); });

it('TestNodeinfo', async () => {
  await g.repo1();
  const users = await g.call('admin/users?limit=50', { auth: await g.basic('user1') });
  const info = await g.call('nodeinfo');
  expect(info).toMatchObject({ version: '2.1', protocols: ['activitypub'], services: { inbound: [], outbound: ['rss2.0'] } });
  expect(info.openRegistrations).toBe(true);
  expect(info.software.name).toBe('gitea');
  expect(info.usage.users.total).toBe(users.length);
  // repo1 holds issues #1 and #4 and pulls #2 and #3; the two comments on #1 are the only
  // comments proper (closing #4 and the label events are not counted, as in Gitea).
  expect(info.usage.localPosts).toBe(4);
  expect(info.usage.localComments).toBe(2);
});

it('TestNodeinfo/RegistrationClosed', async () => {
  const closed = await startGitea();
  try {
    expect((await closed.call('nodeinfo')).openRegistrations).toBe(false);
  } finally {
    await closed.stop();
  }
});
