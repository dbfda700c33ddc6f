import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationStatus } from '../../src/services/migrate/progress';
import { startFakeForge, type FakeForge } from '../helpers/fake-forge';
import { githubApi, type GithubFakeState } from '../helpers/fake-github';
import { git, tempDir, workTree } from '../helpers/git';
import { ALL_CAPS, expectDoctorClean, expectGitExtras, expectNothingLeft, expectStory, storedFiles } from '../helpers/migrate-expect';
import { buildStory, type Story } from '../helpers/migrate-story';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// POST /repos/migrate with service github against a fake GitHub Enterprise Server on loopback
// (answers typed with GitHub's OpenAPI description), its git data served by git http-backend.

const TOKEN = 'ghp_fake0123456789';

let dst: TestServer;
let alice: { username: string; password: string; id: number };
let reposDir: string;
let story: Story;
let fake: FakeForge;
let state: GithubFakeState;

async function startGithub(opts: { resetInMs?: number } = {}): Promise<{ fake: FakeForge; state: GithubFakeState }> {
  let base = '';
  const gh = githubApi(story, { token: TOKEN, base: () => base, resetInMs: opts.resetInMs });
  const f = await startFakeForge({ reposDir, api: gh.api, gitAuth: { username: 'oauth2', password: TOKEN }, lfs: new Map([[story.lfs.oid, story.lfs.bytes]]) });
  base = f.base;
  return { fake: f, state: gh.state };
}

const migrate = (name: string, extra: Record<string, unknown> = {}) => dst.request('api/v1/repos/migrate', {
  method: 'POST', auth: as(alice),
  json: {
    clone_addr: `${fake.base}alice/proj.git`, repo_name: name, service: 'github', auth_token: TOKEN,
    issues: true, labels: true, milestones: true, pull_requests: true, releases: true, wiki: true, lfs: true, ...extra,
  },
});

beforeAll(async () => {
  dst = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__RETRY_BACKOFF: '0.05' });
  alice = await createUser(dst, 'alice');
  reposDir = tempDir('hearth-fake-github-');
  story = await buildStory(reposDir, (n) => `refs/pull/${n}/head`);
  ({ fake, state } = await startGithub());
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await dst?.stop();
  fs.rmSync(reposDir, { recursive: true, force: true });
});

describe('POST /repos/migrate with service github', () => {
  it('brings the git data, wiki, LFS objects and every item, waiting out the rate limits', async () => {
    const res = await migrate('proj');
    const repo = await ok(res, 201);
    expect(repo).toMatchObject({ name: 'proj', mirror: false, original_url: `${fake.base}alice/proj.git`, empty: false });
    await expectStory(dst, alice, 'proj', story, ALL_CAPS);
    await expectGitExtras(dst, alice, 'proj', story);
    // The window ran out once and a secondary limit struck once: both waited out, nothing refused.
    expect(state.exhaustedAt).toBeGreaterThan(0);
    expect(state.secondaryLimited).toBe(1);
    expect(state.early).toBe(0);
    // Two pages of issues (50 a page), each followed through its Link header.
    expect(fake.requests.filter((r) => r.url.pathname.endsWith('/issues') && r.url.searchParams.get('page') === '2').length).toBe(2);
    // Reactions asked for only where the counts say there are some; comments from the
    // repository-wide list (one page of 100), none issue by issue.
    expect(fake.requests.filter((r) => /\/issues\/\d+\/reactions$/.test(r.url.pathname)).length).toBe(1 + story.pulls.length);
    expect(fake.requests.filter((r) => /\/issues\/\d+\/comments$/.test(r.url.pathname)).length).toBe(0);
    expect(fake.requests.filter((r) => r.url.pathname.endsWith('/issues/comments')).length).toBe(1);
    const status = migrationStatus('alice', 'proj');
    expect(status).toMatchObject({ state: 'finished', stage: 'done', error: '', service: 'github' });
    expect(status!.counts).toMatchObject({
      issues: 60, pull_requests: 3, labels: 3, milestones: 2, releases: 1, release_assets: 1, reviews: 2,
      issue_comments: 61, pull_comments: 1, comment_reactions: 1, comments_skipped: 0,
    });
    await expectDoctorClean(dst);
  }, 60_000);

  it('leaves nothing behind when the source dies halfway (after the release and LFS object were stored)', async () => {
    const dying = await startGithub();
    const before = storedFiles(dst);
    try {
      dying.fake.dieWhen((r) => r.url.pathname.endsWith('/issues') && r.url.searchParams.get('page') === '2');
      const res = await dst.request('api/v1/repos/migrate', {
        method: 'POST', auth: as(alice),
        json: {
          clone_addr: `${dying.fake.base}alice/proj.git`, repo_name: 'dies', service: 'github', auth_token: TOKEN,
          issues: true, releases: true, lfs: true, wiki: true, labels: true,
        },
      });
      expect(res.status).toBe(422);
      const body = await json(res);
      expect(body.message).toMatch(/^Migration failed/);
      expect(body.message).not.toContain(TOKEN);
      await expectNothingLeft(dst, alice, 'dies', before);
      const status = migrationStatus('alice', 'dies');
      expect(status).toMatchObject({ state: 'failed', stage: 'issues', error: body.message });
      await expectDoctorClean(dst);
    } finally {
      await dying.fake.close();
    }
  }, 60_000);

  it('a rate limit that resets past [migrations] timeout fails at once (422) rather than waiting in vain', async () => {
    const limited = await startGithub({ resetInMs: 2 * 3_600_000 });
    try {
      const started = Date.now();
      const res = await dst.request('api/v1/repos/migrate', {
        method: 'POST', auth: as(alice),
        json: { clone_addr: `${limited.fake.base}alice/proj.git`, repo_name: 'limited', service: 'github', auth_token: TOKEN, issues: true, labels: true, milestones: true, releases: true },
      });
      expect(res.status).toBe(422);
      expect((await json(res)).message).toMatch(/rate limit .* resets after the migration's time limit/);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect((await dst.request('api/v1/repos/alice/limited', { auth: as(alice) })).status).toBe(404);
    } finally {
      await limited.fake.close();
    }
  }, 30_000);

  it('a wrong token is refused by the source: 422, nothing created', async () => {
    const res = await migrate('badtoken', { auth_token: 'wrong', wiki: false, lfs: false });
    expect(res.status).toBe(422);
    expect((await dst.request('api/v1/repos/alice/badtoken', { auth: as(alice) })).status).toBe(404);
  });

  it('mirror: true takes the git data only and keeps syncing it', async () => {
    const repo = await ok(await migrate('mirrored', { mirror: true, mirror_interval: '1h' }), 201);
    expect(repo).toMatchObject({ mirror: true, mirror_interval: '1h0m0s' });
    expect(Date.parse(repo.mirror_updated)).toBeGreaterThan(0);
    expect((await ok(await dst.request('api/v1/repos/alice/mirrored/issues?state=all', { auth: as(alice) }))).length).toBe(0);
    const wt = await workTree({ 'later.txt': 'later\n' }, 'later');
    await git(wt, 'push', '-q', path.join(reposDir, 'alice', 'proj.git'), 'later');
    await ok(await dst.request('api/v1/repos/alice/mirrored/mirror-sync', { method: 'POST', auth: as(alice) }));
    await eventually(async () => (await dst.request('api/v1/repos/alice/mirrored/branches/later', { auth: as(alice) })).status === 200, 10_000, 'branch mirrored');
    fs.rmSync(wt, { recursive: true, force: true });
  }, 30_000);
});
