import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codecommitApi, type CodecommitFakeState } from '../helpers/fake-codecommit';
import { startFakeForge, type FakeForge } from '../helpers/fake-forge';
import { tempDir } from '../helpers/git';
import { ALL_CAPS, expectDoctorClean, expectNothingLeft, expectStory, storedFiles } from '../helpers/migrate-expect';
import { buildStory, type Story } from '../helpers/migrate-story';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';

// POST /repos/migrate with service codecommit against a fake CodeCommit on loopback: its JSON API
// checks each request's SigV4 signature; git (with HTTPS Git credentials) is git http-backend.

const KEY_ID = 'AKIDFAKE0123';
const SECRET = 'fake/secret+KEY0123456789';
const GIT = { username: 'alice-at-123456789012', password: 'git-https-password' };

let dst: TestServer;
let alice: { username: string; password: string; id: number };
let reposDir: string;
let story: Story;

async function startCodecommit(): Promise<{ fake: FakeForge; state: CodecommitFakeState }> {
  let base = '';
  const cc = codecommitApi(story, { keyId: KEY_ID, secret: SECRET, base: () => base });
  const fake = await startFakeForge({ reposDir, api: cc.api, gitAuth: GIT, gitPath: /^\/v1\/repos\// });
  base = fake.base;
  return { fake, state: cc.state };
}

const migrate = (fake: FakeForge, name: string, extra: Record<string, unknown> = {}) => dst.request('api/v1/repos/migrate', {
  method: 'POST', auth: as(alice),
  json: {
    clone_addr: `${fake.base}v1/repos/proj`, repo_name: name, service: 'codecommit', auth_username: GIT.username, auth_password: GIT.password,
    aws_access_key_id: KEY_ID, aws_secret_access_key: SECRET, pull_requests: true, issues: true, labels: true, releases: true, ...extra,
  },
});

beforeAll(async () => {
  dst = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__RETRY_BACKOFF: '0.05' });
  alice = await createUser(dst, 'alice');
  reposDir = tempDir('hearth-fake-codecommit-');
  // CodeCommit keeps no pull refs: the merged head is in main's history, the closed one's branch stays.
  story = await buildStory(reposDir, (n) => (n === 63 ? 'refs/heads/old' : `refs/keep/${n}`), 'v1/repos', 'proj');
}, 60_000);

afterAll(async () => {
  await dst?.stop();
  fs.rmSync(reposDir, { recursive: true, force: true });
});

describe('POST /repos/migrate with service codecommit', () => {
  it('brings the git data and the pull requests with comments, approvals and line comments, every call signed', async () => {
    const { fake, state } = await startCodecommit();
    try {
      await ok(await migrate(fake, 'proj'), 201);
      await expectStory(dst, alice, 'proj', story, {
        ...ALL_CAPS, labels: false, milestones: false, issues: false, issueReactions: false, commentReactions: false,
        pullReactions: false, reviewBodies: false, releases: false, topics: false, authorIds: false,
      });
      expect(state.badSignatures).toBe(0);
      expect(state.throttled).toBe(1);
      // Throttled once, then both pages (two pull requests a page) through nextToken.
      expect(state.signedActions.filter((a) => a === 'ListPullRequests').length).toBe(3);
      // The secret never travels: only its signature does.
      expect(fake.requests.every((r) => !r.body.includes(SECRET) && !JSON.stringify(r.headers).includes(SECRET))).toBe(true);
      await expectDoctorClean(dst);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('a wrong secret is refused by the source: 422 without the secret, nothing left', async () => {
    const { fake } = await startCodecommit();
    const before = storedFiles(dst);
    try {
      const res = await migrate(fake, 'badkey', { aws_secret_access_key: 'not-the-secret' });
      expect(res.status).toBe(422);
      const body = await json(res);
      expect(body.message).toMatch(/^Authentication failed/);
      expect(body.message).not.toContain('not-the-secret');
      await expectNothingLeft(dst, alice, 'badkey', before);
    } finally {
      await fake.close();
    }
  }, 30_000);

  it('without AWS keys the import is refused up front (422), a mirror needs none', async () => {
    const { fake } = await startCodecommit();
    try {
      const res = await migrate(fake, 'nokeys', { aws_access_key_id: '', aws_secret_access_key: '' });
      expect(res.status).toBe(422);
      expect((await json(res)).message).toMatch(/aws_access_key_id/);
      const mirror = await ok(await migrate(fake, 'mirror', { aws_access_key_id: '', aws_secret_access_key: '', mirror: true }), 201);
      expect(mirror.mirror).toBe(true);
    } finally {
      await fake.close();
    }
  }, 30_000);
});
