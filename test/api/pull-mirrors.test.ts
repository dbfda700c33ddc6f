import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nowUnix } from '../../src/lib/time';
import { dueMirrors } from '../../src/models/mirror';
import { syncDuePullMirrors } from '../../src/services/mirror/pull-mirror';
import { cronOf } from '../../src/services/cron/scheduler';
import { createRepo, git, gitTry, remoteUrl, workTree } from '../helpers/git';
import { expectRepoShape } from '../helpers/repo-shape';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';
import type { Creds } from '../helpers/gitea-fixtures';

// Pull mirrors: created by POST /repos/migrate with mirror: true, synced by POST mirror-sync
// (a queued job) and by the update_mirrors task (syncDuePullMirrors); read-only to pushes.
// Each test makes the mirror it reads (newMirror), so that each runs alone.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;
let wt: string;

const api = (p: string, who: Creds | null, init: { method?: string; json?: unknown } = {}) =>
  s.request(`api/v1/${p}`, { ...init, auth: who ? as(who) : undefined });
const migrate = (who: Creds, body: Record<string, unknown>) => api('repos/migrate', who, { method: 'POST', json: body });
const branchNames = async (p: string) => ((await ok(await api(`repos/${p}/branches`, bob))) as Array<{ name: string }>).map((b) => b.name).sort();
const tagNames = async (p: string) => ((await ok(await api(`repos/${p}/tags`, bob))) as Array<{ name: string }>).map((b) => b.name).sort();
const mirrorRow = (repoId: number) => s.hearth.db.selectFrom('mirror').selectAll().where('repo_id', '=', repoId).executeTakeFirstOrThrow();
const srcUrl = () => remoteUrl(s, 'alice', 'src', alice.username, alice.password);
const syncDue = (limit: number, now: number) => syncDuePullMirrors(s.hearth, limit, now);
/** A pull mirror of alice/src owned by bob, credentials given. */
const newMirror = async (repo_name: string, extra: Record<string, unknown> = {}) =>
  ok(await migrate(bob, { clone_addr: srcUrl(), repo_name, mirror: true, ...extra }), 201);

beforeAll(async () => {
  s = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'src', { private: true });
  await createRepo(s, bob, 'plain', { auto_init: true });
  wt = await workTree({ 'README.md': '# src\n' });
  await git(wt, 'tag', 'v1');
  await git(wt, 'push', '-q', srcUrl(), 'main', 'v1');
});
afterAll(async () => { await s.stop(); });
// The mirrors a test made go with it: the next test's names are free and its due list its own.
afterEach(async () => {
  for (const name of ['mirror', 'm-default', 'm-off']) await api(`repos/bob/${name}`, bob, { method: 'DELETE' });
});

describe('pull mirrors', () => {
  it('migrate with mirror: true makes a mirror with its interval, and the credentials stay hidden', async () => {
    const res = await migrate(bob, {
      clone_addr: remoteUrl(s, 'alice', 'src'), repo_name: 'mirror', mirror: true, mirror_interval: '1h',
      auth_username: alice.username, auth_password: alice.password,
    });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect(text).not.toContain(alice.password);
    const mirror = JSON.parse(text);
    expectRepoShape(mirror);
    expect(mirror).toMatchObject({ mirror: true, mirror_interval: '1h0m0s', empty: false, default_branch: 'main' });
    expect(Date.parse(mirror.mirror_updated)).toBeGreaterThan(Date.now() - 60_000);
    const got = await ok(await api('repos/bob/mirror', bob));
    expect(got).toMatchObject({ mirror: true, mirror_interval: '1h0m0s', mirror_updated: mirror.mirror_updated });
    expect(await tagNames('bob/mirror')).toEqual(['v1']);

    const dir = path.join(s.hearth.config.repository.root, 'bob', 'mirror.git');
    const config = await git(dir, 'config', '--list', '--local');
    expect(config).not.toContain(alice.password);
    const row = await mirrorRow(mirror.id);
    expect(row.remote_address).toBe(remoteUrl(s, 'alice', 'src'));
    expect(row.credentials_sealed).not.toContain(alice.password);
    expect(row.credentials_sealed).not.toBe('');
    expect(row.next_update_unix).toBeGreaterThan(nowUnix() + 3500);
  });

  it('the default interval applies, "0s" turns scheduled syncs off, and one below the minimum is refused', async () => {
    const base = { clone_addr: srcUrl(), mirror: true };
    expect((await ok(await migrate(bob, { ...base, repo_name: 'm-default' }), 201)).mirror_interval).toBe('8h0m0s');
    const off = await ok(await migrate(bob, { ...base, repo_name: 'm-off', mirror_interval: '0s' }), 201);
    expect(off.mirror_interval).toBe('0s');
    expect((await mirrorRow(off.id)).next_update_unix).toBe(0);
    for (const mirror_interval of ['1m', 'soon']) {
      const res = await migrate(bob, { ...base, repo_name: 'm-bad', mirror_interval });
      expect(res.status, mirror_interval).toBe(422);
    }
    expect((await api('repos/bob/m-bad', bob)).status).toBe(404);
  });

  it('PATCH mirror_interval updates the mirror row', async () => {
    const mirror = await newMirror('mirror', { mirror_interval: '1h' });
    const res = await ok(await api('repos/bob/mirror', bob, { method: 'PATCH', json: { mirror_interval: '2h30m' } }));
    expect(res.mirror_interval).toBe('2h30m0s');
    expect((await mirrorRow(mirror.id)).interval_seconds).toBe(9000);
    expect((await api('repos/bob/mirror', bob, { method: 'PATCH', json: { mirror_interval: '5m' } })).status).toBe(422);
    expect((await ok(await api('repos/bob/mirror', bob))).mirror_interval).toBe('2h30m0s');
    // Not a mirror: ignored, as Gitea.
    expect((await ok(await api('repos/bob/plain', bob, { method: 'PATCH', json: { mirror_interval: '1h' } }))).mirror_interval).toBe('');
  });

  it('mirror-sync brings a new branch and drops a deleted tag, with a feed entry', async () => {
    await git(wt, 'tag', 'v-gone');
    await git(wt, 'push', '-q', srcUrl(), 'v-gone');
    const mirror = await newMirror('mirror');
    expect(await tagNames('bob/mirror')).toEqual(['v-gone', 'v1']);
    await git(wt, 'checkout', '-q', '-b', 'feature');
    fs.writeFileSync(path.join(wt, 'f.txt'), 'feature\n');
    await git(wt, 'add', '-A');
    await git(wt, 'commit', '-q', '-m', 'feature');
    await git(wt, 'push', '-q', srcUrl(), 'feature', ':refs/tags/v-gone');
    const res = await api('repos/bob/mirror/mirror-sync', bob, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    await eventually(async () => (await branchNames('bob/mirror')).includes('feature'), 10_000, 'feature mirrored');
    await eventually(async () => (await tagNames('bob/mirror')).join() === 'v1', 10_000, 'tag pruned');
    const branch = await ok(await api('repos/bob/mirror/branches/feature', bob));
    expect(branch.commit.id).toBe((await git(wt, 'rev-parse', 'feature')).trim());
    expect((await mirrorRow(mirror.id)).last_error).toBe('');
    const feed = await ok(await api('repos/bob/mirror/activities/feeds', bob));
    const refs = feed.map((a: { ref_name: string }) => a.ref_name);
    expect(refs).toContain('refs/heads/feature');
    expect(refs).toContain('refs/tags/v-gone');
  });

  it('mirror-sync answers 400 for a repository that is not a mirror, 403 to readers, 404 to strangers (anonymous callers too, as Gitea resolves the repository first)', async () => {
    await newMirror('mirror');
    const res = await api('repos/bob/plain/mirror-sync', bob, { method: 'POST' });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toBe('Repository is not a mirror');
    expect((await api('repos/bob/mirror/mirror-sync', carol, { method: 'POST' })).status).toBe(403);
    await ok(await api('repos/bob/mirror', bob, { method: 'PATCH', json: { private: true } }));
    expect((await api('repos/bob/mirror/mirror-sync', carol, { method: 'POST' })).status).toBe(404);
    expect((await api('repos/bob/mirror/mirror-sync', null, { method: 'POST' })).status).toBe(404);
  });

  it('syncDuePullMirrors picks up a mirror once its interval passed, never one with interval 0', async () => {
    const mirror = await newMirror('mirror', { mirror_interval: '2h30m' });
    await newMirror('m-default');
    await newMirror('m-off', { mirror_interval: '0s' });
    await git(wt, 'checkout', '-q', '-b', 'later');
    await git(wt, 'push', '-q', srcUrl(), 'later');
    expect(await syncDue(0, nowUnix())).toBe('queued 0 pull mirror syncs');
    const later = nowUnix() + 9 * 3600;
    // m-default (8h) and mirror (2h30m) are due; m-off never is (nor any other test's mirror here).
    const due = (await dueMirrors(s.hearth.db, later, 0)).map((m) => m.repo_id).sort();
    expect(due).toEqual([mirror.id, (await ok(await api('repos/bob/m-default', bob))).id].sort());
    expect(await syncDue(0, later)).toBe('queued 2 pull mirror syncs');
    await eventually(async () => (await branchNames('bob/mirror')).includes('later'), 10_000, 'later mirrored');
    await eventually(async () => (await branchNames('bob/m-default')).includes('later'), 10_000, 'later mirrored');
    expect(await branchNames('bob/m-off')).not.toContain('later');
    // Each sync scheduled the next one an interval later.
    expect((await mirrorRow(mirror.id)).next_update_unix).toBeGreaterThan(nowUnix() + 9000 - 60);
    expect(await syncDue(0, nowUnix())).toBe('queued 0 pull mirror syncs');
  });

  it('the update_mirrors task (POST /admin/cron/update_mirrors) syncs the due pull mirrors and queues the push mirrors', async () => {
    const mirror = await newMirror('mirror');
    await git(wt, 'checkout', '-q', '-b', 'by-cron');
    await git(wt, 'push', '-q', srcUrl(), 'by-cron');
    await s.hearth.db.updateTable('mirror').set({ next_update_unix: nowUnix() - 1 }).where('repo_id', '=', mirror.id).execute();
    const res = await s.request('api/v1/admin/cron/update_mirrors', { method: 'POST', auth: as(s.admin) });
    expect(res.status).toBe(204);
    await cronOf(s.hearth.db)!.idle();
    const last = cronOf(s.hearth.db)!.list().find((r) => r.name === 'update_mirrors')!.last;
    expect(last).toMatchObject({ status: 'finished' });
    expect(last!.message).toMatch(/^queued [1-9]\d* pull mirror syncs?; /);
    await eventually(async () => (await branchNames('bob/mirror')).includes('by-cron'), 10_000, 'by-cron mirrored');
  });

  it('a failing sync records the error without the credentials and is retried later', async () => {
    const mirror = await newMirror('mirror', { auth_username: alice.username, auth_password: alice.password, clone_addr: remoteUrl(s, 'alice', 'src') });
    await ok(await api('repos/alice/src', alice, { method: 'PATCH', json: { name: 'moved-away' } }));
    try {
      await ok(await api('repos/bob/mirror/mirror-sync', bob, { method: 'POST' }));
      await eventually(async () => (await mirrorRow(mirror.id)).last_error !== '', 10_000, 'error recorded');
      const row = await mirrorRow(mirror.id);
      expect(row.last_error).not.toContain(alice.password);
      expect(row.next_update_unix).toBeGreaterThan(nowUnix());
    } finally {
      await ok(await api('repos/alice/moved-away', alice, { method: 'PATCH', json: { name: 'src' } }));
    }
  });

  it('refuses pushes to the mirror over git and through the contents API', async () => {
    await newMirror('mirror');
    const push = await gitTry(wt, 'push', remoteUrl(s, 'bob', 'mirror', bob.username, bob.password), 'HEAD:refs/heads/pushed');
    expect(push.code).not.toBe(0);
    expect(await branchNames('bob/mirror')).not.toContain('pushed');
    const res = await api('repos/bob/mirror/contents/new.txt', bob, {
      method: 'POST', json: { content: Buffer.from('x').toString('base64'), message: 'add' },
    });
    expect(res.status).toBe(403);
    expect((await api('repos/bob/mirror/contents/new.txt', bob)).status).toBe(404);
  });
});
