import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // write collaborator
let carol: Creds; // read collaborator
let eve: Creds; // outsider

const call = (p: string, method = 'GET', body?: unknown, who: Creds | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { method, auth: as(who), json: body });


/** refs/tags/* as the git CLI sees them over smart HTTP: name → object id. */
async function remoteTags(repo: string): Promise<Map<string, string>> {
  const out = await git(tempDir(), 'ls-remote', '--tags', remoteUrl(s, 'alice', repo, alice.username, alice.password));
  return new Map(out.split('\n').filter(Boolean).map((l) => {
    const [id, ref] = l.split('\t') as [string, string];
    return [ref.slice('refs/tags/'.length), id];
  }));
}

const headOf = async (repo: string) => (await ok(await call(`${repo}/branches/main`))).commit.id as string;
const counter = async (repo: string) => (await ok(await call(repo))).release_counter as number;

function upload(p: string, data: string | Uint8Array, name: string, who: Creds | null = alice) {
  const form = new FormData();
  form.append('attachment', new Blob([data]), name);
  return s.request(`api/v1/repos/alice/${p}`, { method: 'POST', auth: as(who), body: form });
}

const uploadRaw = (p: string, data: string | Uint8Array, type = 'application/octet-stream', who: Creds | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { method: 'POST', auth: as(who), body: data, headers: { 'Content-Type': type } });

beforeAll(async () => {
  // 1 MiB limit, so the oversize cases stay small.
  s = await startTestServer({ HEARTH__ATTACHMENT__MAX_SIZE: '1' });
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  eve = await createUser(s, 'eve');
  for (const name of ['pub', 'priv']) {
    await createRepo(s, alice, name, { auto_init: true, private: name === 'priv' });
    await ok(await call(`${name}/collaborators/bob`, 'PUT', { permission: 'write' }), 204);
    await ok(await call(`${name}/collaborators/carol`, 'PUT', { permission: 'read' }), 204);
  }
  await createRepo(s, alice, 'empty');
});
afterAll(async () => { await s.stop(); });

describe('creating releases', () => {
  it('creates the tag from the default branch (201), seen by git ls-remote', async () => {
    const head = await headOf('pub');
    const body = await ok(await call('pub/releases', 'POST', { tag_name: 'v1.0', name: 'First', body: 'notes' }), 201);
    expectShape(body, 'Release');
    const root = s.hearth.config.server.root_url;
    expect(body).toMatchObject({
      tag_name: 'v1.0', target_commitish: 'main', name: 'First', body: 'notes', draft: false, prerelease: false,
      url: `${root}api/v1/repos/alice/pub/releases/${body.id}`,
      html_url: `${root}alice/pub/releases/tag/v1.0`,
      tarball_url: `${root}alice/pub/archive/v1.0.tar.gz`,
      zipball_url: `${root}alice/pub/archive/v1.0.zip`,
      upload_url: `${root}api/v1/repos/alice/pub/releases/${body.id}/assets`,
      assets: [],
    });
    expect(body.author.login).toBe('alice');
    expect(body.published_at).toBe(body.created_at);
    expect((await remoteTags('pub')).get('v1.0')).toBe(head);
    expect(await counter('pub')).toBe(1);
  });

  it('makes an annotated tag when tag_message is given', async () => {
    const body = await ok(await call('pub/releases', 'POST', { tag_name: 'v1.1', tag_message: 'Tagged\n', target_commitish: 'main' }), 201);
    expectShape(body, 'Release');
    const tags = await remoteTags('pub');
    expect(tags.get('v1.1^{}')).toBe(await headOf('pub'));
    expect(tags.get('v1.1')).not.toBe(tags.get('v1.1^{}'));
  });

  it('releases an existing tag', async () => {
    await ok(await call('pub/tags', 'POST', { tag_name: 'old-tag' }), 201);
    const body = await ok(await call('pub/releases', 'POST', { tag_name: 'old-tag', name: 'from a tag' }), 201);
    expect(body.tag_name).toBe('old-tag');
  });

  it('refuses a second release of a tag (409), unknown targets (404), empty repositories and bad names (422)', async () => {
    expect((await call('pub/releases', 'POST', { tag_name: 'v1.0' })).status).toBe(409);
    expect((await call('pub/releases', 'POST', { tag_name: 'V1.0' })).status).toBe(409);
    expect((await call('pub/releases', 'POST', { tag_name: 'nope', target_commitish: 'ghost' })).status).toBe(404);
    expect((await call('empty/releases', 'POST', { tag_name: 'v1' })).status).toBe(422);
    expect((await call('pub/releases', 'POST', { tag_name: 'a..b' })).status).toBe(422);
    expect((await call('pub/releases', 'POST', {})).status).toBe(422);
    expect((await remoteTags('pub')).has('nope')).toBe(false);
  });

  it('needs write on releases: readers 403, anonymous 401, outsiders of a private repository 404', async () => {
    expect((await call('pub/releases', 'POST', { tag_name: 'x1' }, carol)).status).toBe(403);
    expect((await call('pub/releases', 'POST', { tag_name: 'x1' }, null)).status).toBe(401);
    expect((await call('priv/releases', 'POST', { tag_name: 'x1' }, eve)).status).toBe(404);
  });
});

describe('drafts, prereleases and listing', () => {
  let draftId: number;

  it('a draft creates no tag and is seen only by writers', async () => {
    const before = await counter('pub');
    const body = await ok(await call('pub/releases', 'POST', { tag_name: 'v2.0', name: 'Draft', draft: true }, bob), 201);
    expectShape(body, 'Release');
    expect(body).toMatchObject({ draft: true, tag_name: 'v2.0' });
    draftId = body.id;
    expect((await remoteTags('pub')).has('v2.0')).toBe(false);
    expect(await counter('pub')).toBe(before);

    const forCarol = await ok(await call('pub/releases', 'GET', undefined, carol));
    expectShape(forCarol, '[Release]');
    expect(forCarol.map((r: { tag_name: string }) => r.tag_name)).not.toContain('v2.0');
    const forBob = await ok(await call('pub/releases', 'GET', undefined, bob));
    expect(forBob.map((r: { tag_name: string }) => r.tag_name)).toContain('v2.0');
    expect((await call(`pub/releases/${draftId}`, 'GET', undefined, carol)).status).toBe(404);
    expect((await call('pub/releases/tags/v2.0', 'GET', undefined, carol)).status).toBe(404);
    expect((await ok(await call(`pub/releases/${draftId}`, 'GET', undefined, bob))).draft).toBe(true);
    const drafts = await ok(await call('pub/releases?draft=true', 'GET', undefined, bob));
    expect(drafts.map((r: { id: number }) => r.id)).toEqual([draftId]);
  });

  it('filters prereleases and pages with X-Total-Count', async () => {
    await ok(await call('pub/releases', 'POST', { tag_name: 'v3.0-rc1', prerelease: true }), 201);
    const pre = await ok(await call('pub/releases?pre-release=true'));
    expect(pre.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v3.0-rc1']);
    const res = await call('pub/releases?limit=1&page=2', 'GET', undefined, carol);
    const page = await ok(res);
    expect(page).toHaveLength(1);
    // Published: v1.0, v1.1, old-tag, v3.0-rc1; the draft counts only for writers.
    expect(res.headers.get('X-Total-Count')).toBe('4');
    expect((await call('pub/releases?limit=1', 'GET', undefined, bob)).headers.get('X-Total-Count')).toBe('5');
    expect(res.headers.get('Link')).toContain('rel="next"');
  });

  it('latest is the newest release that is neither a draft nor a prerelease', async () => {
    const latest = await ok(await call('pub/releases/latest', 'GET', undefined, carol));
    expectShape(latest, 'Release');
    expect(latest.tag_name).toBe('old-tag');
    expect((await call('empty/releases/latest')).status).toBe(404);
  });

  it('publishing a draft creates its tag and counts it', async () => {
    const before = await counter('pub');
    const body = await ok(await call(`pub/releases/${draftId}`, 'PATCH', { draft: false, body: 'now out' }, bob));
    expectShape(body, 'Release');
    expect(body).toMatchObject({ draft: false, name: 'Draft', body: 'now out' });
    expect((await remoteTags('pub')).get('v2.0')).toBe(await headOf('pub'));
    expect(await counter('pub')).toBe(before + 1);
    expect((await ok(await call('pub/releases/latest'))).tag_name).toBe('v2.0');
  });

  it('edits keep what is not given, and 404 for unknown ids', async () => {
    const body = await ok(await call(`pub/releases/${draftId}`, 'PATCH', { name: '', prerelease: true }));
    expect(body).toMatchObject({ name: 'Draft', body: 'now out', prerelease: true });
    expect((await call('pub/releases/999999', 'PATCH', { name: 'x' })).status).toBe(404);
    expect((await call(`pub/releases/${draftId}`, 'PATCH', { name: 'x' }, carol)).status).toBe(403);
  });
});

describe('by tag and deletion', () => {
  it('gets a release by its tag', async () => {
    const body = await ok(await call('pub/releases/tags/v1.0', 'GET', undefined, carol));
    expectShape(body, 'Release');
    expect(body.name).toBe('First');
    expect((await call('pub/releases/tags/ghost')).status).toBe(404);
  });

  it('the tag API refuses to delete a tag with a release (409)', async () => {
    expect((await call('pub/tags/v1.0', 'DELETE')).status).toBe(409);
  });

  it('deleting a release keeps its tag; the tag can be released again', async () => {
    const rel = await ok(await call('pub/releases/tags/v1.0'));
    const before = await counter('pub');
    await ok(await call(`pub/releases/${rel.id}`, 'DELETE'), 204);
    expect((await call(`pub/releases/${rel.id}`)).status).toBe(404);
    expect((await call('pub/releases/tags/v1.0')).status).toBe(404);
    expect((await remoteTags('pub')).has('v1.0')).toBe(true);
    expect(await counter('pub')).toBe(before - 1);
    const again = await ok(await call('pub/releases', 'POST', { tag_name: 'v1.0', name: 'Again' }), 201);
    expect(again.name).toBe('Again');
    expect(await counter('pub')).toBe(before);
  });

  it('DELETE .../releases/tags/{tag} keeps the tag, and then the tag API may delete it', async () => {
    await ok(await call('pub/releases/tags/old-tag', 'DELETE'), 204);
    expect((await call('pub/releases/tags/old-tag', 'DELETE')).status).toBe(404);
    expect((await remoteTags('pub')).has('old-tag')).toBe(true);
    await ok(await call('pub/tags/old-tag', 'DELETE'), 204);
    expect((await remoteTags('pub')).has('old-tag')).toBe(false);
    // The tag is gone with its tag-only row: a new release creates it afresh.
    await ok(await call('pub/releases', 'POST', { tag_name: 'old-tag' }), 201);
    expect((await remoteTags('pub')).has('old-tag')).toBe(true);
  });
});

describe('pushes', () => {
  it('a tag deleted by a push turns its release into a draft; pushing it again follows the new commit', async () => {
    const before = await counter('pub');
    const url = remoteUrl(s, 'alice', 'pub', alice.username, alice.password);
    const wt = tempDir();
    await git(wt, 'clone', '-q', url, '.');
    await git(wt, 'push', '-q', 'origin', ':refs/tags/v1.1');
    const rel = await ok(await call('pub/releases/tags/v1.1'));
    expect(rel.draft).toBe(true);
    expect(await counter('pub')).toBe(before - 1);
    expect((await call('pub/releases/tags/v1.1', 'GET', undefined, carol)).status).toBe(404);

    await git(wt, 'commit', '-q', '--allow-empty', '-m', 'next');
    await git(wt, 'tag', '-f', 'v1.1');
    await git(wt, 'push', '-q', 'origin', 'HEAD:main', 'refs/tags/v1.1');
    // Still a draft (as Gitea): publishing it keeps the pushed tag.
    const published = await ok(await call(`pub/releases/${rel.id}`, 'PATCH', { draft: false }));
    expect(published.draft).toBe(false);
    expect((await remoteTags('pub')).get('v1.1')).toBe((await git(wt, 'rev-parse', 'HEAD')).trim());
    expect(await counter('pub')).toBe(before);
  });
});

describe('assets', () => {
  let relId: number;
  let assetId: number;
  let url: string;

  beforeAll(async () => {
    relId = (await ok(await call('pub/releases', 'POST', { tag_name: 'v4.0' }), 201)).id;
  });

  it('uploads a multipart file (201)', async () => {
    const body = await ok(await upload(`pub/releases/${relId}/assets`, 'binary-bytes', 'app.bin'), 201);
    expectShape(body, 'Attachment');
    expect(body).toMatchObject({ name: 'app.bin', size: 12, download_count: 0 });
    expect(body.browser_download_url).toBe(`${s.hearth.config.server.root_url}alice/pub/releases/download/v4.0/app.bin`);
    assetId = body.id;
    url = body.browser_download_url;
  });

  it('uploads a raw body named by ?name= (201), whatever its type', async () => {
    const raw = await ok(await uploadRaw(`pub/releases/${relId}/assets?name=raw.tar.gz`, 'raw-bytes'), 201);
    expectShape(raw, 'Attachment');
    expect(raw).toMatchObject({ name: 'raw.tar.gz', size: 9 });
    const png = await ok(await uploadRaw(`pub/releases/${relId}/assets?name=logo.png`, Uint8Array.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'), 201);
    expect(png.size).toBe(4);
    expect((await uploadRaw(`pub/releases/${relId}/assets`, 'nameless')).status).toBe(400);
  });

  it('refuses files over [attachment] max_size (413)', async () => {
    const big = new Uint8Array(1024 * 1024 + 10);
    expect((await upload(`pub/releases/${relId}/assets`, big, 'big.bin')).status).toBe(413);
    expect((await uploadRaw(`pub/releases/${relId}/assets?name=big.bin`, big)).status).toBe(413);
  });

  it('lists, gets and renames assets; the release carries them', async () => {
    const list = await ok(await call(`pub/releases/${relId}/assets`, 'GET', undefined, carol));
    expectShape(list, '[Attachment]');
    expect(list.map((a: { name: string }) => a.name)).toEqual(['app.bin', 'logo.png', 'raw.tar.gz']);
    const one = await ok(await call(`pub/releases/${relId}/assets/${assetId}`));
    expectShape(one, 'Attachment');
    const renamed = await ok(await call(`pub/releases/${relId}/assets/${assetId}`, 'PATCH', { name: 'app-1.bin' }), 201);
    expectShape(renamed, 'Attachment');
    expect(renamed.name).toBe('app-1.bin');
    url = renamed.browser_download_url;
    const rel = await ok(await call(`pub/releases/${relId}`));
    expect(rel.assets).toHaveLength(3);
    expect((await call(`pub/releases/${relId}/assets/999999`)).status).toBe(404);
    const other = (await ok(await call('pub/releases/tags/v2.0'))).id;
    expect((await call(`pub/releases/${other}/assets/${assetId}`)).status).toBe(404);
    expect((await call(`pub/releases/${relId}/assets/${assetId}`, 'PATCH', { name: 'x' }, carol)).status).toBe(403);
  });

  it('downloads by browser_download_url and counts the download', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('binary-bytes');
    expect((await ok(await call(`pub/releases/${relId}/assets/${assetId}`))).download_count).toBe(1);
    const miss = await fetch(`${s.hearth.config.server.root_url}alice/pub/releases/download/v4.0/ghost.bin`);
    expect(miss.status).toBe(404);
  });

  it('deletes an asset (204)', async () => {
    await ok(await call(`pub/releases/${relId}/assets/${assetId}`, 'DELETE'), 204);
    expect((await call(`pub/releases/${relId}/assets/${assetId}`)).status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
  });
});

describe('private repositories and drafts', () => {
  let url: string;
  let draftUrl: string;

  beforeAll(async () => {
    const rel = await ok(await call('priv/releases', 'POST', { tag_name: 'p1' }), 201);
    url = (await ok(await upload(`priv/releases/${rel.id}/assets`, 'secret', 'secret.txt'), 201)).browser_download_url;
    const draft = await ok(await call('pub/releases', 'POST', { tag_name: 'v9-draft', draft: true }), 201);
    draftUrl = (await ok(await upload(`pub/releases/${draft.id}/assets`, 'unreleased', 'soon.txt'), 201)).browser_download_url;
  });

  const get = (u: string, who: Creds | null) =>
    fetch(u, { headers: who ? { Authorization: `Basic ${Buffer.from(`${who.username}:${who.password}`).toString('base64')}` } : {} });

  it('outsiders and anonymous callers see 404 for the releases and their files', async () => {
    expect((await call('priv/releases', 'GET', undefined, eve)).status).toBe(404);
    expect((await call('priv/releases', 'GET', undefined, null)).status).toBe(404);
    expect((await get(url, eve)).status).toBe(404);
    expect((await get(url, null)).status).toBe(404);
  });

  it('readers download them', async () => {
    const res = await get(url, carol);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('secret');
  });

  it('a draft\'s files are for writers only', async () => {
    expect((await get(draftUrl, carol)).status).toBe(404);
    expect((await get(draftUrl, null)).status).toBe(404);
    const res = await get(draftUrl, bob);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('unreleased');
  });
});
