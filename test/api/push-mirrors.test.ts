import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoDir } from '../../src/git/repo';
import { nowUnix } from '../../src/lib/time';
import { DISALLOWED } from '../../src/services/migrate/remote-address';
import { enqueueJob } from '../../src/services/jobs/queue';
import { enqueuePushMirrorSync, scrubCredentials, syncDuePushMirrors } from '../../src/services/mirror/push-mirror-sync';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';
import { eventually } from '../helpers/wait';

// Push mirrors (Gitea 1.25's /repos/{owner}/{repo}/push_mirrors): the targets are other
// repositories of the same server, reached over its git smart HTTP with bob's credentials.

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;

const api = (p: string) => `api/v1/repos/alice/src/${p}`;
const b64 = (t: string) => Buffer.from(t).toString('base64');
const targetUrl = (name: string) => remoteUrl(s, 'bob', name);
const dirOf = (owner: string, name: string) => repoDir(s.hearth.config.repository.root, owner, name);
const headOf = async (owner: string, name: string, ref = 'refs/heads/main') => {
  try {
    return (await git(dirOf(owner, name), 'rev-parse', '--verify', '-q', ref)).trim();
  } catch {
    return '';
  }
};
const mirrorRow = (name: string) =>
  s.hearth.db.selectFrom('push_mirror').selectAll().where('remote_name', '=', name).executeTakeFirstOrThrow();
/** A commit on alice/src's main through the contents API (it moves the refs as a push does). */
const commitFile = async (file: string) =>
  ok(await s.request(api(`contents/${file}`), { method: 'POST', auth: as(alice), json: { content: b64(`${file}\n`), message: `add ${file}` } }), 201);
const addMirror = (body: Record<string, unknown>, who: Creds = alice, repo = 'src') =>
  s.request(`api/v1/repos/alice/${repo}/push_mirrors`, { method: 'POST', auth: as(who), json: body });

beforeAll(async () => {
  s = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'src', { auto_init: true });
  for (const name of ['target', 'target2', 'target3']) await createRepo(s, bob, name);
  await ok(await s.request(api('collaborators/carol'), { method: 'PUT', auth: as(alice), json: { permission: 'write' } }), 204);
});
afterAll(async () => { await s.stop(); });

describe('push mirror CRUD', () => {
  let name: string;

  it('POST adds a mirror (200, as Gitea): no credentials in the answer, the row or the git config', async () => {
    const res = await addMirror({
      remote_address: targetUrl('target'), remote_username: 'bob', remote_password: bob.password, interval: '8h', sync_on_commit: true,
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain(bob.password);
    const body = JSON.parse(text);
    // Gitea sends last_update null (AsTimePtr of a zero time) until the first push; the
    // reference types it as a plain date-time, so the rest of the shape is checked.
    expect(body.last_update).toBeNull();
    expectShape({ ...body, last_update: undefined }, 'PushMirror');
    expect(body).toMatchObject({
      repo_name: 'src', remote_address: targetUrl('target'), last_error: '', interval: '8h0m0s', sync_on_commit: true,
    });
    expect(body.remote_name).toMatch(/^remote_mirror_[A-Za-z0-9]{10}$/);
    name = body.remote_name;
    const row = await mirrorRow(name);
    expect(row.credentials_sealed).not.toBe('');
    expect(row.credentials_sealed).not.toContain(bob.password);
    expect(row.remote_address).toBe(targetUrl('target'));
    expect(fs.readFileSync(path.join(dirOf('alice', 'src'), 'config'), 'utf8')).not.toContain(bob.password);
  });

  it('GET lists (paginated) and gets by remote name; an unknown name is 404', async () => {
    const list = await s.request(api('push_mirrors?limit=10'), { auth: as(alice) });
    const items = await ok(list);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(items.map((m: { remote_name: string }) => m.remote_name)).toEqual([name]);
    const one = await ok(await s.request(api(`push_mirrors/${name}`), { auth: as(alice) }));
    expect(one).toMatchObject({ remote_name: name, repo_name: 'src', interval: '8h0m0s' });
    expect((await s.request(api('push_mirrors/remote_mirror_nope'), { auth: as(alice) })).status).toBe(404);
    expect((await s.request(api('push_mirrors/remote_mirror_nope'), { method: 'DELETE', auth: as(alice) })).status).toBe(404);
  });

  it('only repository admins: a writer and a stranger are refused (403)', async () => {
    for (const who of [carol, bob]) {
      expect((await s.request(api('push_mirrors'), { auth: as(who) })).status).toBe(403);
      expect((await addMirror({ remote_address: targetUrl('target'), interval: '8h' }, who)).status).toBe(403);
      expect((await s.request(api(`push_mirrors/${name}`), { auth: as(who) })).status).toBe(403);
      expect((await s.request(api(`push_mirrors/${name}`), { method: 'DELETE', auth: as(who) })).status).toBe(403);
      expect((await s.request(api('push_mirrors-sync'), { method: 'POST', auth: as(who) })).status).toBe(403);
    }
    expect((await s.request(api('push_mirrors'))).status).toBe(401);
  });

  it('the interval: a Go duration, 0 or at least min_interval (10m); else 400', async () => {
    for (const interval of ['', 'soon', '1m', '9m59s', '-1h']) {
      const res = await addMirror({ remote_address: targetUrl('target3'), interval });
      expect(res.status, `${interval}: ${await res.text()}`).toBe(400);
    }
    const zero = await ok(await addMirror({ remote_address: targetUrl('target3'), interval: '0' }));
    expect(zero.interval).toBe('0s');
    const mixed = await ok(await addMirror({ remote_address: targetUrl('target3'), interval: '1h30m' }));
    expect(mixed.interval).toBe('1h30m0s');
    for (const m of [zero, mixed]) await ok(await s.request(api(`push_mirrors/${m.remote_name}`), { method: 'DELETE', auth: as(alice) }), 204);
  });
});

describe('pushing', () => {
  it('a change to the source arrives at a sync_on_commit mirror', async () => {
    const body = await commitFile('on-commit.txt');
    const sha = body.commit.sha as string;
    await eventually(async () => (await headOf('bob', 'target')) === sha, 15_000, 'target follows the source');
    const list = await ok(await s.request(api('push_mirrors'), { auth: as(alice) }));
    const m = list.find((x: { remote_address: string }) => x.remote_address === targetUrl('target'));
    await eventually(async () => (await mirrorRow(m.remote_name)).last_update_unix > 0, 5000, 'last_update recorded');
    const got = await ok(await s.request(api(`push_mirrors/${m.remote_name}`), { auth: as(alice) }));
    expectShape(got, 'PushMirror');
    expect(got.last_error).toBe('');
  });

  it('a git push to the source arrives at a sync_on_commit mirror: branches, tags and deletions', async () => {
    const wt = tempDir('hearth-pm-');
    await git(wt, 'clone', '-q', remoteUrl(s, 'alice', 'src', 'alice', alice.password), '.');
    fs.writeFileSync(path.join(wt, 'pushed.txt'), 'pushed\n');
    await git(wt, 'add', '-A');
    await git(wt, 'commit', '-q', '-m', 'pushed over git');
    await git(wt, 'tag', 'v1.0');
    await git(wt, 'push', '-q', 'origin', 'main', 'v1.0', 'main:feature');
    const sha = (await git(wt, 'rev-parse', 'HEAD')).trim();
    await eventually(async () => (await headOf('bob', 'target')) === sha, 15_000, 'target follows the pushed branch');
    await eventually(async () => (await headOf('bob', 'target', 'refs/tags/v1.0^{commit}')) === sha, 15_000, 'and the tag');
    await eventually(async () => (await headOf('bob', 'target', 'refs/heads/feature')) === sha, 15_000, 'and the new branch');
    // A mirror: a branch deleted at the source is deleted at the target (--prune).
    await git(wt, 'push', '-q', 'origin', ':feature');
    fs.rmSync(wt, { recursive: true, force: true });
    await eventually(async () => (await headOf('bob', 'target', 'refs/heads/feature')) === '', 15_000, 'the deleted branch pruned');
  });

  it('push_mirrors-sync pushes a mirror without sync_on_commit (credentials in the address)', async () => {
    const withCreds = remoteUrl(s, 'bob', 'target2', 'bob', bob.password);
    const added = await ok(await addMirror({ remote_address: withCreds, interval: '8h', sync_on_commit: false }));
    expect(added.remote_address).toBe(targetUrl('target2'));
    expect(JSON.stringify(added)).not.toContain(bob.password);
    const sha = (await commitFile('manual.txt')).commit.sha as string;
    await eventually(async () => (await headOf('bob', 'target')) === sha, 15_000, 'the sync_on_commit mirror');
    expect(await headOf('bob', 'target2')).toBe('');
    const res = await s.request(api('push_mirrors-sync'), { method: 'POST', auth: as(alice) });
    expect(res.status).toBe(200);
    await eventually(async () => (await headOf('bob', 'target2')) === sha, 15_000, 'target2 after push_mirrors-sync');
    await eventually(async () => (await mirrorRow(added.remote_name)).last_update_unix > 0, 5000, 'last_update recorded');
    expect((await mirrorRow(added.remote_name)).last_error).toBe('');
  });

  it('a failing push records last_error without the password', async () => {
    const wrong = 'Wrong-Pa55word-xyz';
    const added = await ok(await addMirror({
      remote_address: targetUrl('target3'), remote_username: 'bob', remote_password: wrong, interval: '8h', sync_on_commit: false,
    }));
    expect(await enqueuePushMirrorSync(s.hearth.db, (await mirrorRow(added.remote_name)).id)).toBe(true);
    await eventually(async () => (await mirrorRow(added.remote_name)).last_update_unix > 0, 15_000, 'the failed push recorded');
    const got = await ok(await s.request(api(`push_mirrors/${added.remote_name}`), { auth: as(alice) }));
    expect(got.last_error).not.toBe('');
    expect(got.last_error).not.toContain(wrong);
    expect(got.last_error).toContain('Authentication failed');
    expect(got.last_error).toContain(targetUrl('target3'));
    expect(await headOf('bob', 'target3')).toBe('');
    await ok(await s.request(api(`push_mirrors/${added.remote_name}`), { method: 'DELETE', auth: as(alice) }), 204);
  });
});

describe('the address at each push', () => {
  it('an address [migrations] no longer allows is not pushed to: last_error says so', async () => {
    const added = await ok(await addMirror({ remote_address: targetUrl('target3'), interval: '8h', sync_on_commit: false }));
    const rules = s.hearth.config.migrations;
    rules.allow_localnetworks = false;
    try {
      expect(await enqueuePushMirrorSync(s.hearth.db, (await mirrorRow(added.remote_name)).id)).toBe(true);
      await eventually(async () => (await mirrorRow(added.remote_name)).last_update_unix > 0, 15_000, 'the refused push recorded');
    } finally {
      rules.allow_localnetworks = true;
    }
    expect((await mirrorRow(added.remote_name)).last_error).toBe(DISALLOWED);
    expect(await headOf('bob', 'target3')).toBe('');
    await ok(await s.request(api(`push_mirrors/${added.remote_name}`), { method: 'DELETE', auth: as(alice) }), 204);
  });

  it('scrubCredentials removes the password as given and URL-encoded, and any URL user part', () => {
    const creds = { username: 'bob', password: 'p@ss word' };
    const text = "fatal: unable to access 'https://bob:p%40ss%20word@example.com/x.git/': p@ss word";
    expect(scrubCredentials(text, creds)).toBe("fatal: unable to access 'https://example.com/x.git/': ***");
  });
});

describe('scheduled pushes and the queue', () => {
  it('syncDuePushMirrors queues the mirrors whose interval has passed, never those with interval 0', async () => {
    const never = await ok(await addMirror({ remote_address: targetUrl('target3'), interval: '0' }));
    const now = nowUnix();
    await s.hearth.db.updateTable('push_mirror').set({ last_update_unix: now }).execute();
    await s.hearth.db.updateTable('push_mirror').set({ last_update_unix: 0 }).where('remote_name', '=', never.remote_name).execute();
    const list = await ok(await s.request(api('push_mirrors'), { auth: as(alice) }));
    const due = list.find((x: { remote_address: string }) => x.remote_address === targetUrl('target2')).remote_name as string;
    await s.hearth.db.updateTable('push_mirror').set({ last_update_unix: now - 9 * 3600 }).where('remote_name', '=', due).execute();
    expect(await syncDuePushMirrors(s.hearth.db, 0)).toBe('1 push mirror(s) due, 1 queued');
    await eventually(async () => (await mirrorRow(due)).last_update_unix >= now, 15_000, 'the due mirror pushed');
    expect((await mirrorRow(never.remote_name)).last_update_unix).toBe(0);
    await ok(await s.request(api(`push_mirrors/${never.remote_name}`), { method: 'DELETE', auth: as(alice) }), 204);
  });

  it('a push already waiting for a mirror is not queued twice', async () => {
    const key = 'push-mirror:999999';
    await enqueueJob(s.hearth.db, { kind: 'mirror.push', key, payload: { pushMirrorId: 999999 }, delayMs: 3_600_000 });
    expect(await enqueuePushMirrorSync(s.hearth.db, 999999)).toBe(false);
    const jobs = await s.hearth.db.selectFrom('job').select('id').where('key', '=', key).execute();
    expect(jobs).toHaveLength(1);
    await s.hearth.db.deleteFrom('job').where('key', '=', key).execute();
  });

  it('DELETE removes a mirror (204); deleting the repository removes its mirrors', async () => {
    await createRepo(s, alice, 'gone', { auto_init: true });
    const added = await ok(await addMirror({ remote_address: targetUrl('target3'), interval: '8h' }, alice, 'gone'));
    const repoId = (await mirrorRow(added.remote_name)).repo_id;
    await ok(await s.request('api/v1/repos/alice/gone', { method: 'DELETE', auth: as(alice) }), 204);
    const left = await s.hearth.db.selectFrom('push_mirror').select('id').where('repo_id', '=', repoId).execute();
    expect(left).toEqual([]);
    const list = await ok(await s.request(api('push_mirrors'), { auth: as(alice) }));
    for (const m of list) await ok(await s.request(api(`push_mirrors/${m.remote_name}`), { method: 'DELETE', auth: as(alice) }), 204);
    expect(await ok(await s.request(api('push_mirrors'), { auth: as(alice) }))).toEqual([]);
  });
});

describe('under the default configuration', () => {
  let d: TestServer;
  let dave: Creds;
  beforeAll(async () => {
    d = await startTestServer();
    dave = await createUser(d, 'dave');
    await createRepo(d, dave, 'src', { auto_init: true });
  });
  afterAll(async () => { await d.stop(); });
  const add = (body: Record<string, unknown>) =>
    d.request('api/v1/repos/dave/src/push_mirrors', { method: 'POST', auth: as(dave), json: body });

  it('a loopback remote is refused (400, as Gitea refuses a disallowed host) and nothing is stored', async () => {
    const body = await ok(await add({ remote_address: remoteUrl(d, 'dave', 'src'), interval: '8h' }), 400);
    expect(body.message).toBe(DISALLOWED);
    expect(await d.hearth.db.selectFrom('push_mirror').select('id').execute()).toEqual([]);
  });

  it('with [mirror] disabled every route answers 400; with disable_new_push, adding does', async () => {
    const cfg = d.hearth.config.mirror;
    try {
      cfg.disable_new_push = true;
      const refused = await add({ remote_address: 'https://example.com/x.git', interval: '8h' });
      expect(refused.status).toBe(400);
      cfg.disable_new_push = false;
      cfg.enabled = false;
      const body = await ok(await add({ remote_address: 'https://example.com/x.git', interval: '8h' }), 400);
      expect(body.message).toBe('Mirror feature is disabled');
      expect((await d.request('api/v1/repos/dave/src/push_mirrors', { auth: as(dave) })).status).toBe(400);
      expect((await d.request('api/v1/repos/dave/src/push_mirrors-sync', { method: 'POST', auth: as(dave) })).status).toBe(400);
    } finally {
      cfg.enabled = true;
      cfg.disable_new_push = false;
    }
  });
});
