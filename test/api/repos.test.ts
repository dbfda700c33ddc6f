import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, gitTry, remoteUrl, tempDir } from '../helpers/git';
import { as, type Auth, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectRepoShape } from '../helpers/repo-shape';
import { expectAllFields, expectShape } from '../helpers/swagger';

type U = { username: string; password: string; id: number };
let s: TestServer;
let alice: U;
let bob: U;
const admin = (): Auth => as(s.admin);
const root = () => s.hearth.config.server.root_url;
const diskPath = (owner: string, name: string) => path.join(s.hearth.config.repository.root, owner, `${name}.git`);

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
});
afterAll(async () => { await s.stop(); });

const create = (auth: Auth, body: Record<string, unknown>) => s.request('api/v1/user/repos', { method: 'POST', auth, json: body });
const getRepo = (full: string, auth?: Auth) => s.request(`api/v1/repos/${full}`, { auth, redirect: 'manual' });
const edit = (full: string, body: Record<string, unknown>, auth: Auth = as(alice)) =>
  s.request(`api/v1/repos/${full}`, { method: 'PATCH', auth, json: body, redirect: 'manual' });

/**
 * Gitea omits the trackers and the external wiki (omitempty) when they are unset or their unit is
 * off, and parent and repo_transfer when there are none; every other field is always sent.
 */
function expectRepository(body: Record<string, unknown>): void {
  expectRepoShape(body);
  expect(body.parent, 'parent is omitted, never null').not.toBeNull();
  expect(body.repo_transfer, 'repo_transfer is omitted, never null').not.toBeNull();
  expectAllFields({ internal_tracker: null, external_tracker: null, external_wiki: null, parent: null, repo_transfer: null, ...body }, 'Repository');
}

describe('POST /user/repos', () => {
  it('creates an empty repository (201) with every Repository field', async () => {
    const res = await create(as(alice), { name: 'first', description: 'my first' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectRepository(body);
    const host = new URL(root()).hostname;
    expect(body).toMatchObject({
      name: 'first', full_name: 'alice/first', description: 'my first', empty: true, private: false, fork: false,
      template: false, mirror: false, archived: false, default_branch: 'main', object_format_name: 'sha1',
      html_url: `${root()}alice/first`, clone_url: `${root()}alice/first.git`, ssh_url: `git@${host}:alice/first.git`,
      url: `${root()}api/v1/repos/alice/first`, permissions: { admin: true, push: true, pull: true },
      stars_count: 0, forks_count: 0, open_issues_count: 0, topics: [], licenses: [],
    });
    expect(body.owner).toMatchObject({ login: 'alice', id: alice.id });
    expect(Date.parse(body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(fs.existsSync(path.join(diskPath('alice', 'first'), 'HEAD'))).toBe(true);
  });

  it('refuses a duplicate name, whatever its case (409)', async () => {
    await createRepo(s, alice, 'dup');
    for (const name of ['dup', 'DUP']) {
      const res = await create(as(alice), { name });
      expect(res.status).toBe(409);
      expect((await json(res)).message).toBe('The repository with the same name already exists.');
    }
    // Another owner may use the same name.
    expect((await create(as(bob), { name: 'dup' })).status).toBe(201);
  });

  it.each(['', 'has space', 'a/b', '.', '..', '-', 'x.git', 'x.wiki', 'x.rss', 'x.atom', 'ünï', 'a'.repeat(101)])(
    'refuses the invalid or reserved name %j (422)', async (name) => {
      const res = await create(as(alice), { name });
      expect(res.status).toBe(422);
      expectShape(await json(res), 'APIError');
    },
  );

  it('refuses a missing name and a body of the wrong type (422)', async () => {
    expect((await create(as(alice), {})).status).toBe(422);
    expect((await create(as(alice), { name: 'typed', private: 'yes' })).status).toBe(422);
  });

  it('auto_init writes a README on the chosen default branch', async () => {
    const res = await create(as(alice), { name: 'inited', auto_init: true, readme: 'Default', default_branch: 'trunk', description: 'hello' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toMatchObject({ empty: false, default_branch: 'trunk' });
    const refs = await git(tempDir(), 'ls-remote', remoteUrl(s, 'alice', 'inited'));
    expect(refs).toMatch(/^[0-9a-f]{40}\tHEAD$/m);
    expect(refs).toMatch(/\trefs\/heads\/trunk$/m);
    expect(refs).not.toMatch(/refs\/heads\/main/);
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'inited'), 'c');
    expect(fs.readFileSync(path.join(dir, 'c', 'README.md'), 'utf8')).toBe('# inited\n\nhello\n');
    expect((await git(path.join(dir, 'c'), 'log', '--format=%s|%an')).trim()).toBe('Initial commit|alice');
  });

  it.each(['a..b', 'has space', '-dash', 'x.lock', 'a~b'])('refuses the invalid default branch %j with 422 (was 500)', async (branch) => {
    const res = await create(as(alice), { name: 'bad-default', default_branch: branch, auto_init: true });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toBe('[default_branch]: invalid branch name');
    expect(fs.existsSync(diskPath('alice', 'bad-default'))).toBe(false);
  });

  it('refuses an unknown readme template (422) when auto_init is set', async () => {
    expect((await create(as(alice), { name: 'bad-readme', auto_init: true, readme: 'Nope' })).status).toBe(422);
    expect(fs.existsSync(diskPath('alice', 'bad-readme'))).toBe(false);
  });

  it('creates private and template repositories', async () => {
    const body = await json(await create(as(alice), { name: 'secret-tpl', private: true, template: true }));
    expect(body).toMatchObject({ private: true, template: true });
    expect((await json(await getRepo('alice/secret-tpl', as(alice))))).toMatchObject({ private: true, template: true });
  });

  it('creates sha256 repositories when git supports them', async () => {
    const probe = await gitTry(tempDir(), 'init', '-q', '--bare', '--object-format=sha256', 'probe.git');
    if (probe.code !== 0) return; // this git has no sha256 support
    const res = await create(as(alice), { name: 'sha256-repo', object_format_name: 'sha256', auto_init: true });
    expect(res.status).toBe(201);
    expect((await json(res)).object_format_name).toBe('sha256');
    const head = (await git(diskPath('alice', 'sha256-repo'), 'rev-parse', 'HEAD')).trim();
    expect(head).toMatch(/^[0-9a-f]{64}$/);
    expect((await git(diskPath('alice', 'sha256-repo'), 'rev-parse', '--show-object-format')).trim()).toBe('sha256');
  });

  it('refuses an unknown object format (422) and leaves nothing on disk', async () => {
    const res = await create(as(alice), { name: 'md5-repo', object_format_name: 'md5' });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toMatch(/object_format_name/);
    expect(fs.existsSync(diskPath('alice', 'md5-repo'))).toBe(false);
  });

  it.each([
    [{ license: 'NOPE-1.0' }, /license/],
    [{ gitignores: 'Nope' }, /gitignore/],
  ])('refuses unknown templates %o (422)', async (extra, message) => {
    const res = await create(as(alice), { name: 'unknown-tpl', auto_init: true, ...extra });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toMatch(message);
    expect(fs.existsSync(diskPath('alice', 'unknown-tpl'))).toBe(false);
  });

  it('needs a signed-in caller (401) and a token with write:repository (403)', async () => {
    expect((await create(undefined, { name: 'anon' })).status).toBe(401);
    const readOnly = await createToken(s, alice, ['read:repository']);
    expect((await create({ token: readOnly }, { name: 'by-token' })).status).toBe(403);
    const writer = await createToken(s, alice, ['write:repository']);
    expect((await create({ token: writer }, { name: 'by-token' })).status).toBe(201);
  });
});

describe('POST /admin/users/{username}/repos', () => {
  const adminCreate = (user: string, body: Record<string, unknown>, auth: Auth = admin()) =>
    s.request(`api/v1/admin/users/${user}/repos`, { method: 'POST', auth, json: body });

  it('creates a repository owned by the user', async () => {
    const res = await adminCreate('bob', { name: 'from-admin', private: true });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectRepository(body);
    expect(body).toMatchObject({ full_name: 'bob/from-admin', private: true, permissions: { admin: true, push: true, pull: true } });
    expect(body.owner.login).toBe('bob');
    expect((await getRepo('bob/from-admin', as(bob))).status).toBe(200);
    expect(fs.existsSync(diskPath('bob', 'from-admin'))).toBe(true);
  });

  it('is for site administrators only (403), for existing users (404), unique names (409)', async () => {
    expect((await adminCreate('bob', { name: 'nope' }, as(alice))).status).toBe(403);
    expect((await adminCreate('nobody', { name: 'nope' })).status).toBe(404);
    expect((await adminCreate('bob', { name: 'from-admin' })).status).toBe(409);
  });
});

describe('GET /repos/{owner}/{repo} and the access rules', () => {
  beforeAll(async () => {
    await createRepo(s, alice, 'open', { auto_init: true });
    await createRepo(s, alice, 'hidden', { auto_init: true, private: true });
  });

  it('shows a public repository to anyone, with read permissions', async () => {
    for (const auth of [undefined, as(bob)]) {
      const res = await getRepo('alice/open', auth);
      expect(res.status).toBe(200);
      const body = await json(res);
      expectRepository(body);
      expect(body.permissions).toEqual({ admin: false, push: false, pull: true });
    }
    expect((await json(await getRepo('alice/open', as(alice)))).permissions).toEqual({ admin: true, push: true, pull: true });
  });

  it('answers 404 for a private repository to anonymous callers and other users', async () => {
    expect((await getRepo('alice/hidden')).status).toBe(404);
    expect((await getRepo('alice/hidden', as(bob))).status).toBe(404);
    expect((await getRepo('alice/hidden', as(alice))).status).toBe(200);
    const viaAdmin = await json(await getRepo('alice/hidden', admin()));
    expect(viaAdmin.permissions).toEqual({ admin: true, push: true, pull: true });
  });

  it('finds repositories case-insensitively and 404s unknown ones', async () => {
    expect((await json(await getRepo('ALICE/Open'))).full_name).toBe('alice/open');
    expect((await getRepo('alice/none')).status).toBe(404);
    expect((await getRepo('nobody/open')).status).toBe(404);
  });

  it('GET /repositories/{id} follows the same rules', async () => {
    const open = await json(await getRepo('alice/open'));
    const hidden = await json(await getRepo('alice/hidden', as(alice)));
    const byId = await s.request(`api/v1/repositories/${open.id}`);
    expect(byId.status).toBe(200);
    expectRepository(await json(byId));
    expect((await s.request(`api/v1/repositories/${hidden.id}`)).status).toBe(404);
    expect((await s.request(`api/v1/repositories/${hidden.id}`, { auth: as(bob) })).status).toBe(404);
    expect((await json(await s.request(`api/v1/repositories/${hidden.id}`, { auth: as(alice) }))).full_name).toBe('alice/hidden');
    expect((await s.request('api/v1/repositories/999999')).status).toBe(404);
  });

  it('refuses private repositories to public-only tokens', async () => {
    const token = await createToken(s, alice, ['read:repository', 'public-only']);
    expect((await getRepo('alice/open', { token })).status).toBe(200);
    expect((await getRepo('alice/hidden', { token })).status).toBe(403);
  });
});

describe('PATCH /repos/{owner}/{repo}', () => {
  it('round-trips every EditRepoOption flag', async () => {
    await createRepo(s, alice, 'flags');
    const change = {
      description: 'changed', website: 'https://example.com/x', private: true, template: true,
      has_code: false, has_issues: false, has_wiki: false, has_pull_requests: false, has_projects: false,
      has_releases: false, has_packages: false, has_actions: false, ignore_whitespace_conflicts: true,
      allow_merge_commits: false, allow_rebase: false, allow_rebase_explicit: false, allow_squash_merge: false,
      allow_fast_forward_only_merge: false, allow_rebase_update: false, allow_manual_merge: true,
      autodetect_manual_merge: true, default_allow_maintainer_edit: true, default_delete_branch_after_merge: true,
      default_merge_style: 'squash', projects_mode: 'repo',
    };
    const res = await edit('alice/flags', change);
    expect(res.status).toBe(200);
    const body = await json(res);
    expectRepository(body);
    expect(body).toMatchObject(change);
    expect(await json(await getRepo('alice/flags', as(alice)))).toMatchObject(change);
    // And back again.
    const back = Object.fromEntries(Object.entries(change).map(([k, v]) => [k, typeof v === 'boolean' ? !v : v]));
    Object.assign(back, { default_merge_style: 'rebase', projects_mode: 'owner', description: '', website: '' });
    expect(await json(await edit('alice/flags', back))).toMatchObject(back);
  });

  it('round-trips the trackers and the external wiki', async () => {
    await createRepo(s, alice, 'trackers');
    const internal = { enable_time_tracker: false, allow_only_contributors_to_track_time: false, enable_issue_dependencies: false };
    expect((await json(await edit('alice/trackers', { internal_tracker: internal }))).internal_tracker).toEqual(internal);
    const external = {
      external_tracker_url: 'https://tracker.example.com', external_tracker_format: 'https://tracker.example.com/{user}/{repo}/{index}',
      external_tracker_style: 'numeric', external_tracker_regexp_pattern: '',
    };
    const wiki = { external_wiki_url: 'https://wiki.example.com' };
    const body = await json(await edit('alice/trackers', { external_tracker: external, external_wiki: wiki }));
    expect(body.external_tracker).toEqual(external);
    expect(body.external_wiki).toEqual(wiki);
    expectRepoShape(body);
  });

  it('validates its input (422)', async () => {
    await createRepo(s, alice, 'validated');
    for (const bad of [{ default_merge_style: 'octopus' }, { projects_mode: 'none' }, { website: 'ftp://x' }, { name: 'a b' }, { name: 'x.git' }, { private: 'yes' }]) {
      expect((await edit('alice/validated', bad)).status, JSON.stringify(bad)).toBe(422);
    }
  });

  it('needs admin access (403 for readers, 401 anonymous)', async () => {
    await createRepo(s, alice, 'guarded');
    expect((await edit('alice/guarded', { description: 'x' }, as(bob))).status).toBe(403);
    expect((await s.request('api/v1/repos/alice/guarded', { method: 'PATCH', json: { description: 'x' } })).status).toBe(401);
    expect((await edit('alice/guarded', { description: 'by admin' }, admin())).status).toBe(200);
  });

  it('renames: the repository moves on disk and the old name answers 307 to the new path', async () => {
    await createRepo(s, alice, 'before', { auto_init: true });
    const res = await edit('alice/before', { name: 'after' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ name: 'after', full_name: 'alice/after', clone_url: `${root()}alice/after.git` });
    expect(fs.existsSync(diskPath('alice', 'before'))).toBe(false);
    expect(fs.existsSync(diskPath('alice', 'after'))).toBe(true);
    const old = await getRepo('alice/before');
    expect(old.status).toBe(307);
    expect(old.headers.get('location')).toBe('/api/v1/repos/alice/after');
    const followed = await s.request('api/v1/repos/alice/before');
    expect((await json(followed)).full_name).toBe('alice/after');
    // The new name clones.
    await git(tempDir(), 'clone', '-q', remoteUrl(s, 'alice', 'after'), 'c');
  });

  it('answers 422 when renaming onto a taken name, as Gitea (was 409)', async () => {
    await createRepo(s, alice, 'taken-a');
    await createRepo(s, alice, 'taken-b');
    const res = await edit('alice/taken-a', { name: 'taken-b' });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toBe('repo name is already taken [name: taken-b]');
  });

  it('allows a case-only rename', async () => {
    await createRepo(s, alice, 'casey');
    expect((await json(await edit('alice/casey', { name: 'Casey' }))).name).toBe('Casey');
    expect((await getRepo('alice/casey')).status).toBe(200);
  });

  it('changes the default branch to an existing branch', async () => {
    await createRepo(s, alice, 'branches', { auto_init: true });
    const created = await s.request('api/v1/repos/alice/branches/branches', {
      method: 'POST', auth: as(alice), json: { new_branch_name: 'dev', old_branch_name: 'main' },
    });
    expect(created.status).toBe(201);
    expect((await json(await edit('alice/branches', { default_branch: 'dev' }))).default_branch).toBe('dev');
    expect((await git(diskPath('alice', 'branches'), 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/dev');
  });

  it('ignores a default branch that does not exist, as Gitea (was 404)', async () => {
    await createRepo(s, alice, 'no-such-default', { auto_init: true });
    const res = await edit('alice/no-such-default', { default_branch: 'ghost', description: 'still applied' });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ default_branch: 'main', description: 'still applied' });
    expect((await git(diskPath('alice', 'no-such-default'), 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/main');
  });

  it('refuses an invalid default branch on an empty repository with 422 (was 500)', async () => {
    await createRepo(s, alice, 'empty-default');
    for (const branch of ['a..b', 'x y', '-x', 'main.lock']) {
      const res = await edit('alice/empty-default', { default_branch: branch });
      expect(res.status, branch).toBe(422);
    }
    // A valid name is taken even before the branch exists: the first push creates it.
    expect((await json(await edit('alice/empty-default', { default_branch: 'dev/next' }))).default_branch).toBe('dev/next');
    expect((await git(diskPath('alice', 'empty-default'), 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/dev/next');
  });

  it('ignores mirror_interval on a repository that is not a mirror, as Gitea (was stored and echoed)', async () => {
    await createRepo(s, alice, 'not-a-mirror');
    const res = await edit('alice/not-a-mirror', { mirror_interval: '8h0m0s', enable_prune: false });
    expect(res.status).toBe(200);
    expect((await json(res)).mirror_interval).toBe('');
  });

  it('archives and unarchives; writes to an archived repository answer 423', async () => {
    await createRepo(s, alice, 'frozen', { auto_init: true });
    const archived = await json(await edit('alice/frozen', { archived: true }));
    expect(archived.archived).toBe(true);
    expect(Date.parse(archived.archived_at)).toBeGreaterThan(Date.now() - 60_000);
    const branch = await s.request('api/v1/repos/alice/frozen/branches', {
      method: 'POST', auth: as(alice), json: { new_branch_name: 'nope', old_branch_name: 'main' },
    });
    expect(branch.status).toBe(423);
    const unarchived = await json(await edit('alice/frozen', { archived: false }));
    expect(unarchived.archived).toBe(false);
    const again = await s.request('api/v1/repos/alice/frozen/branches', {
      method: 'POST', auth: as(alice), json: { new_branch_name: 'now-ok', old_branch_name: 'main' },
    });
    expect(again.status).toBe(201);
  });

  it('edits the settings of an archived repository, as Gitea (was 403)', async () => {
    await createRepo(s, alice, 'frozen-desc');
    await edit('alice/frozen-desc', { archived: true });
    const res = await edit('alice/frozen-desc', { description: 'still editable' });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ archived: true, description: 'still editable' });
  });
});

describe('DELETE /repos/{owner}/{repo}', () => {
  it('removes the row and the directory on disk', async () => {
    await createRepo(s, alice, 'doomed', { auto_init: true });
    expect(fs.existsSync(diskPath('alice', 'doomed'))).toBe(true);
    expect((await s.request('api/v1/repos/alice/doomed', { method: 'DELETE', auth: as(bob) })).status).toBe(403);
    expect((await s.request('api/v1/repos/alice/doomed', { method: 'DELETE' })).status).toBe(401);
    const res = await s.request('api/v1/repos/alice/doomed', { method: 'DELETE', auth: as(alice) });
    expect(res.status).toBe(204);
    expect(fs.existsSync(diskPath('alice', 'doomed'))).toBe(false);
    expect(fs.readdirSync(path.join(s.hearth.config.repository.root, 'alice')).filter((f) => f.startsWith('doomed'))).toEqual([]);
    expect((await getRepo('alice/doomed', as(alice))).status).toBe(404);
    // The name is free again.
    expect((await create(as(alice), { name: 'doomed' })).status).toBe(201);
  });

  it('lets a site administrator delete, and 404s hidden repositories to others', async () => {
    await createRepo(s, alice, 'doomed-private', { private: true });
    expect((await s.request('api/v1/repos/alice/doomed-private', { method: 'DELETE', auth: as(bob) })).status).toBe(404);
    expect((await s.request('api/v1/repos/alice/doomed-private', { method: 'DELETE', auth: admin() })).status).toBe(204);
    expect(fs.existsSync(diskPath('alice', 'doomed-private'))).toBe(false);
  });
});

describe('listing and search', () => {
  let carol: U;
  beforeAll(async () => {
    carol = await createUser(s, 'carol');
    await createRepo(s, carol, 'zeta-public', { description: 'has a needle inside' });
    await createRepo(s, carol, 'zeta-private', { private: true });
    await createRepo(s, carol, 'alpha-public');
  });

  const names = (list: { full_name: string }[]) => list.map((r) => r.full_name);

  it('GET /repos/search answers {ok, data} with the SearchResults shape', async () => {
    const res = await s.request('api/v1/repos/search?q=zeta');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape({ ...body, data: [] }, 'SearchResults');
    expectRepoShape(body.data, true);
    expect(Object.keys(body).sort()).toEqual(['data', 'ok']);
    expect(body.ok).toBe(true);
    expect(names(body.data)).toEqual(['carol/zeta-public']);
    expect(res.headers.get('x-total-count')).toBe('1');
  });

  it('never shows private repositories to anonymous callers', async () => {
    const body = await json(await s.request('api/v1/repos/search?limit=50'));
    expect(body.data.every((r: { private: boolean }) => !r.private)).toBe(true);
    expect(names(body.data)).not.toContain('carol/zeta-private');
  });

  it('hides a private repository from other users, shows it to its owner and admins', async () => {
    const q = 'api/v1/repos/search?q=zeta';
    expect(names((await json(await s.request(q, { auth: as(bob) }))).data)).toEqual(['carol/zeta-public']);
    expect(names((await json(await s.request(q, { auth: as(carol) }))).data).sort()).toEqual(['carol/zeta-private', 'carol/zeta-public']);
    expect(names((await json(await s.request(q, { auth: admin() }))).data)).toContain('carol/zeta-private');
    expect(names((await json(await s.request(`${q}&is_private=true`, { auth: as(carol) }))).data)).toEqual(['carol/zeta-private']);
  });

  it('filters by owner, sorts and searches descriptions', async () => {
    const byOwner = await json(await s.request(`api/v1/repos/search?uid=${carol.id}&sort=alpha&order=desc`, { auth: as(carol) }));
    expect(names(byOwner.data)).toEqual(['carol/zeta-public', 'carol/zeta-private', 'carol/alpha-public']);
    expect((await json(await s.request('api/v1/repos/search?q=needle'))).data).toEqual([]);
    expect(names((await json(await s.request('api/v1/repos/search?q=needle&includeDesc=true'))).data)).toEqual(['carol/zeta-public']);
    expect((await s.request('api/v1/repos/search?sort=bogus')).status).toBe(422);
  });

  it('GET /user/repos lists what the caller owns, private included', async () => {
    const res = await s.request('api/v1/user/repos', { auth: as(carol) });
    expect(res.status).toBe(200);
    const list = await json(res);
    expectRepoShape(list, true);
    expect(names(list).sort()).toEqual(['carol/alpha-public', 'carol/zeta-private', 'carol/zeta-public']);
    expect((await s.request('api/v1/user/repos')).status).toBe(401);
  });

  it('GET /users/{username}/repos shows others only what they may see', async () => {
    const list = async (auth?: Auth) => names(await json(await s.request('api/v1/users/carol/repos', { auth }))).sort();
    expect(await list()).toEqual(['carol/alpha-public', 'carol/zeta-public']);
    expect(await list(as(bob))).toEqual(['carol/alpha-public', 'carol/zeta-public']);
    expect(await list(as(carol))).toEqual(['carol/alpha-public', 'carol/zeta-private', 'carol/zeta-public']);
    expect(await list(admin())).toContain('carol/zeta-private');
    const res = await s.request('api/v1/users/carol/repos');
    expectRepoShape(await json(res), true);
    expect((await s.request('api/v1/users/nobody/repos')).status).toBe(404);
  });

  it('paginates with limit/page and X-Total-Count', async () => {
    const res = await s.request(`api/v1/users/carol/repos?limit=1&page=2`, { auth: as(carol) });
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(names(await json(res))).toEqual(['carol/zeta-private']);
  });
});
