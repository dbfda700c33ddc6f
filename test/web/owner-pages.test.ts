import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, type Creds } from '../helpers/issue-fixtures';
import { createOrg } from '../helpers/orgs';
import { type Auth, createToken, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// The home page, profiles, organization teams and releases pages: every html_url the API hands
// out for users, organizations and releases answers a page, hidden things are 404.

let s: TestServer;
let alice: Creds; // owns the repositories and the organizations
let bob: Creds; // on acme's `Devs` team
let eve: Creds; // outsider
let hidden: Creds; // a private user
let rita: Creds; // reads only the releases of acme/vault
let root: string;

const XSS = '<script>x</script>';
const api = (p: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${p}`, init);


const page = async (url: string, auth?: Auth) => {
  const res = await s.request(url.startsWith(root) ? url.slice(root.length) : url, { auth, redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
};

const release = (repo: string, body: Record<string, unknown>) =>
  api(`repos/alice/${repo}/releases`, { method: 'POST', auth: as(alice), json: body }).then((r) => ok(r, 201));

let published: { html_url: string; zipball_url: string; tarball_url: string; assets: { browser_download_url: string }[] };
let draft: { html_url: string };
let slashed: { html_url: string };

beforeAll(async () => {
  s = await startTestServer();
  root = s.hearth.config.server.root_url;
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
  bob = await createUser(s, 'bob');
  eve = await createUser(s, 'eve');
  hidden = await createUser(s, 'hidden', { visibility: 'private' });
  rita = await createUser(s, 'rita');
  await ok(await api('user/settings', { method: 'PATCH', auth: as(alice), json: { description: XSS, website: 'https://example.com/a', location: 'Oxford' } }));
  await createRepo(s, alice, 'pub', { auto_init: true, description: XSS });
  await createRepo(s, alice, 'secret-repo', { auto_init: true, private: true });
  await createOrg(s, alice, 'acme', { description: XSS, email: 'acme@example.com' });
  await createOrg(s, alice, 'shadow', { visibility: 'private' });
  await ok(await api('orgs/acme/repos', { method: 'POST', auth: as(alice), json: { name: 'tools' } }), 201);
  const devs = await ok(await api('orgs/acme/teams', { method: 'POST', auth: as(alice), json: { name: 'Devs', description: XSS, permission: 'write', units: ['repo.code', 'repo.releases'] } }), 201);
  await ok(await api(`teams/${devs.id}/members/bob`, { method: 'PUT', auth: as(alice) }), 204);
  await ok(await api(`teams/${devs.id}/repos/acme/tools`, { method: 'PUT', auth: as(alice) }), 204);
  await ok(await api('orgs/acme/teams', { method: 'POST', auth: as(alice), json: { name: 'Hush', permission: 'read', units: ['repo.code'], visibility: 'private' } }), 201);
  await ok(await api('orgs/acme/repos', { method: 'POST', auth: as(alice), json: { name: 'vault', private: true, auto_init: true } }), 201);
  const readers = await ok(await api('orgs/acme/teams', { method: 'POST', auth: as(alice), json: { name: 'Readers', permission: 'read', units: ['repo.releases'] } }), 201);
  await ok(await api(`teams/${readers.id}/members/rita`, { method: 'PUT', auth: as(alice) }), 204);
  await ok(await api(`teams/${readers.id}/repos/acme/vault`, { method: 'PUT', auth: as(alice) }), 204);
  await ok(await api('repos/acme/vault/releases', { method: 'POST', auth: as(alice), json: { tag_name: 'v9', name: 'Vaulted' } }), 201);

  published = await release('pub', { tag_name: 'v1.0', name: 'First', body: `**bold** ${XSS}` });
  const form = new FormData();
  form.append('attachment', new Blob(['binary']), 'tool.bin');
  const id = (published as unknown as { id: number }).id;
  const asset = await ok(await api(`repos/alice/pub/releases/${id}/assets`, { method: 'POST', auth: as(alice), body: form }), 201);
  published = { ...published, assets: [asset] };
  draft = await release('pub', { tag_name: 'v2.0', name: 'Unfinished', draft: true });
  slashed = await release('pub', { tag_name: 'release/v1', name: 'Slashy', prerelease: true });
});
afterAll(async () => { await s.stop(); });

describe('GET / (home)', () => {
  it('lists public repositories to anonymous visitors, not private ones', async () => {
    const p = await page('');
    expect(p.status).toBe(200);
    expect(p.type).toMatch(/^text\/html/);
    expect(p.html).toContain(`href="${root}alice/pub"`);
    expect(p.html).toContain(`href="${root}acme/tools"`);
    expect(p.html).not.toContain('secret-repo');
    expect(p.html).not.toContain('Signed in as');
  });

  it('greets a signed-in viewer and lists what they may see', async () => {
    const p = await page('', as(alice));
    expect(p.html).toContain('<h1>Dashboard</h1>');
    expect(p.html).toContain(`href="${root}alice/secret-repo"`);
    expect((await page('', as(eve))).html).not.toContain('secret-repo');
  });

  it('shows a token without read:repository the anonymous page', async () => {
    const token = await createToken(s, alice, ['read:user']);
    expect((await page('', { token })).html).not.toContain('secret-repo');
  });
});

describe('GET /{username}', () => {
  it("answers the user's html_url with the profile, escaped", async () => {
    const user = await ok(await api('users/alice'));
    const p = await page(user.html_url);
    expect(p.status).toBe(200);
    expect(p.html).toContain(`src="${user.avatar_url}"`);
    expect(p.html).toContain('Alice Liddell');
    expect(p.html).toContain('Oxford');
    expect(p.html).toContain('href="https://example.com/a"');
    expect(p.html).toContain('Joined <time');
    expect(p.html).toContain(`href="${root}alice/pub"`);
    expect(p.html).not.toContain('secret-repo');
    expect(p.html).not.toContain(XSS);
    expect(p.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect((await page(user.html_url, as(alice))).html).toContain('secret-repo');
  });

  it('hides private users from those who may not see them (404)', async () => {
    expect((await page('hidden')).status).toBe(404);
    expect((await page('hidden', as(eve))).status).toBe(404);
    expect((await page('hidden', as(hidden))).status).toBe(200);
    expect((await page('hidden', as(s.admin))).status).toBe(200);
  });
});

describe('GET /{org}', () => {
  it('shows an organization (Organization JSON has no html_url: its /{org} page)', async () => {
    const org = await ok(await api('orgs/acme'));
    const p = await page(org.html_url ?? `${root}acme`);
    expect(p.status).toBe(200);
    expect(p.html).toContain(`src="${org.avatar_url}"`);
    expect(p.html).toContain(`href="${root}acme/tools"`);
    expect(p.html).not.toContain(XSS);
    expect(p.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(p.html).not.toContain('/org/acme/teams');
    expect((await page('acme', as(bob))).html).toContain(`href="${root}org/acme/teams"`);
  });

  it('hides a private organization from anonymous visitors and outsiders (404)', async () => {
    expect((await page('shadow')).status).toBe(404);
    expect((await page('shadow', as(eve))).status).toBe(404);
    expect((await page('shadow', as(alice))).status).toBe(200);
    expect((await page('nobody-at-all')).status).toBe(404);
  });
});

describe('GET /org/{org}/teams and /org/{org}/teams/{team}', () => {
  it('lists teams to members and site admins', async () => {
    const p = await page('org/acme/teams', as(bob));
    expect(p.status).toBe(200);
    expect(p.html).toContain(`href="${root}org/acme/teams/devs"`);
    expect(p.html).not.toContain('Hush'); // private, and bob is not on it
    expect(p.html).not.toContain(XSS);
    const owner = await page('org/acme/teams', as(alice));
    expect(owner.html).toContain('Hush');
    expect(owner.html).toContain('Owners');
    expect((await page('org/acme/teams', as(s.admin))).status).toBe(200);
  });

  it('shows one team by its lower-cased name with members, units and repositories', async () => {
    const p = await page('org/acme/teams/devs', as(bob));
    expect(p.status).toBe(200);
    expect(p.html).toContain(`href="${root}bob"`);
    expect(p.html).toContain(`href="${root}acme/tools"`);
    expect(p.html).toContain('<code>repo.releases</code>: write');
    expect(p.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(p.html).not.toContain(XSS);
  });

  it.each([
    ['org/acme/teams', undefined], ['org/acme/teams', 'eve'], ['org/acme/teams/devs', undefined], ['org/acme/teams/devs', 'eve'],
    ['org/acme/teams/hush', 'bob'], ['org/acme/teams/nope', 'alice'], ['org/shadow/teams', 'eve'], ['org/nobody/teams', 'alice'],
  ])('answers %s as %s with 404', async (path, who) => {
    const p = await page(path, who === 'eve' ? as(eve) : who === 'bob' ? as(bob) : who === 'alice' ? as(alice) : undefined);
    expect(p.status).toBe(404);
    expect(p.html).toContain('Page Not Found');
  });
});

describe('GET /{owner}/{repo}/releases and /releases/tag/{tag}', () => {
  it("answers a release's html_url, zipball_url, tarball_url and asset link", async () => {
    const p = await page(published.html_url);
    expect(p.status).toBe(200);
    expect(p.html).toContain('<strong>bold</strong>');
    expect(p.html).not.toContain(XSS);
    expect(p.html).toContain(`href="${published.zipball_url}"`);
    expect(p.html).toContain(`href="${published.assets[0]!.browser_download_url}"`);
    expect(p.html).toContain('class="active"'); // the releases tab of the repository header
    for (const url of [published.zipball_url, published.tarball_url, published.assets[0]!.browser_download_url]) {
      const res = await s.request(url.slice(root.length));
      expect(res.status, url).toBe(200);
      await res.arrayBuffer();
    }
  });

  it('shows a draft only to those who may write releases', async () => {
    expect((await page(draft.html_url)).status).toBe(404);
    expect((await page(draft.html_url, as(eve))).status).toBe(404);
    const p = await page(draft.html_url, as(alice));
    expect(p.status).toBe(200);
    expect(p.html).toContain('Draft');
    expect(p.html).not.toContain('/archive/'); // a draft has no tag yet
    expect((await page('alice/pub/releases')).html).not.toContain('Unfinished');
    expect((await page('alice/pub/releases', as(alice))).html).toContain('Unfinished');
  });

  it('takes tags with slashes', async () => {
    expect(slashed.html_url).toBe(`${root}alice/pub/releases/tag/release/v1`);
    const p = await page(slashed.html_url);
    expect(p.status).toBe(200);
    expect(p.html).toContain('Slashy');
    expect(p.html).toContain('Pre-release');
    expect((await page('alice/pub/releases')).html).toContain(`href="${slashed.html_url}"`);
  });

  it('lists releases newest first with archive links', async () => {
    const p = await page('alice/pub/releases');
    expect(p.status).toBe(200);
    expect(p.html.indexOf('Slashy')).toBeLessThan(p.html.indexOf('First'));
    expect(p.html).toContain(`href="${root}alice/pub/archive/v1.0.tar.gz"`);
    expect(p.html).toContain(`href="${root}alice/pub/archive/release/v1.zip"`);
  });

  it('pages by 10', async () => {
    await createRepo(s, alice, 'many', { auto_init: true });
    for (let i = 1; i <= 11; i++) await release('many', { tag_name: `t${i}`, name: `Rel-${i}.` });
    const first = await page('alice/many/releases');
    expect(first.html.match(/<article class="release">/g)).toHaveLength(10);
    expect(first.html).toContain(`href="${root}alice/many/releases?page=2"`);
    const second = await page('alice/many/releases?page=2');
    expect(second.html.match(/<article class="release">/g)).toHaveLength(1);
    expect(second.html).toContain('rel="prev"');
  });

  it('shows the notes as last saved, edits within one second included', async () => {
    await createRepo(s, alice, 'edited', { auto_init: true });
    const rel = await release('edited', { tag_name: 'v1', name: 'Edited', body: 'notes **zero**' });
    expect((await page('alice/edited/releases')).html).toContain('notes <strong>zero</strong>');
    // Edits follow each other within a second (one update time): each page shows its own text,
    // never the rendering cached for the one before.
    for (const word of ['one', 'two', 'three']) {
      await ok(await api(`repos/alice/edited/releases/${rel.id}`, { method: 'PATCH', auth: as(alice), json: { body: `notes **${word}**` } }));
      expect((await page('alice/edited/releases')).html).toContain(`notes <strong>${word}</strong>`);
      expect((await page('alice/edited/releases/tag/v1')).html).toContain(`notes <strong>${word}</strong>`);
    }
  });

  it.each(['alice/pub/releases/tag/nope', 'alice/secret-repo/releases', 'alice/pub/releases/tag/release'])('answers %s with 404', async (path) => {
    expect((await page(path)).status).toBe(404);
  });

  it('shows releases without source links to a team that reads releases but not code', async () => {
    const p = await page('acme/vault/releases', as(rita));
    expect(p.status).toBe(200);
    expect(p.html).toContain('Vaulted');
    expect(p.html).not.toContain('/archive/');
    expect((await page('acme/vault/releases', as(alice))).html).toContain(`href="${root}acme/vault/archive/v9.zip"`);
    expect((await page('acme/vault/releases', as(eve))).status).toBe(404);
  });

  it('hides the releases of a private repository and shows them to its owner', async () => {
    expect((await page('alice/secret-repo/releases', as(eve))).status).toBe(404);
    expect((await page('alice/secret-repo/releases', as(alice))).status).toBe(200);
  });
});
