import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codebaseApi } from '../helpers/fake-codebase';
import { startFakeForge, type FakeForge } from '../helpers/fake-forge';
import { tempDir } from '../helpers/git';
import { ALL_CAPS, expectDoctorClean, expectNothingLeft, expectStory, storedFiles } from '../helpers/migrate-expect';
import { buildStory, type Story } from '../helpers/migrate-story';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';

// POST /repos/migrate with service codebase against a fake Codebase (its XML API) on loopback;
// git is served by git http-backend at /<project>/<repository>.git.

const CREDS = { username: 'acme/migrator', password: 'codebase-api-key' };

let dst: TestServer;
let alice: { username: string; password: string; id: number };
let reposDir: string;
let story: Story;

const startCodebase = (): Promise<FakeForge> => startFakeForge({ reposDir, api: codebaseApi(story, CREDS), gitAuth: CREDS });

const migrate = (fake: FakeForge, name: string) => dst.request('api/v1/repos/migrate', {
  method: 'POST', auth: as(alice),
  json: {
    clone_addr: `${fake.base}proj-project/proj.git`, repo_name: name, service: 'codebase', auth_username: CREDS.username, auth_password: CREDS.password,
    issues: true, labels: true, milestones: true, pull_requests: true, releases: true,
  },
});

beforeAll(async () => {
  dst = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__RETRY_BACKOFF: '0.05' });
  alice = await createUser(dst, 'alice');
  reposDir = tempDir('hearth-fake-codebase-');
  // Codebase keeps no pull refs: the merged head is in main's history, the closed one's branch stays.
  story = await buildStory(reposDir, (n) => (n === 63 ? 'refs/heads/old' : `refs/keep/${n}`), 'proj-project', 'proj');
}, 60_000);

afterAll(async () => {
  await dst?.stop();
  fs.rmSync(reposDir, { recursive: true, force: true });
});

describe('POST /repos/migrate with service codebase', () => {
  it('brings ticket types as labels, milestones, tickets (three pages) with notes, and merge requests with comments', async () => {
    const fake = await startCodebase();
    try {
      await ok(await migrate(fake, 'proj'), 201);
      await expectStory(dst, alice, 'proj', story, {
        ...ALL_CAPS, labels: false, issueReactions: false, commentReactions: false, pullReactions: false, reviews: false, releases: false,
        topics: false, closedDates: false, mergeCommits: false,
      });
      const labels = await ok(await dst.request('api/v1/repos/alice/proj/labels', { auth: as(alice) }));
      expect(labels.map((l: { name: string }) => l.name).sort()).toEqual(['bug', 'docs', 'feature', 'task']);
      expect(fake.requests.filter((r) => r.url.pathname.endsWith('/tickets')).map((r) => r.url.searchParams.get('page'))).toEqual(['1', '2', '3', '4']);
      await expectDoctorClean(dst);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('leaves nothing behind when the source dies halfway', async () => {
    const fake = await startCodebase();
    const before = storedFiles(dst);
    try {
      fake.dieWhen((r) => r.url.pathname.endsWith('/tickets') && r.url.searchParams.get('page') === '2');
      const res = await migrate(fake, 'dies');
      expect(res.status).toBe(422);
      expect((await json(res)).message).toMatch(/^Migration failed/);
      await expectNothingLeft(dst, alice, 'dies', before);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
