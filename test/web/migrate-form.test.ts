import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, type WebClient } from '../helpers/web-client';
import { eventually } from '../helpers/wait';

// /repo/migrate from a second hearth (service gitea): the form answers 303 to the progress page
// once the migration started, the page reloads itself (Refresh) until it finished; a bad
// address re-renders 422; a failed migration shows its error; others may not read the progress.

let src: TestServer;
let dst: TestServer;
let alice: { username: string; password: string; id: number };
let web: WebClient;

beforeAll(async () => {
  src = await startTestServer();
  dst = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__RETRY_BACKOFF: '0.05' });
  const owner = await createUser(src, 'origin');
  await createRepo(src, owner, 'tool', { auto_init: true });
  await ok(await src.request('api/v1/repos/origin/tool/labels', { method: 'POST', auth: as(owner), json: { name: 'bug', color: '#ff0000' } }), 201);
  alice = await createUser(dst, 'alice');
  web = await signedInClient(dst, 'alice', alice.password);
}, 60_000);
afterAll(async () => { await src?.stop(); await dst?.stop(); });

const progressOf = async (path: string) => {
  let text = '';
  await eventually(async () => {
    const res = await web.get(path);
    text = await res.text();
    return res.headers.get('refresh') === null;
  }, 30_000, 'the migration to end');
  return text;
};

describe('the migration form', () => {
  it('migrates from another hearth with its labels and shows the progress page', async () => {
    const form = await (await web.get('repo/migrate')).text();
    expect(form).toContain('<option value="gitea">Gitea</option>');
    const res = await web.post('repo/migrate', {
      service: 'gitea', clone_addr: `${src.hearth.config.server.root_url}origin/tool`, repo_name: 'tool-copy', uid: String(alice.id), labels: 'on',
    });
    expect(res.status, await res.clone().text()).toBe(303);
    const path = new URL(res.headers.get('location')!).pathname;
    expect(path).toBe('/repo/migrate/alice/tool-copy');
    const page = await progressOf(path);
    expect(page).toContain('The migration has finished.');
    const labels = await ok(await dst.request('api/v1/repos/alice/tool-copy/labels', { auth: as(alice) }));
    expect(labels.map((l: { name: string }) => l.name)).toEqual(['bug']);
    const bob = await createUser(dst, 'bob');
    const bobWeb = await signedInClient(dst, 'bob', bob.password);
    expect((await bobWeb.get(path)).status).toBe(404);
  }, 60_000);

  it('re-renders a refused request with 422 and shows a failure on the progress page', async () => {
    const bad = await web.post('repo/migrate', { service: 'git', clone_addr: 'ftp://example.com/x.git', repo_name: 'nope', uid: String(alice.id) }, { from: 'repo/migrate' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('value="nope"');
    const res = await web.post('repo/migrate', {
      service: 'git', clone_addr: `${src.hearth.config.server.root_url}origin/missing-repo`, repo_name: 'broken', uid: String(alice.id),
    }, { from: 'repo/migrate' });
    // The address passed the checks: the failure (no such repository there) shows on the progress page.
    expect(res.status).toBe(303);
    const page = await progressOf(new URL(res.headers.get('location')!).pathname);
    expect(page).toContain('The migration failed');
    expect((await dst.request('api/v1/repos/alice/broken', { auth: as(alice) })).status).toBe(404);
  }, 60_000);
});
