import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, gitTry, tempDir } from '../helpers/git';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { as, createToken, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';
import { eventually } from '../helpers/wait';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;
let rx: Receiver;

const b64 = (t: string) => Buffer.from(t).toString('base64');
const text = (b: string) => Buffer.from(b, 'base64').toString('utf8');
const call = (method: string, p: string, who: Creds | null = alice, body?: unknown) =>
  s.request(`api/v1/repos/${p}`, { method, auth: as(who), ...(body === undefined ? {} : { json: body }) });
const wikiUrl = (owner: string, repo: string, who?: Creds) => {
  const u = new URL(`${owner}/${repo}.wiki.git`, s.hearth.config.server.root_url);
  if (who) [u.username, u.password] = [who.username, who.password];
  return u.toString();
};

beforeAll(async () => {
  s = await startTestServer({ HEARTH__WEBHOOK__ALLOWED_HOST_LIST: 'loopback', HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  rx = await startReceiver();
  await createRepo(s, alice, 'proj', { auto_init: true });
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });
  await ok(await call('PUT', 'alice/proj/collaborators/bob', alice, { permission: 'read' }), 204);
  await ok(await call('POST', 'alice/proj/hooks', alice, {
    type: 'gitea', active: true, config: { url: rx.url, content_type: 'json' }, events: ['wiki'],
  }), 201);
});
afterAll(async () => {
  await s.stop();
  await rx.close();
});

describe('wiki API', () => {
  it('a repository without pages has no wiki yet: 404', async () => {
    expect((await call('GET', 'alice/proj/wiki/pages')).status).toBe(404);
    expect((await call('GET', 'alice/proj/wiki/page/Home')).status).toBe(404);
  });

  it('POST wiki/new creates the first page and the wiki repository beside the repository', async () => {
    const page = await ok(await call('POST', 'alice/proj/wiki/new', alice, { title: 'Home', content_base64: b64('# Welcome\n') }), 201);
    expectShape(page, 'WikiPage');
    expect(page).toMatchObject({
      title: 'Home', sub_url: 'Home', commit_count: 1, sidebar: '', footer: '',
      html_url: `${s.hearth.config.server.root_url}alice/proj/wiki/Home`,
      last_commit: { message: 'Add "Home"\n', author: { name: 'alice', email: 'alice@example.com' }, commiter: { name: 'alice' } },
    });
    expect(text(page.content_base64)).toBe('# Welcome\n');
    expect(fs.existsSync(path.join(s.hearth.config.repository.root, 'alice', 'proj.wiki.git'))).toBe(true);
  });

  it('maps titles to file names as Gitea: spaces to dashes, dashes kept with the ".-" marker, escapes', async () => {
    await ok(await call('POST', 'alice/proj/wiki/new', alice, { title: 'Getting Started', content_base64: b64('start'), message: 'first steps' }), 201);
    const dashed = await ok(await call('POST', 'alice/proj/wiki/new', alice, { title: '2000-01-02 meeting', content_base64: b64('m') }), 201);
    expect(dashed).toMatchObject({ title: '2000-01-02 meeting', sub_url: '2000-01-02+meeting.-' });
    const pct = await ok(await call('POST', 'alice/proj/wiki/new', alice, { title: '100% Free', content_base64: b64('f') }), 201);
    expect(pct).toMatchObject({ title: '100% Free', sub_url: '100%25-Free' });
    const got = await ok(await call('GET', 'alice/proj/wiki/page/100%25-Free'));
    expect(text(got.content_base64)).toBe('f');
    expect((await ok(await call('GET', 'alice/proj/wiki/page/Getting-Started'))).last_commit.message).toBe('first steps\n');
  });

  it('refuses an existing title and reserved names (400), a missing title (400) and bad base64 (400)', async () => {
    expect((await call('POST', 'alice/proj/wiki/new', alice, { title: 'Home', content_base64: b64('x') })).status).toBe(400);
    expect((await call('POST', 'alice/proj/wiki/new', alice, { title: '_pages', content_base64: b64('x') })).status).toBe(400);
    expect((await call('POST', 'alice/proj/wiki/new', alice, { title: '  ', content_base64: b64('x') })).status).toBe(400);
    expect((await call('POST', 'alice/proj/wiki/new', alice, { title: 'Bad', content_base64: '!!!' })).status).toBe(400);
  });

  it('GET wiki/pages lists the pages with their last commits, paged, with X-Total-Count', async () => {
    const res = await call('GET', 'alice/proj/wiki/pages');
    const pages = await ok(res);
    expectShape(pages, '[WikiPageMetaData]');
    expect(pages.map((p: { title: string }) => p.title).sort()).toEqual(['100% Free', '2000-01-02 meeting', 'Getting Started', 'Home']);
    expect(res.headers.get('x-total-count')).toBe('4');
    const second = await ok(await call('GET', 'alice/proj/wiki/pages?page=2&limit=3'));
    expect(second).toHaveLength(1);
  });

  it('PATCH edits in place, renames with a new title, and keeps the name without one; revisions list the history', async () => {
    const edited = await ok(await call('PATCH', 'alice/proj/wiki/page/Home', alice, { content_base64: b64('# Welcome home\n') }));
    expectShape(edited, 'WikiPage');
    expect(edited).toMatchObject({ title: 'Home', commit_count: 2, last_commit: { message: 'Update "Home"\n' } });
    expect(text(edited.content_base64)).toBe('# Welcome home\n');

    const renamed = await ok(await call('PATCH', 'alice/proj/wiki/page/Getting-Started', alice, { title: 'Quick Start', content_base64: b64('go') }));
    expect(renamed).toMatchObject({ title: 'Quick Start', sub_url: 'Quick-Start' });
    expect((await call('GET', 'alice/proj/wiki/page/Getting-Started')).status).toBe(404);

    const revs = await call('GET', 'alice/proj/wiki/revisions/Home');
    const list = await ok(revs);
    expectShape(list, 'WikiCommitList');
    expect(list.count).toBe(2);
    expect(revs.headers.get('x-total-count')).toBe('2');
    expect(list.commits.map((c: { message: string }) => c.message)).toEqual(['Update "Home"\n', 'Add "Home"\n']);
    expect((await call('GET', 'alice/proj/wiki/revisions/Nope')).status).toBe(404);
  });

  it('sidebar and footer come with every page', async () => {
    await ok(await call('POST', 'alice/proj/wiki/new', alice, { title: '_Sidebar', content_base64: b64('side') }), 201);
    await ok(await call('POST', 'alice/proj/wiki/new', alice, { title: '_Footer', content_base64: b64('foot') }), 201);
    const page = await ok(await call('GET', 'alice/proj/wiki/page/Home'));
    expect([text(page.sidebar), text(page.footer)]).toEqual(['side', 'foot']);
  });

  it('DELETE removes a page (204), a missing page is a 404', async () => {
    await ok(await call('DELETE', 'alice/proj/wiki/page/Quick-Start'), 204);
    expect((await call('GET', 'alice/proj/wiki/page/Quick-Start')).status).toBe(404);
    expect((await call('DELETE', 'alice/proj/wiki/page/Quick-Start')).status).toBe(404);
  });

  it('readers read but may not write (403); strangers do not see a private wiki (404)', async () => {
    expect((await call('GET', 'alice/proj/wiki/page/Home', bob)).status).toBe(200);
    expect((await call('GET', 'alice/proj/wiki/page/Home', null)).status).toBe(200);
    expect((await call('POST', 'alice/proj/wiki/new', bob, { title: 'Mine', content_base64: b64('x') })).status).toBe(403);
    expect((await call('PATCH', 'alice/proj/wiki/page/Home', bob, { content_base64: b64('x') })).status).toBe(403);
    expect((await call('DELETE', 'alice/proj/wiki/page/Home', bob)).status).toBe(403);
    expect((await call('POST', 'alice/proj/wiki/new', null, { title: 'Anon', content_base64: b64('x') })).status).toBe(401);
    await ok(await call('POST', 'alice/secret/wiki/new', alice, { title: 'Home', content_base64: b64('hidden') }), 201);
    expect((await call('GET', 'alice/secret/wiki/page/Home', carol)).status).toBe(404);
  });

  it('a token needs the repository scope', async () => {
    const token = await createToken(s, alice, ['read:user']);
    const res = await s.request('api/v1/repos/alice/proj/wiki/pages', { auth: { token } });
    expect(res.status).toBe(403);
  });

  it('each write delivers a wiki webhook event (created, edited, deleted) with page and comment', async () => {
    await eventually(async () => rx.of('wiki').length >= 8, 10_000, 'wiki deliveries');
    const bodies = rx.of('wiki').map((r) => JSON.parse(r.body) as { action: string; page: string; comment: string });
    expect(bodies[0]).toMatchObject({ action: 'created', page: 'Home', comment: 'Add "Home"' });
    expect(bodies).toContainEqual(expect.objectContaining({ action: 'edited', page: 'Quick-Start' }));
    expect(bodies).toContainEqual(expect.objectContaining({ action: 'deleted', page: 'Quick-Start', comment: '' }));
    expect(rx.of('wiki')[0]!.headers['x-gitea-event']).toBe('wiki');
  });
});

describe('the .wiki.git over git HTTP', () => {
  let work: string;

  it('clones with the pages written through the API', async () => {
    work = path.join(tempDir(), 'w');
    await git(path.dirname(work), 'clone', '-q', wikiUrl('alice', 'proj', alice), 'w');
    expect(fs.readFileSync(path.join(work, 'Home.md'), 'utf8')).toBe('# Welcome home\n');
    expect(fs.existsSync(path.join(work, '2000-01-02 meeting.-.md'))).toBe(true);
    expect(fs.existsSync(path.join(work, '100%25-Free.md'))).toBe(true);
  });

  it('a push by a writer shows in the API; a reader\'s push is refused', async () => {
    fs.writeFileSync(path.join(work, 'Pushed-Page.md'), 'from git\n');
    await git(work, 'add', '-A');
    await git(work, '-c', 'user.name=Alice', '-c', 'user.email=alice@example.com', 'commit', '-q', '-m', 'pushed page');
    await git(work, 'push', '-q', 'origin', 'HEAD');
    const page = await ok(await call('GET', 'alice/proj/wiki/page/Pushed-Page'));
    expect(page).toMatchObject({ title: 'Pushed Page', last_commit: { message: 'pushed page\n' } });
    expect(text(page.content_base64)).toBe('from git\n');

    const bobWork = path.join(tempDir(), 'b');
    await git(path.dirname(bobWork), 'clone', '-q', wikiUrl('alice', 'proj', bob), 'b');
    fs.writeFileSync(path.join(bobWork, 'Bob.md'), 'bob\n');
    await git(bobWork, 'add', '-A');
    await git(bobWork, '-c', 'user.name=b', '-c', 'user.email=b@x', 'commit', '-q', '-m', 'bob');
    const refused = await gitTry(bobWork, 'push', '-q', 'origin', 'HEAD');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/403|denied/i);
  });

  it('a stranger cannot clone a private repository\'s wiki', async () => {
    const r = await gitTry(tempDir(), 'clone', '-q', wikiUrl('alice', 'secret', carol), 'x');
    expect(r.code).not.toBe(0);
  });

  it('a push creates the wiki of a repository that has none', async () => {
    await createRepo(s, alice, 'fresh', { auto_init: true });
    const dir = path.join(tempDir(), 'f');
    fs.mkdirSync(dir);
    await git(dir, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(dir, 'Home.md'), 'hello\n');
    await git(dir, 'add', '-A');
    await git(dir, '-c', 'user.name=a', '-c', 'user.email=a@x', 'commit', '-q', '-m', 'init');
    await git(dir, 'push', '-q', wikiUrl('alice', 'fresh', alice), 'main');
    expect(text((await ok(await call('GET', 'alice/fresh/wiki/page/Home'))).content_base64)).toBe('hello\n');
  });

  it('a migration with wiki: true brings the wiki along; without it, none', async () => {
    const cloneAddr = `${s.hearth.config.server.root_url}alice/proj.git`;
    const auth = { auth_username: 'alice', auth_password: alice.password };
    await ok(await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(bob), json: { clone_addr: cloneAddr, repo_name: 'copy', wiki: true, private: true, ...auth },
    }), 201);
    const page = await ok(await call('GET', 'bob/copy/wiki/page/Pushed-Page', bob));
    expect(text(page.content_base64)).toBe('from git\n');
    await ok(await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(bob), json: { clone_addr: cloneAddr, repo_name: 'nowiki', ...auth },
    }), 201);
    expect((await call('GET', 'bob/nowiki/wiki/pages', bob)).status).toBe(404);
    // A source without a wiki: the repository is migrated all the same.
    await createRepo(s, alice, 'plain', { auto_init: true });
    await ok(await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(alice), json: { clone_addr: `${s.hearth.config.server.root_url}alice/plain.git`, repo_name: 'x', wiki: true, ...auth },
    }), 201);
    expect((await call('GET', 'alice/x/wiki/pages')).status).toBe(404);
    expect(fs.existsSync(path.join(s.hearth.config.repository.root, 'alice', 'x.wiki.git'))).toBe(false);
  });

  it('a pull mirror migrated with its wiki keeps the wiki in step at each sync', async () => {
    const cloneAddr = `${s.hearth.config.server.root_url}alice/proj.git`;
    await ok(await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(alice), json: { clone_addr: cloneAddr, repo_name: 'mirrored', wiki: true, mirror: true, auth_username: 'alice', auth_password: alice.password },
    }), 201);
    expect((await call('GET', 'alice/mirrored/wiki/page/Mirrored-Later')).status).toBe(404);
    await ok(await call('POST', 'alice/proj/wiki/new', alice, { title: 'Mirrored Later', content_base64: b64('later') }), 201);
    await ok(await call('POST', 'alice/mirrored/mirror-sync'));
    await eventually(async () => (await call('GET', 'alice/mirrored/wiki/page/Mirrored-Later')).status === 200, 10_000, 'the mirror\'s wiki synced');
  });

  it('has_wiki false: the API answers 404 and git access is refused', async () => {
    await ok(await call('PATCH', 'alice/proj', alice, { has_wiki: false }));
    expect((await call('GET', 'alice/proj/wiki/pages')).status).toBe(404);
    expect((await call('POST', 'alice/proj/wiki/new', alice, { title: 'X', content_base64: b64('x') })).status).toBe(404);
    const r = await gitTry(tempDir(), 'clone', '-q', wikiUrl('alice', 'proj', alice), 'x');
    expect(r.code).not.toBe(0);
    await ok(await call('PATCH', 'alice/proj', alice, { has_wiki: true }));
    expect((await call('GET', 'alice/proj/wiki/pages')).status).toBe(200);
  });

  it('the wiki follows a rename and a transfer, and goes with a deletion', async () => {
    const root = s.hearth.config.repository.root;
    await ok(await call('PATCH', 'alice/proj', alice, { name: 'renamed' }));
    expect(fs.existsSync(path.join(root, 'alice', 'renamed.wiki.git'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'alice', 'proj.wiki.git'))).toBe(false);
    expect((await call('GET', 'alice/renamed/wiki/page/Home')).status).toBe(200);

    await ok(await s.request('api/v1/orgs', { method: 'POST', auth: as(alice), json: { username: 'acme' } }), 201);
    await ok(await call('POST', 'alice/renamed/transfer', alice, { new_owner: 'acme' }), 202);
    expect(fs.existsSync(path.join(root, 'acme', 'renamed.wiki.git'))).toBe(true);
    expect((await call('GET', 'acme/renamed/wiki/page/Home')).status).toBe(200);

    await ok(await call('DELETE', 'acme/renamed'), 204);
    expect(fs.existsSync(path.join(root, 'acme', 'renamed.wiki.git'))).toBe(false);
  });
});
