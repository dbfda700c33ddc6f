import fs from 'node:fs';
import { attachmentKey } from '../../src/services/issue/attachment-files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createToken, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';
import type { Creds } from '../helpers/gitea-fixtures';
import { uploadTmpDir } from '../../src/services/issue/attachment-files';

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // write collaborator
let carol: Creds; // read collaborator
let eve: Creds; // outsider

const call = (p: string, method = 'GET', body?: unknown, who: Creds | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { method, auth: as(who), json: body });


function upload(p: string, files: { name: string; data: string | Uint8Array }[], who: Creds | null = alice, field = 'attachment') {
  const form = new FormData();
  for (const f of files) form.append(field, new Blob([f.data]), f.name);
  return s.request(`api/v1/repos/alice/${p}`, { method: 'POST', auth: as(who), body: form });
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

beforeAll(async () => {
  // 1 MiB limit, so the oversize case stays small; any type, so the HTML guard is tested where an
  // administrator lets HTML in (the default list, Gitea's, refuses it: test/gitea/api-issue-attachment.test.ts).
  s = await startTestServer({ HEARTH__ATTACHMENT__MAX_SIZE: '1', HEARTH__ATTACHMENT__ALLOWED_TYPES: '*/*' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  eve = await createUser(s, 'eve');
  for (const name of ['pub', 'priv']) {
    await createRepo(s, alice, name, { private: name === 'priv' });
    await ok(await call(`${name}/collaborators/bob`, 'PUT', { permission: 'write' }), 204);
    await ok(await call(`${name}/collaborators/carol`, 'PUT', { permission: 'read' }), 204);
    await ok(await call(`${name}/issues`, 'POST', { title: 'first', body: 'text' }), 201);
  }
  await ok(await call('pub/issues', 'POST', { title: 'by carol' }, carol), 201);
});
afterAll(async () => { await s.stop(); });

describe('issue attachments', () => {
  let id: number;
  let uuid: string;

  it('uploads a file (201) stored under the data directory', async () => {
    const body = await ok(await upload('pub/issues/1/assets', [{ name: 'notes.txt', data: 'hello world' }]), 201);
    expectShape(body, 'Attachment');
    expect(body).toMatchObject({ name: 'notes.txt', size: 11, download_count: 0 });
    expect(body.browser_download_url).toBe(`${s.hearth.config.server.root_url}attachments/${body.uuid}`);
    id = body.id;
    uuid = body.uuid;
    // In the blob storage under Gitea's layout (the data directory's attachments/ on local disk).
    expect(await s.hearth.blobs.withFile(attachmentKey(uuid), (f) => fs.readFileSync(f, 'utf8'))).toBe('hello world');
  });

  it('takes the name from ?name=', async () => {
    const body = await ok(await upload('pub/issues/1/assets?name=image.png', [{ name: 'x.bin', data: PNG }]), 201);
    expect(body.name).toBe('image.png');
  });

  it('lists, gets and shows them on the issue', async () => {
    const list = await ok(await call('pub/issues/1/assets', 'GET', undefined, null));
    expectShape(list, '[Attachment]');
    expect(list.map((a: { name: string }) => a.name)).toEqual(['notes.txt', 'image.png']);
    const one = await ok(await call(`pub/issues/1/assets/${id}`, 'GET', undefined, carol));
    expectShape(one, 'Attachment');
    expect(one.uuid).toBe(uuid);
    const issue = await ok(await call('pub/issues/1'));
    expect(issue.assets.map((a: { id: number }) => a.id)).toContain(id);
  });

  it('serves the file at browser_download_url and counts downloads', async () => {
    const res = await s.request(`attachments/${uuid}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello world');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('content-disposition')).toMatch(/filename="notes.txt"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await ok(await call(`pub/issues/1/assets/${id}`))).download_count).toBe(1);
    expect((await s.request('attachments/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('never serves uploaded HTML as a page', async () => {
    const body = await ok(await upload('pub/issues/1/assets', [{ name: 'x.html', data: '<html><script>alert(1)</script></html>' }]), 201);
    const res = await s.request(`attachments/${body.uuid}`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('content-disposition')).toMatch(/^inline/);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('renames with PATCH (201) and deletes (204) with the file', async () => {
    const renamed = await ok(await call(`pub/issues/1/assets/${id}`, 'PATCH', { name: 'renamed.txt' }), 201);
    expectShape(renamed, 'Attachment');
    expect(renamed.name).toBe('renamed.txt');
    await ok(await call(`pub/issues/1/assets/${id}`, 'DELETE'), 204);
    expect((await call(`pub/issues/1/assets/${id}`)).status).toBe(404);
    expect(await s.hearth.blobs.stat(attachmentKey(uuid))).toBeNull();
    expect((await s.request(`attachments/${uuid}`)).status).toBe(404);
  });

  it('refuses a file over [attachment] max_size with 413, keeping nothing', async () => {
    const before = (await ok(await call('pub/issues/1/assets'))).length;
    const res = await upload('pub/issues/1/assets', [{ name: 'big.bin', data: new Uint8Array(1024 * 1024 + 1) }]);
    expect(res.status).toBe(413);
    expect((await json(res)).message).toBeTruthy();
    expect((await ok(await call('pub/issues/1/assets'))).length).toBe(before);
    expect(fs.readdirSync(uploadTmpDir(s.hearth))).toEqual([]);
  });

  it('answers 400 without a file in the attachment field', async () => {
    expect((await upload('pub/issues/1/assets', [{ name: 'a.txt', data: 'x' }], alice, 'other')).status).toBe(400);
    const res = await s.request('api/v1/repos/alice/pub/issues/1/assets', { method: 'POST', auth: as(alice), json: {} });
    expect(res.status).toBe(400);
  });

  it('lets the issue poster and writers upload, not other readers (403), nor anonymous (401)', async () => {
    await ok(await upload('pub/issues/2/assets', [{ name: 'mine.txt', data: 'c' }], carol), 201);
    await ok(await upload('pub/issues/1/assets', [{ name: 'w.txt', data: 'b' }], bob), 201);
    const res = await upload('pub/issues/1/assets', [{ name: 'r.txt', data: 'c' }], carol);
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('user should have permission to write issue');
    expect((await upload('pub/issues/1/assets', [{ name: 'r.txt', data: 'c' }], null)).status).toBe(401);
    expect((await upload('pub/issues/99/assets', [{ name: 'r.txt', data: 'c' }])).status).toBe(404);
  });

  it('hides a private repository\'s attachments from outsiders (404), in the API and for download', async () => {
    const body = await ok(await upload('priv/issues/1/assets', [{ name: 's.txt', data: 'secret' }]), 201);
    expect((await call('priv/issues/1/assets', 'GET', undefined, eve)).status).toBe(404);
    expect((await call(`priv/issues/1/assets/${body.id}`, 'GET', undefined, eve)).status).toBe(404);
    expect((await s.request(`attachments/${body.uuid}`)).status).toBe(404);
    expect((await s.request(`attachments/${body.uuid}`, { auth: as(eve) })).status).toBe(404);
    const reader = await s.request(`attachments/${body.uuid}`, { auth: as(carol) });
    expect(reader.status).toBe(200);
    expect(await reader.text()).toBe('secret');
    const token = await createToken(s, alice, ['read:issue']);
    expect((await s.request(`attachments/${body.uuid}`, { auth: { token } })).status).toBe(200);
  });

  it('answers 404 for an attachment of another issue or repository', async () => {
    const other = await ok(await upload('pub/issues/2/assets', [{ name: 'o.txt', data: 'o' }]), 201);
    const res = await call(`pub/issues/1/assets/${other.id}`);
    expect(res.status).toBe(404);
    expect((await json(res)).message).toBe('no such attachment in issue');
    expect((await call(`priv/issues/2/assets/${other.id}`)).status).toBe(404);
  });

  it('checks [attachment] allowed_types (422)', async () => {
    const strict = await startTestServer({ HEARTH__ATTACHMENT__ALLOWED_TYPES: '.zip,image/*' });
    try {
      const owner = await createUser(strict, 'alice');
      await createRepo(strict, owner, 'r');
      const auth = as(owner);
      await strict.request('api/v1/repos/alice/r/issues', { method: 'POST', auth, json: { title: 't' } });
      const send = (name: string, data: string | Uint8Array) => {
        const form = new FormData();
        form.append('attachment', new Blob([data]), name);
        return strict.request('api/v1/repos/alice/r/issues/1/assets', { method: 'POST', auth, body: form });
      };
      const refused = await send('a.txt', 'text');
      expect(refused.status).toBe(422);
      expect((await json(refused)).message).toBe('This file extension or type is not allowed to be uploaded. Type: text/plain; charset=utf-8');
      expect((await send('a.zip', 'text')).status).toBe(201);
      const png = await ok(await send('noext', PNG), 201);
      expect((await strict.request(`api/v1/repos/alice/r/issues/1/assets/${png.id}`, { method: 'PATCH', auth, json: { name: 'a.exe' } })).status).toBe(422);
    } finally {
      await strict.stop();
    }
  });

  it('answers 423 on an archived repository and 404 when attachments are disabled', async () => {
    await createRepo(s, alice, 'old');
    await ok(await call('old/issues', 'POST', { title: 't' }), 201);
    await ok(await call('old', 'PATCH', { archived: true }));
    expect((await upload('old/issues/1/assets', [{ name: 'a.txt', data: 'x' }])).status).toBe(423);
    const off = await startTestServer({ HEARTH__ATTACHMENT__ENABLED: 'false' });
    try {
      const owner = await createUser(off, 'alice');
      await createRepo(off, owner, 'r');
      await off.request('api/v1/repos/alice/r/issues', { method: 'POST', auth: as({ ...owner }), json: { title: 't' } });
      expect((await off.request('api/v1/repos/alice/r/issues/1/assets', { auth: as({ ...owner }) })).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});

describe('comment attachments', () => {
  let commentId: number;
  let carolComment: number;

  beforeAll(async () => {
    commentId = (await ok(await call('pub/issues/1/comments', 'POST', { body: 'by alice' }), 201)).id;
    carolComment = (await ok(await call('pub/issues/1/comments', 'POST', { body: 'by carol' }, carol), 201)).id;
  });

  it('uploads, lists, edits and deletes a comment\'s files', async () => {
    const a = await ok(await upload(`pub/issues/comments/${commentId}/assets`, [{ name: 'c.txt', data: 'comment file' }]), 201);
    expectShape(a, 'Attachment');
    const list = await ok(await call(`pub/issues/comments/${commentId}/assets`, 'GET', undefined, null));
    expectShape(list, '[Attachment]');
    expect(list.map((x: { id: number }) => x.id)).toEqual([a.id]);
    const comment = await ok(await call(`pub/issues/comments/${commentId}`));
    expect(comment.assets.map((x: { id: number }) => x.id)).toEqual([a.id]);
    // The issue's own list leaves comment files out.
    expect((await ok(await call('pub/issues/1/assets'))).map((x: { id: number }) => x.id)).not.toContain(a.id);
    expectShape(await ok(await call(`pub/issues/comments/${commentId}/assets/${a.id}`)), 'Attachment');
    expect((await ok(await call(`pub/issues/comments/${commentId}/assets/${a.id}`, 'PATCH', { name: 'd.txt' }), 201)).name).toBe('d.txt');
    await ok(await call(`pub/issues/comments/${commentId}/assets/${a.id}`, 'DELETE'), 204);
    expect((await call(`pub/issues/comments/${commentId}/assets/${a.id}`)).status).toBe(404);
  });

  it('lets only the comment\'s poster or an admin with write access change its files', async () => {
    // A writer who did not post the comment may not (403), nor its reader poster.
    const res = await upload(`pub/issues/comments/${commentId}/assets`, [{ name: 'b.txt', data: 'b' }], bob);
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('user should have permission to edit comment');
    expect((await upload(`pub/issues/comments/${carolComment}/assets`, [{ name: 'c.txt', data: 'c' }], carol)).status).toBe(403);
    await ok(await upload(`pub/issues/comments/${carolComment}/assets`, [{ name: 'a.txt', data: 'a' }]), 201);
  });

  it('answers 404 for a missing comment or one of another repository', async () => {
    expect((await call('pub/issues/comments/9999/assets')).status).toBe(404);
    expect((await call(`priv/issues/comments/${commentId}/assets`)).status).toBe(404);
  });
});
