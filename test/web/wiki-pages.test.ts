import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient, ownerAndOther } from '../helpers/web-client';

// The wiki pages over HTTP: new, view (rendered, with sidebar and footer), edit and rename,
// history and a revision, the page list in both spellings, delete after a confirmation; a
// title refused comes back 422; readers get no forms and their forged posts change nothing;
// a private repository's wiki is 404 to outsiders.

type U = { username: string; password: string };
let s: TestServer;
let alice: U;
let web: WebClient;
let bobWeb: WebClient;

const api = (p: string, who: U = alice) => s.request(`api/v1/${p}`, { auth: as(who) });
const pageNames = async (repo = 'docs') => (await ok(await api(`repos/alice/${repo}/wiki/pages`))).map((p: { title: string }) => p.title);

beforeAll(async () => {
  s = await startTestServer();
  const users = await ownerAndOther(s);
  ({ alice } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
  await createRepo(s, alice, 'docs');
  await createRepo(s, alice, 'hidden', { private: true });
});
afterAll(async () => { await s.stop(); });

describe('wiki pages', () => {
  it('creates, shows, edits, lists and shows the history of a page', async () => {
    const empty = await (await web.get('alice/docs/wiki')).text();
    expect(empty).toContain('Create the first page');
    expect(empty).toContain('alice/docs.wiki.git');
    const from = 'alice/docs/wiki/_new';
    expect((await web.post('alice/docs/wiki/_new', { title: 'Home', content: '# Welcome\n\nSee **this**.' }, { from })).status).toBe(303);
    await web.post('alice/docs/wiki/_new', { title: '_Sidebar', content: 'side *links*' }, { from });
    const home = await (await web.get('alice/docs/wiki')).text();
    expect(home).toContain('<strong>this</strong>');
    expect(home).toContain('side <em>links</em>');
    const edit = await (await web.get('alice/docs/wiki/Home?action=_edit')).text();
    expect(edit).toContain('# Welcome');
    const saved = await web.post('alice/docs/wiki/Home?action=_edit', { title: 'Home', content: 'Changed words', message: 'second go' }, { from: 'alice/docs/wiki/Home?action=_edit' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toMatch(/\/alice\/docs\/wiki\/Home$/);
    const page = await ok(await api('repos/alice/docs/wiki/page/Home'));
    expect(Buffer.from(page.content_base64, 'base64').toString()).toBe('Changed words');
    const history = await (await web.get('alice/docs/wiki/Home?action=_revision')).text();
    expect(history).toContain('2 revisions');
    expect(history).toContain('second go');
    const first = /wiki\/Home\?revision=([0-9a-f]{40})"[^]*wiki\/Home\?revision=([0-9a-f]{40})"/.exec(history)!;
    expect(await (await web.get(`alice/docs/wiki/Home?revision=${first[2]}`)).text()).toContain('<strong>this</strong>');
    for (const p of ['alice/docs/wiki/_pages', 'alice/docs/wiki/?action=_pages']) {
      const list = await (await web.get(p)).text();
      expect(list).toContain('alice/docs/wiki/Home"');
    }
  });

  it('renames a page, refuses a taken or empty title (422, values kept), and deletes after confirming', async () => {
    const from = 'alice/docs/wiki/_new';
    await web.post('alice/docs/wiki/_new', { title: 'Draft Notes', content: 'draft' }, { from });
    const taken = await web.post('alice/docs/wiki/_new', { title: 'Draft Notes', content: 'again' }, { from });
    expect(taken.status).toBe(422);
    const takenText = await taken.text();
    expect(takenText).toContain('already exists');
    expect(takenText).toContain('>again</textarea>');
    expect((await web.post('alice/docs/wiki/_new', { title: ' ', content: 'x' }, { from })).status).toBe(422);
    expect((await web.post('alice/docs/wiki/Draft-Notes?action=_edit', { title: 'Final Notes', content: 'final' }, { from })).status).toBe(303);
    expect(await pageNames()).toContain('Final Notes');
    expect(await pageNames()).not.toContain('Draft Notes');
    expect((await web.get('alice/docs/wiki/Final-Notes?action=_delete')).status).toBe(200);
    expect((await web.post('alice/docs/wiki/Final-Notes?action=_delete', {}, { from })).status).toBe(303);
    expect(await pageNames()).not.toContain('Final Notes');
    expect((await web.get('alice/docs/wiki/Final-Notes')).status).toBe(404);
  });

  it('gives readers no forms and refuses their posts; hides a private wiki from outsiders', async () => {
    await web.post('alice/docs/wiki/_new', { title: 'Kept', content: 'kept' }, { from: 'alice/docs/wiki/_new' });
    const view = await (await bobWeb.get('alice/docs/wiki/Kept')).text();
    expect(view).not.toContain('action=_edit');
    expect((await bobWeb.get('alice/docs/wiki/Kept?action=_edit')).status).toBe(403);
    const from = 'alice/docs/wiki/Kept';
    expect((await bobWeb.post('alice/docs/wiki/Kept?action=_delete', {}, { from })).status).toBe(403);
    expect((await bobWeb.post('alice/docs/wiki/_new', { title: 'Mine', content: 'x' }, { from })).status).toBe(403);
    expect(await pageNames()).toContain('Kept');
    expect(await pageNames()).not.toContain('Mine');
    for (const c of [bobWeb, new WebClient(s)]) expect((await c.get('alice/hidden/wiki')).status).toBe(404);
  });
});
