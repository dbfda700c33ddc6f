import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForge, type FakeForge } from '../helpers/fake-forge';
import { onedevApi } from '../helpers/fake-onedev';
import { tempDir } from '../helpers/git';
import { ALL_CAPS, expectDoctorClean, expectNothingLeft, expectStory, storedFiles } from '../helpers/migrate-expect';
import { buildStory, type Story } from '../helpers/migrate-story';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';

// POST /repos/migrate with service onedev against a fake OneDev on loopback; the clone address
// is the project's page (/projects/<name>), git is served at /<name> by git http-backend.

const CREDS = { username: 'migrator', password: 'onedev-access-token' };

let dst: TestServer;
let alice: { username: string; password: string; id: number };
let reposDir: string;
let story: Story;

async function startOnedev(): Promise<FakeForge> {
  return startFakeForge({
    reposDir, api: onedevApi(story, CREDS), gitAuth: CREDS, gitPath: /^\/proj(\.git)?(\/|$)/, lfs: new Map([[story.lfs.oid, story.lfs.bytes]]),
  });
}

const migrate = (fake: FakeForge, name: string) => dst.request('api/v1/repos/migrate', {
  method: 'POST', auth: as(alice),
  json: {
    clone_addr: `${fake.base}projects/proj`, repo_name: name, service: 'onedev', auth_username: CREDS.username, auth_password: CREDS.password,
    issues: true, labels: true, milestones: true, pull_requests: true, releases: true, lfs: true,
  },
});

beforeAll(async () => {
  dst = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__RETRY_BACKOFF: '0.05' });
  alice = await createUser(dst, 'alice');
  reposDir = tempDir('hearth-fake-onedev-');
  story = await buildStory(reposDir, (n) => `refs/pull/${n - 60}/head`, '.', 'proj');
}, 60_000);

afterAll(async () => {
  await dst?.stop();
  fs.rmSync(reposDir, { recursive: true, force: true });
});

describe('POST /repos/migrate with service onedev', () => {
  it('brings milestones, issues with their type as a label, comments, pull requests (numbered after the issues) and reviews', async () => {
    const fake = await startOnedev();
    try {
      const repo = await ok(await migrate(fake, 'proj'), 201);
      expect(repo.original_url).toBe(`${fake.base}projects/proj`);
      await expectStory(dst, alice, 'proj', story, {
        ...ALL_CAPS, labels: false, issueReactions: false, commentReactions: false, pullReactions: false, lineComments: false, releases: false, topics: false, closedDates: false,
      });
      const one = await ok(await dst.request('api/v1/repos/alice/proj/issues/1', { auth: as(alice) }));
      expect(one.labels.map((l: { name: string }) => l.name)).toEqual(['Bug']);
      const labels = await ok(await dst.request('api/v1/repos/alice/proj/labels', { auth: as(alice) }));
      expect(labels.length).toBe(6);
      const media = await dst.request(`api/v1/repos/alice/proj/media/${story.lfs.path}`, { auth: as(alice) });
      expect(Buffer.from(await media.arrayBuffer()).equals(story.lfs.bytes)).toBe(true);
      await expectDoctorClean(dst);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('leaves nothing behind when the source dies halfway', async () => {
    const fake = await startOnedev();
    const before = storedFiles(dst);
    try {
      fake.dieWhen((r) => r.url.pathname === '/api/pull-requests');
      const res = await migrate(fake, 'dies');
      expect(res.status).toBe(422);
      expect((await json(res)).message).toMatch(/^Migration failed/);
      await expectNothingLeft(dst, alice, 'dies', before);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
