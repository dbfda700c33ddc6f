import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, ok, type Creds } from '../helpers/pull-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { type WebClient, ownerAndOther } from '../helpers/web-client';

// The releases' writers' pages over HTTP: a new release with a new tag and assets (multipart),
// edit with an asset deleted and one added, delete keeping or deleting the tag; readers see
// neither the links nor the forms, and their forged posts change nothing (checked through the API).

let s: TestServer;
let alice: Creds;
let web: WebClient;
let bobWeb: WebClient;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

/** Posts a multipart form as a browser would, the CSRF token from the page at `from`. */
async function postMultipart(c: WebClient, path: string, fields: Record<string, string>, files: [string, string][], from: string): Promise<Response> {
  const form = new FormData();
  form.set('_csrf', await c.csrfOf(from));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [name, content] of files) form.append('attachment', new Blob([content]), name);
  return c.fetch(path, { method: 'POST', body: form });
}

beforeAll(async () => {
  s = await startTestServer();
  const users = await ownerAndOther(s);
  ({ alice } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
});
afterAll(async () => { await s.stop(); });

describe('release forms', () => {
  it('creates a release with a new tag and assets, edits it, deletes it keeping the tag', async () => {
    await createRepo(s, alice, 'rel', { auto_init: true });
    const list = await (await web.get('alice/rel/releases')).text();
    expect(list).toContain('alice/rel/releases/new"');
    const created = await postMultipart(web, 'alice/rel/releases/new', { tag_name: 'v1.0', target: 'main', title: 'First', note: 'Hello **world**' },
      [['notes.txt', 'some notes'], ['app.bin', 'binary']], 'alice/rel/releases/new');
    expect(created.status, await created.clone().text()).toBe(303);
    expect(created.headers.get('location')).toContain('alice/rel/releases/tag/v1.0');
    const rel = await ok(await api('repos/alice/rel/releases/tags/v1.0'));
    expect([rel.name, rel.body, rel.draft, rel.assets.map((a: { name: string }) => a.name).sort()]).toEqual(['First', 'Hello **world**', false, ['app.bin', 'notes.txt']]);
    expect((await api('repos/alice/rel/tags/v1.0')).status).toBe(200);
    const edit = 'alice/rel/releases/edit/v1.0';
    const page = await (await web.get(edit)).text();
    expect(page).toContain('enctype="multipart/form-data"');
    const doomed = rel.assets.find((a: { name: string }) => a.name === 'app.bin');
    const edited = await postMultipart(web, edit, { tag_name: 'v1.0', title: 'First, again', note: 'Changed', prerelease: 'on', [`delete_asset_${doomed.id}`]: 'on' },
      [['extra.txt', 'more']], edit);
    expect(edited.status, await edited.clone().text()).toBe(303);
    const after = await ok(await api('repos/alice/rel/releases/tags/v1.0'));
    expect([after.name, after.body, after.prerelease, after.assets.map((a: { name: string }) => a.name).sort()]).toEqual(['First, again', 'Changed', true, ['extra.txt', 'notes.txt']]);
    expect((await web.get('alice/rel/releases/delete/v1.0')).status).toBe(200);
    expect((await web.post('alice/rel/releases/delete/v1.0', { tag: 'keep' }, { from: 'alice/rel/releases/delete/v1.0' })).status).toBe(303);
    expect((await api('repos/alice/rel/releases/tags/v1.0')).status).toBe(404);
    expect((await api('repos/alice/rel/tags/v1.0')).status).toBe(200);
  });

  it('deletes a release with its tag when asked', async () => {
    await createRepo(s, alice, 'reltag', { auto_init: true });
    await ok(await api('repos/alice/reltag/releases', 'POST', { tag_name: 'v2', target_commitish: 'main', name: 'Two' }), 201);
    expect((await web.post('alice/reltag/releases/delete/v2', { tag: 'delete' }, { from: 'alice/reltag/releases/delete/v2' })).status).toBe(303);
    expect((await api('repos/alice/reltag/releases/tags/v2')).status).toBe(404);
    expect((await api('repos/alice/reltag/tags/v2')).status).toBe(404);
  });

  it('re-renders 422 for a bad tag name keeping the values; nothing is created', async () => {
    await createRepo(s, alice, 'relbad', { auto_init: true });
    const res = await postMultipart(web, 'alice/relbad/releases/new', { tag_name: 'bad..tag', title: 'Kept title' }, [], 'alice/relbad/releases/new');
    expect(res.status).toBe(422);
    const body = await res.text();
    expect(body).toContain('id="f-tag_name-error"');
    expect(body).toContain('value="Kept title"');
    expect(await ok(await api('repos/alice/relbad/releases'))).toEqual([]);
  });

  it('a reader sees no links and is refused the forms (403); a forged post changes nothing', async () => {
    await createRepo(s, alice, 'relread', { auto_init: true });
    await ok(await api('repos/alice/relread/releases', 'POST', { tag_name: 'v1', target_commitish: 'main', name: 'One' }), 201);
    const list = await (await bobWeb.get('alice/relread/releases')).text();
    expect(list).not.toContain('releases/new"');
    expect(list).not.toContain('releases/edit/');
    expect((await bobWeb.get('alice/relread/releases/new')).status).toBe(403);
    const csrf = await bobWeb.csrfOf('alice/relread/releases');
    expect((await bobWeb.post('alice/relread/releases/delete/v1', { tag: 'delete' }, { csrf })).status).toBe(403);
    expect((await api('repos/alice/relread/releases/tags/v1')).status).toBe(200);
    await createRepo(s, alice, 'relhidden', { auto_init: true, private: true });
    expect((await bobWeb.get('alice/relhidden/releases/new')).status).toBe(404);
  });
});
