import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_topic_test.go. Gitea's six fixture topics are set
// here on two public repositories of user2; TestAPIRepoTopic gives the private repo2 its own two.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Topic = { id: number; topic_name: string; repo_count: number };

const setTopics = async (full: string, topics: string[], by = 'user2') =>
  g.call(`repos/${full}/topics`, { method: 'PUT', auth: await g.basic(by), json: { topics } }, 204);

const searchWorld = () => once(g, 'topics', async () => {
  await repo(g, 'user2', 'topics-a');
  await repo(g, 'user2', 'topics-b');
  await setTopics('user2/topics-a', ['topicname1', 'topicname2', 'golang']);
  await setTopics('user2/topics-b', ['database', 'sql', 'graphql']);
});

async function search(query: string): Promise<{ topics: Topic[]; total: string | null }> {
  const res = await g.api(`topics/search?${query}`);
  expect(res.status).toBe(200);
  return { topics: ((await res.json()) as { topics: Topic[] }).topics, total: res.headers.get('X-Total-Count') };
}

it('TestAPITopicSearch', async () => {
  await searchWorld();
  let r = await search('');
  expect([r.topics.length, r.total]).toEqual([6, '6']);
  r = await search('page=1&limit=4');
  expect([r.topics.length, r.total]).toEqual([4, '6']);
  r = await search('page=2&limit=4');
  expect([r.topics.length, r.total]).toEqual([2, '6']);
  expect((await search('page=1&limit=4&q=topic')).topics).toHaveLength(2);
  const db = (await search('page=1&limit=4&q=database')).topics;
  expect(db).toHaveLength(1);
  expect(db[0]).toMatchObject({ topic_name: 'database', repo_count: 1 });
});

it('TestAPIRepoTopic', async () => {
  await g.repo2();
  await g.org3();
  await setTopics('user2/repo2', ['topicname1', 'topicname2']);
  const token2 = await g.tokenAuth('user2', 'write:repository');
  const url = 'repos/user2/repo2/topics';
  const read = async (auth = token2, full = 'user2/repo2') => ((await g.call(`repos/${full}/topics`, { auth })) as { topics: string[] }).topics.sort();
  const one = (method: string, name: string, status: number, auth = token2, full = 'user2/repo2') =>
    g.call(`repos/${full}/topics/${name}`, { method, auth }, status);
  const replace = (topics: string[], status: number) => g.call(url, { method: 'PUT', auth: token2, json: { topics } }, status);

  expect(await read()).toEqual(['topicname1', 'topicname2']);
  // Names are matched and kept in lower case.
  await one('DELETE', 'Topicname1', 204);
  await one('PUT', 'Golang', 204);
  await one('PUT', 'topicName3', 204);
  expect(await read()).toEqual(['golang', 'topicname2', 'topicname3']);

  // A replacement is trimmed and lower-cased; blanks are dropped.
  await replace(['   windows ', '   ', 'MAC  '], 204);
  expect(await read()).toEqual(['mac', 'windows']);
  // An invalid name refuses the whole list.
  await replace(['topicname1', 'topicname2', 'topicname!'], 422);
  expect(await read()).toEqual(['mac', 'windows']);

  // Repeats count once: 25 unique topics fit; a 26th does not.
  const many = ['t1', 't2', 't1', 't3', 't4', 't5', 't6', 't7', 't8', 't9', 't10', 't11', 't12', 't13', 't14', 't15', 't16', '17', 't18', 't19', 't20', 't21', 't22', 't23', 't24', 't25'];
  await replace(many, 204);
  expect(await read()).toHaveLength(25);
  await replace([...many, 't26'], 422);
  await one('PUT', 't26', 422);
  // A topic the repository does not have.
  await one('DELETE', 'Topicname1', 404);

  // user4 writes to org3/repo3 (team1): it reads the topics, but adding one needs admin access.
  const token4 = await g.tokenAuth('user4', 'write:repository');
  expect(await read(token4, 'org3/repo3')).toEqual([]);
  await one('PUT', 'topicName', 403, token4, 'org3/repo3');
});
