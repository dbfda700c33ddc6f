import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForge, type FakeForge } from '../helpers/fake-forge';
import { githubApi } from '../helpers/fake-github';
import { tempDir } from '../helpers/git';
import { ALL_CAPS, expectDoctorClean, expectGitExtras, expectStory } from '../helpers/migrate-expect';
import { buildStory, type Story } from '../helpers/migrate-story';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// POST /repos/migrate with service gitbucket: GitBucket speaks GitHub's API under /api/v3 (no
// reactions, reviews or topics, and no Link headers: pages are counted until a short one); its
// git addresses are /git/<owner>/<repo>.git.

const TOKEN = 'gitbucket-token-0123';

let dst: TestServer;
let alice: { username: string; password: string; id: number };
let reposDir: string;
let story: Story;
let fake: FakeForge;

beforeAll(async () => {
  dst = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__RETRY_BACKOFF: '0.05' });
  alice = await createUser(dst, 'alice');
  reposDir = tempDir('hearth-fake-gitbucket-');
  story = await buildStory(reposDir, (n) => `refs/pull/${n}/head`);
  // git http-backend serves <reposDir>/git/alice/proj.git as /git/alice/proj.git.
  fs.symlinkSync('.', path.join(reposDir, 'git'));
  let base = '';
  const gb = githubApi(story, { token: TOKEN, base: () => base, gitbucket: true, exhaustAfter: 1_000_000 });
  fake = await startFakeForge({ reposDir, api: gb.api, gitAuth: { username: 'oauth2', password: TOKEN }, lfs: new Map([[story.lfs.oid, story.lfs.bytes]]) });
  base = fake.base;
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await dst?.stop();
  fs.rmSync(reposDir, { recursive: true, force: true });
});

describe('POST /repos/migrate with service gitbucket', () => {
  it('brings what GitBucket has: issues with comments, pulls, labels, milestones, releases, wiki and LFS', async () => {
    const res = await dst.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(alice),
      json: {
        clone_addr: `${fake.base}git/alice/proj.git`, repo_name: 'proj', service: 'gitbucket', auth_token: TOKEN,
        issues: true, labels: true, milestones: true, pull_requests: true, releases: true, wiki: true, lfs: true,
      },
    });
    await ok(res, 201);
    await expectStory(dst, alice, 'proj', story, {
      ...ALL_CAPS, issueReactions: false, commentReactions: false, pullReactions: false, reviews: false, topics: false,
    });
    await expectGitExtras(dst, alice, 'proj', story);
    expect(fake.requests.some((r) => r.url.pathname.startsWith('/api/v3/repos/alice/proj/issues'))).toBe(true);
    // Neither reactions nor reviews were asked for.
    expect(fake.requests.filter((r) => /reactions|reviews/.test(r.url.pathname))).toEqual([]);
    await expectDoctorClean(dst);
  }, 60_000);
});
