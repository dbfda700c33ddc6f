import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationStatus } from '../../src/services/migrate/progress';
import { startFakeForge, type FakeForge } from '../helpers/fake-forge';
import { gitlabApi, type GitlabFakeState } from '../helpers/fake-gitlab';
import { tempDir } from '../helpers/git';
import { ALL_CAPS, expectDoctorClean, expectGitExtras, expectNothingLeft, expectStory, storedFiles } from '../helpers/migrate-expect';
import { buildStory, type Story } from '../helpers/migrate-story';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';

// POST /repos/migrate with service gitlab against a fake self-managed GitLab on loopback (API v4
// as its documentation shapes it), its git data served by git http-backend.

const TOKEN = 'glpat-fake0123456789';

let dst: TestServer;
let alice: { username: string; password: string; id: number };
let reposDir: string;
let story: Story;

async function startGitlab(): Promise<{ fake: FakeForge; state: GitlabFakeState }> {
  let base = '';
  const gl = gitlabApi(story, { token: TOKEN, base: () => base });
  const fake = await startFakeForge({ reposDir, api: gl.api, gitAuth: { username: 'oauth2', password: TOKEN }, lfs: new Map([[story.lfs.oid, story.lfs.bytes]]) });
  base = fake.base;
  return { fake, state: gl.state };
}

const migrate = (fake: FakeForge, name: string, extra: Record<string, unknown> = {}) => dst.request('api/v1/repos/migrate', {
  method: 'POST', auth: as(alice),
  json: {
    clone_addr: `${fake.base}alice/proj.git`, repo_name: name, service: 'gitlab', auth_token: TOKEN,
    issues: true, labels: true, milestones: true, pull_requests: true, releases: true, wiki: true, lfs: true, ...extra,
  },
});

beforeAll(async () => {
  dst = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__RETRY_BACKOFF: '0.05' });
  alice = await createUser(dst, 'alice');
  reposDir = tempDir('hearth-fake-gitlab-');
  // Merge requests 1..3 follow the 60 issues: 61..63 here.
  story = await buildStory(reposDir, (n) => `refs/merge-requests/${n - 60}/head`);
}, 60_000);

afterAll(async () => {
  await dst?.stop();
  fs.rmSync(reposDir, { recursive: true, force: true });
});

describe('POST /repos/migrate with service gitlab', () => {
  it('brings the git data, wiki, LFS objects and every item; merge requests numbered after the issues', async () => {
    const { fake, state } = await startGitlab();
    try {
      const repo = await ok(await migrate(fake, 'proj'), 201);
      expect(repo).toMatchObject({ name: 'proj', original_url: `${fake.base}alice/proj.git` });
      // No comment reactions (GitLab's notes' emoji are not read); review bodies GitLab has none.
      await expectStory(dst, alice, 'proj', story, { ...ALL_CAPS, commentReactions: false, reviewBodies: false });
      await expectGitExtras(dst, alice, 'proj', story);
      expect(state.limited).toBe(1);
      // The token went in PRIVATE-TOKEN, never in an address.
      expect(fake.requests.every((r) => !r.url.search.includes(TOKEN))).toBe(true);
      expect(fake.requests.filter((r) => r.url.pathname.endsWith('/issues') && r.url.searchParams.get('page') === '2').length).toBe(2);
      // A merge request's notes are read once, for its comments and its line comments.
      expect(fake.requests.filter((r) => r.url.pathname.endsWith('/merge_requests/2/notes')).length).toBe(1);
      expect(migrationStatus('alice', 'proj')).toMatchObject({ state: 'finished', counts: { issues: 60, pull_requests: 3, reviews: 2 } });
      await expectDoctorClean(dst);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('leaves nothing behind when the source dies halfway', async () => {
    const { fake } = await startGitlab();
    const before = storedFiles(dst);
    try {
      fake.dieWhen((r) => r.url.pathname.endsWith('/merge_requests'));
      const res = await migrate(fake, 'dies');
      expect(res.status).toBe(422);
      expect((await json(res)).message).toMatch(/^Migration failed/);
      await expectNothingLeft(dst, alice, 'dies', before);
      expect(migrationStatus('alice', 'dies')).toMatchObject({ state: 'failed', stage: 'pull_requests' });
      await expectDoctorClean(dst);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
