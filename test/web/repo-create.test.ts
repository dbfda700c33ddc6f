import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { addTeam, createOrg } from '../helpers/orgs';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// /repo/create and /{owner}/{repo}/fork: the owners offered (the user and the organizations
// they may create in), the form's choices reaching the same services as the API, errors beside
// their fields, and nothing made by a refused post.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds;
let bob: Creds;
let acme = 0; // alice owns it
let beta = 0; // alice only reads there
const root = () => s.hearth.config.server.root_url;
const api = (p: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${p}`, init);
const exists = async (full: string) => (await api(`repos/${full}`, { auth: as(alice) })).status === 200;

async function signedIn(u: Creds): Promise<WebClient> {
  const c = new WebClient(s);
  await c.signIn(u.username, u.password);
  return c;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  acme = (await createOrg(s, alice, 'acme')).id;
  beta = (await createOrg(s, bob, 'beta')).id;
  await addTeam(s, beta, 'readers', { mode: 1, uids: [alice.id] });
});
afterAll(async () => { await s.stop(); });

describe('/repo/create', () => {
  it('sends a browser without a session to sign in', async () => {
    const res = await new WebClient(s).get('repo/create');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}user/login?redirect_to=%2Frepo%2Fcreate`);
  });

  it('offers the user and the organizations they may create in', async () => {
    const c = await signedIn(alice);
    const form = await (await c.get('repo/create')).text();
    expect(form).toContain(`<option value="${alice.id}" selected>alice</option>`);
    expect(form).toContain(`<option value="${acme}">acme</option>`);
    expect(form).not.toContain(`<option value="${beta}">`);
    expect(form).toContain('<option value="MIT">MIT</option>');
    expect(form).toContain('<option value="Default">Default</option>');
  });

  it('creates a repository with a README, .gitignore, licence and labels, through the API\'s service', async () => {
    const c = await signedIn(alice);
    const res = await c.post('repo/create', {
      uid: String(alice.id), repo_name: 'fresh', description: 'Made <here>', private: 'on', template: 'on', auto_init: 'on',
      readme: 'Default', gitignores: 'Node', license: 'MIT', issue_labels: 'Default', default_branch: 'trunk',
    }, { from: 'repo/create' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}alice/fresh`);
    const repo = await json(await api('repos/alice/fresh', { auth: as(alice) }));
    expect(repo).toMatchObject({ private: true, template: true, default_branch: 'trunk', description: 'Made <here>', empty: false });
    const files = (await json(await api('repos/alice/fresh/contents', { auth: as(alice) }))).map((f: { name: string }) => f.name);
    expect(files).toEqual(['.gitignore', 'LICENSE', 'README.md']);
    const labels = await json(await api('repos/alice/fresh/labels', { auth: as(alice) }));
    expect(labels.map((l: { name: string }) => l.name)).toContain('bug');
    // The page it leads to answers.
    expect((await c.get('alice/fresh')).status).toBe(200);
  });

  it('creates in an organization, and refuses one the user may not create in', async () => {
    const c = await signedIn(alice);
    const res = await c.post('repo/create', { uid: String(acme), repo_name: 'tools' }, { from: 'repo/create' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}acme/tools`);
    const forged = await c.post('repo/create', { uid: String(beta), repo_name: 'sneak' }, { from: 'repo/create' });
    expect(forged.status).toBe(422);
    expect(await forged.text()).toContain('id="f-uid-error">Choose an owner you may create repositories for.');
    expect(await exists('beta/sneak')).toBe(false);
  });

  it('says what is wrong with a name, beside it, keeping the values', async () => {
    await createRepo(s, alice, 'taken');
    const c = await signedIn(alice);
    const dup = await c.post('repo/create', { uid: String(alice.id), repo_name: 'taken', description: 'kept' }, { from: 'repo/create' });
    expect(dup.status).toBe(422);
    const html = await dup.text();
    expect(html).toContain('id="f-repo_name-error">The repository with the same name already exists.');
    expect(html).toContain('name="description" type="text" value="kept"');
    const bad = await c.post('repo/create', { uid: String(alice.id), repo_name: 'no spaces' }, { from: 'repo/create' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('id="f-repo_name-error"');
    expect(await exists('alice/no spaces')).toBe(false);
  });

  it('starts from a template repository', async () => {
    await createRepo(s, alice, 'tmpl', { auto_init: true, template: true, license: 'MIT' });
    const id = (await json(await api('repos/alice/tmpl', { auth: as(alice) }))).id;
    const c = await signedIn(alice);
    const form = await (await c.get('repo/create')).text();
    expect(form).toContain(`<option value="${id}">alice/tmpl</option>`);
    const res = await c.post('repo/create', { uid: String(alice.id), repo_name: 'from-tmpl', repo_template: String(id) }, { from: 'repo/create' });
    expect(res.status).toBe(303);
    const files = (await json(await api('repos/alice/from-tmpl/contents', { auth: as(alice) }))).map((f: { name: string }) => f.name);
    expect(files).toEqual(['LICENSE', 'README.md']);
  });

  it('refuses a post without its CSRF token, and makes nothing', async () => {
    const c = await signedIn(alice);
    const res = await c.post('repo/create', { uid: String(alice.id), repo_name: 'forged' }, { csrf: false });
    expect(res.status).toBe(403);
    expect(await exists('alice/forged')).toBe(false);
  });

  it('gives the API\'s issue_labels the label set, as Gitea', async () => {
    await ok(await api('user/repos', { method: 'POST', auth: as(alice), json: { name: 'labelled', issue_labels: 'Default' } }), 201);
    expect((await json(await api('repos/alice/labelled/labels', { auth: as(alice) }))).length).toBeGreaterThan(3);
    const bad = await api('user/repos', { method: 'POST', auth: as(alice), json: { name: 'unlabelled', issue_labels: 'Nope' } });
    expect(bad.status).toBe(422);
    expect(await exists('alice/unlabelled')).toBe(false);
  });
});

describe('/{owner}/{repo}/fork', () => {
  it('forks for the user or an organization, once', async () => {
    await createRepo(s, alice, 'forkme', { auto_init: true });
    const c = await signedIn(bob);
    const form = await (await c.get('alice/forkme/fork')).text();
    expect(form).toContain(`<option value="${bob.id}" selected>bob</option>`);
    expect(form).toContain(`<option value="${beta}">beta</option>`);
    expect(form).toContain('name="repo_name" type="text" value="forkme"');
    const res = await c.post('alice/forkme/fork', { uid: String(bob.id), repo_name: 'my-fork' }, { from: 'alice/forkme/fork' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}bob/my-fork`);
    expect((await json(await api('repos/bob/my-fork', { auth: as(bob) }))).parent.full_name).toBe('alice/forkme');
    const again = await c.post('alice/forkme/fork', { uid: String(bob.id), repo_name: 'second' }, { from: 'alice/forkme/fork' });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain('repository is already forked by user');
  });

  it('is a 404 for a repository the user may not see', async () => {
    await createRepo(s, alice, 'private-fork', { auto_init: true, private: true });
    const c = await signedIn(bob);
    expect((await c.get('alice/private-fork/fork')).status).toBe(404);
  });
});
