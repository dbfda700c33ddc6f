import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient, ownerAndOther } from '../helpers/web-client';

// The packages pages over HTTP: the owner's list with its type filter and search, a version's
// page with its install command, files and versions, a file's download, linking and unlinking
// a repository (a wrong name is 422), deleting a version after confirming; outsiders get 404
// for a private owner, readers no forms and their forged posts change nothing.

type U = { username: string; password: string };
let s: TestServer;
let alice: U;
let web: WebClient;
let bobWeb: WebClient;

async function publish(owner: string, name: string, version: string, file: string, body: string, who: U = alice): Promise<void> {
  await ok(await s.request(`api/packages/${owner}/generic/${name}/${version}/${file}`, { method: 'PUT', auth: as(who), body }), 201);
}
const versions = async (name: string) =>
  (await ok(await s.request(`api/v1/packages/alice/generic/${name}`, { auth: as(alice) }))).map((p: { version: string }) => p.version);

beforeAll(async () => {
  s = await startTestServer();
  const users = await ownerAndOther(s);
  ({ alice } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
  await createRepo(s, alice, 'tool');
  await publish('alice', 'widget', '1.0.0', 'widget.tar.gz', 'one');
  await publish('alice', 'widget', '1.1.0', 'widget.tar.gz', 'one point one');
  await publish('alice', 'gadget', '0.1.0', 'gadget.bin', 'g');
});
afterAll(async () => { await s.stop(); });

describe('packages pages', () => {
  it('lists, filters and shows a version with its install command, files and versions', async () => {
    const list = await (await web.get('alice/-/packages')).text();
    expect(list).toContain('alice/-/packages/generic/widget/1.1.0"');
    expect(list).toContain('alice/-/packages/generic/gadget/0.1.0"');
    const found = await (await web.get('alice/-/packages?q=gad&type=generic')).text();
    expect(found).toContain('gadget');
    expect(found).not.toContain('widget/1.1.0');
    expect(await (await web.get('alice/-/packages?type=npm')).text()).toContain('No package matches');
    const page = await (await web.get('alice/-/packages/generic/widget/1.0.0')).text();
    expect(page).toContain('curl');
    expect(page).toContain('api/packages/alice/generic/widget/1.0.0');
    expect(page).toContain('widget.tar.gz');
    expect(page).toContain('alice/-/packages/generic/widget/1.1.0"');
    expect(await (await web.get('alice/-/packages/generic/widget')).text()).toContain('<strong>1.1.0</strong>');
    const link = /href="[^"]*(alice\/-\/packages\/generic\/widget\/1\.0\.0\/files\/\d+)"/.exec(page)![1]!;
    expect(await (await web.get(link)).text()).toBe('one');
    expect((await web.get('alice/-/packages/generic/widget/9.9.9')).status).toBe(404);
  });

  it('links and unlinks a repository (a wrong name is 422) and deletes a version after confirming', async () => {
    const from = 'alice/-/packages/generic/widget';
    const wrong = await web.post('alice/-/packages/generic/widget/-/link', { repo_name: 'nothing' }, { from });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('value="nothing"');
    expect((await web.post('alice/-/packages/generic/widget/-/link', { repo_name: 'tool' }, { from })).status).toBe(303);
    const linked = await ok(await s.request('api/v1/packages/alice/generic/widget/1.0.0', { auth: as(alice) }));
    expect(linked.repository.name).toBe('tool');
    expect((await web.post('alice/-/packages/generic/widget/-/unlink', {}, { from })).status).toBe(303);
    expect((await ok(await s.request('api/v1/packages/alice/generic/widget/1.0.0', { auth: as(alice) }))).repository).toBeNull();
    expect((await web.get('alice/-/packages/generic/widget/1.0.0/delete')).status).toBe(200);
    expect((await web.post('alice/-/packages/generic/widget/1.0.0/delete', {}, { from })).status).toBe(303);
    expect(await versions('widget')).toEqual(['1.1.0']);
  });

  it('hides a private owner from outsiders and gives readers no forms', async () => {
    const org = await ok(await s.request('api/v1/orgs', { method: 'POST', auth: as(alice), json: { username: 'secretorg', visibility: 'private' } }), 201);
    expect(org.username).toBe('secretorg');
    await publish('secretorg', 'inner', '1.0.0', 'inner.bin', 'x');
    for (const c of [bobWeb, new WebClient(s)]) {
      expect((await c.get('secretorg/-/packages')).status).toBe(404);
      expect((await c.get('secretorg/-/packages/generic/inner/1.0.0')).status).toBe(404);
    }
    expect((await web.get('secretorg/-/packages')).status).toBe(200);
    const page = await (await bobWeb.get('alice/-/packages/generic/gadget/0.1.0')).text();
    expect(page).not.toContain('/delete');
    const from = 'alice/-/packages/generic/gadget/0.1.0';
    expect((await bobWeb.get('alice/-/packages/generic/gadget/0.1.0/delete')).status).toBe(403);
    expect((await bobWeb.post('alice/-/packages/generic/gadget/0.1.0/delete', {}, { from })).status).toBe(403);
    expect((await bobWeb.post('alice/-/packages/generic/gadget/-/link', { repo_name: 'tool' }, { from })).status).toBe(403);
    expect(await versions('gadget')).toEqual(['0.1.0']);
  });
});
