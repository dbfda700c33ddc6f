import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git } from '../helpers/git';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // write collaborator
let carol: Creds; // read collaborator

const call = (p: string, method = 'GET', body?: unknown, who: { username: string; password: string } | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { method, auth: who ? as(who) : undefined, json: body });


const bareDir = (repo: string) => path.join(s.hearth.config.repository.root, 'alice', `${repo}.git`);
const headOf = async (repo: string) => (await ok(await call(`${repo}/branches/main`))).commit.id as string;

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  for (const name of ['repo', 'guarded']) {
    await createRepo(s, alice, name, { auto_init: true });
    await ok(await call(`${name}/collaborators/bob`, 'PUT', { permission: 'write' }), 204);
    await ok(await call(`${name}/collaborators/carol`, 'PUT', { permission: 'read' }), 204);
  }
  await createRepo(s, alice, 'empty');
});
afterAll(async () => { await s.stop(); });

describe('POST /repos/{owner}/{repo}/tags', () => {
  it('creates a lightweight tag on the default branch (201)', async () => {
    const head = await headOf('repo');
    const body = await ok(await call('repo/tags', 'POST', { tag_name: 'v1.0.0' }), 201);
    expectShape(body, 'Tag');
    const root = s.hearth.config.server.root_url;
    expect(body).toMatchObject({
      name: 'v1.0.0', id: head, message: 'Initial commit',
      zipball_url: `${root}alice/repo/archive/v1.0.0.zip`, tarball_url: `${root}alice/repo/archive/v1.0.0.tar.gz`,
    });
    expect(body.commit.sha).toBe(head);
    expect(body.commit.url).toBe(`${root}api/v1/repos/alice/repo/git/commits/${head}`);
  });

  it('creates an annotated tag signed by the doer when a message is given', async () => {
    const head = await headOf('repo');
    const body = await ok(await call('repo/tags', 'POST', { tag_name: 'release/v2', target: 'main', message: 'Second release\n\nnotes' }), 201);
    expectShape(body, 'Tag');
    expect(body.id).not.toBe(head);
    expect(body.commit.sha).toBe(head);
    expect(body.message).toBe('Second release\n\nnotes');
    const raw = await git(bareDir('repo'), 'cat-file', '-p', body.id);
    expect(raw).toContain('tag release/v2');
    expect(raw).toMatch(/^tagger Alice Liddell <alice@example\.com> /m);
  });

  it('targets a commit sha', async () => {
    const head = await headOf('repo');
    const body = await ok(await call('repo/tags', 'POST', { tag_name: 'by-sha', target: head }), 201);
    expect(body.commit.sha).toBe(head);
  });

  it('refuses an existing tag (409), an unknown target (404), bad names (422)', async () => {
    expect((await call('repo/tags', 'POST', { tag_name: 'v1.0.0' })).status).toBe(409);
    expect((await call('repo/tags', 'POST', { tag_name: 'nt', target: 'ghost' })).status).toBe(404);
    expect((await call('repo/tags', 'POST', { tag_name: 'nt', target: '--all' })).status).toBe(404);
    expect((await call('empty/tags', 'POST', { tag_name: 'nt' })).status).toBe(404);
    for (const name of ['a..b', 'has space', '-x', 'x.lock', 'a~1']) {
      expect((await call('repo/tags', 'POST', { tag_name: name })).status, name).toBe(422);
    }
    expect((await call('repo/tags', 'POST', {})).status).toBe(422);
  });

  it('needs write access', async () => {
    expect((await call('repo/tags', 'POST', { tag_name: 'by-carol' }, carol)).status).toBe(403);
    expect((await call('repo/tags', 'POST', { tag_name: 'anon' }, null)).status).toBe(401);
    await ok(await call('repo/tags', 'POST', { tag_name: 'by-bob' }, bob), 201);
  });
});

describe('GET /repos/{owner}/{repo}/tags', () => {
  it('lists tags with paging headers', async () => {
    const res = await call('repo/tags');
    const body = await ok(res);
    expectShape(body, '[Tag]');
    expect(res.headers.get('x-total-count')).toBe(String(body.length));
    expect(body.map((t: { name: string }) => t.name).sort()).toEqual(['by-bob', 'by-sha', 'release/v2', 'v1.0.0']);
    const page = await call('repo/tags?limit=1&page=2');
    expect(await ok(page)).toHaveLength(1);
    expect(page.headers.get('x-total-count')).toBe('4');
    expect(page.headers.get('link')).toContain('rel="prev"');
  });

  it('lists nothing for an empty repository, to anonymous readers of public ones too', async () => {
    expect(await ok(await call('empty/tags'))).toEqual([]);
    expect((await ok(await call('repo/tags', 'GET', undefined, null))).length).toBe(4);
  });

  it('gets one tag by a name with slashes; 404 when missing', async () => {
    const body = await ok(await call('repo/tags/release/v2'));
    expectShape(body, 'Tag');
    expect(body.name).toBe('release/v2');
    expect((await call('repo/tags/ghost')).status).toBe(404);
  });
});

describe('DELETE /repos/{owner}/{repo}/tags/{tag}', () => {
  it('deletes a tag (204), then 404', async () => {
    await ok(await call('repo/tags/by-sha', 'DELETE'), 204);
    expect((await call('repo/tags/by-sha')).status).toBe(404);
    expect((await call('repo/tags/by-sha', 'DELETE')).status).toBe(404);
    expect((await call('repo/tags/by-bob', 'DELETE', undefined, carol)).status).toBe(403);
  });
});

describe('tag protections', () => {
  let globId = 0;

  it('creates (201), lists and gets protections', async () => {
    const body = await ok(await call('guarded/tag_protections', 'POST', { name_pattern: 'v*', whitelist_usernames: ['alice'] }), 201);
    expectShape(body, 'TagProtection');
    expect(body).toMatchObject({ name_pattern: 'v*', whitelist_usernames: ['alice'], whitelist_teams: [] });
    globId = body.id;
    const re = await ok(await call('guarded/tag_protections', 'POST', { name_pattern: '/^rel-\\d+$/', whitelist_usernames: ['bob'] }), 201);
    expect(re.name_pattern).toBe('/^rel-\\d+$/');
    const list = await ok(await call('guarded/tag_protections'));
    expectShape(list, '[TagProtection]');
    expect(list.map((p: { id: number }) => p.id)).toEqual([globId, re.id]);
    expect(await ok(await call(`guarded/tag_protections/${globId}`))).toEqual(body);
  });

  it('refuses bad input: empty pattern or whitelists (400), unknown user or bad regex (422), duplicate (403)', async () => {
    expect((await call('guarded/tag_protections', 'POST', { whitelist_usernames: ['alice'] })).status).toBe(400);
    expect((await call('guarded/tag_protections', 'POST', { name_pattern: 'x*' })).status).toBe(400);
    expect((await call('guarded/tag_protections', 'POST', { name_pattern: 'x*', whitelist_usernames: ['ghost'] })).status).toBe(422);
    expect((await call('guarded/tag_protections', 'POST', { name_pattern: '/(/', whitelist_usernames: ['alice'] })).status).toBe(422);
    expect((await call('guarded/tag_protections', 'POST', { name_pattern: 'v*', whitelist_usernames: ['alice'] })).status).toBe(403);
    expect((await call('guarded/tag_protections', 'POST', { name_pattern: 'y*', whitelist_usernames: ['alice'] }, bob)).status).toBe(403);
    expect((await call('guarded/tag_protections/999')).status).toBe(404);
    expect((await call('guarded/tag_protections/abc')).status).toBe(404);
  });

  it('guards tag creation and deletion through the API (422 for others)', async () => {
    const denied = await call('guarded/tags', 'POST', { tag_name: 'v1' }, bob);
    expect(denied.status).toBe(422);
    expect((await json(denied)).message).toBe('user not allowed to create protected tag');
    await ok(await call('guarded/tags', 'POST', { tag_name: 'v1' }), 201);
    await ok(await call('guarded/tags', 'POST', { tag_name: 'other' }, bob), 201);
    expect((await call('guarded/tags', 'POST', { tag_name: 'rel-1' })).status).toBe(422);
    await ok(await call('guarded/tags', 'POST', { tag_name: 'rel-1' }, bob), 201);
    await ok(await call('guarded/tags', 'POST', { tag_name: 'rel-x' }), 201);
    const del = await call('guarded/tags/v1', 'DELETE', undefined, bob);
    expect(del.status).toBe(422);
    expect((await json(del)).message).toBe('user not allowed to delete protected tag');
  });

  it('edits only the given fields (200) and deletes (204)', async () => {
    const body = await ok(await call(`guarded/tag_protections/${globId}`, 'PATCH', { whitelist_usernames: ['alice', 'bob'] }));
    expectShape(body, 'TagProtection');
    expect(body).toMatchObject({ name_pattern: 'v*', whitelist_usernames: ['alice', 'bob'] });
    await ok(await call('guarded/tags/v1', 'DELETE', undefined, bob), 204);
    const renamed = await ok(await call(`guarded/tag_protections/${globId}`, 'PATCH', { name_pattern: ' w* ' }));
    expect(renamed.name_pattern).toBe('w*');
    expect((await call(`guarded/tag_protections/${globId}`, 'PATCH', { whitelist_usernames: ['ghost'] })).status).toBe(422);
    await ok(await call(`guarded/tag_protections/${globId}`, 'DELETE'), 204);
    expect((await call(`guarded/tag_protections/${globId}`)).status).toBe(404);
    expect((await call(`guarded/tag_protections/${globId}`, 'PATCH', {})).status).toBe(404);
  });
});
