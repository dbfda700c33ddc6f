import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_attachment_test.go. Gitea's attachment 1
// sits on repo1's issue #1; here each test uploads what it reads, as Gitea's clients do:
// multipart for files, form values for edits.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

type Attachment = { id: number; name: string; size: number; uuid: string; browser_download_url: string };
const url = 'repos/user2/repo1/issues/1/assets';
/** A tiny PNG: the signature and an IHDR chunk are enough for a type sniffer. */
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function upload(name: string, bytes: Buffer = png): Promise<Response> {
  const form = new FormData();
  form.append('attachment', new Blob([bytes]), name);
  return g.api(url, { method: 'POST', auth: await g.tokenAuth('user2', 'write:issue'), body: form });
}
const uploaded = async (): Promise<Attachment> => {
  const res = await upload('image.png');
  expect(res.status).toBe(201);
  return res.json() as Promise<Attachment>;
};
const form = (fields: Record<string, string>) => ({
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(),
});

describe('api_issue_attachment_test', () => {
  it('TestAPIGetIssueAttachment', async () => {
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'read:issue');
    expect(await g.call(`${url}/${a.id}`, { auth })).toMatchObject({ id: a.id, name: 'image.png', uuid: a.uuid });
  });

  it('TestAPIListIssueAttachments', async () => {
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'read:issue');
    const list: Attachment[] = await g.call(url, { auth });
    expect(list.map((x) => x.id)).toContain(a.id);
  });

  it('TestAPICreateIssueAttachment', async () => {
    const a = await uploaded();
    expect(a).toMatchObject({ name: 'image.png', size: png.length });
    expect((await g.call('repos/user2/repo1/issues/1')).assets.map((x: Attachment) => x.id)).toContain(a.id);
  });

  it('TestAPICreateIssueAttachmentWithUnallowedFile', async () => {
    expect((await upload('file.bad', Buffer.alloc(0))).status).toBe(422);
  });

  it('TestAPIEditIssueAttachment', async () => {
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'write:issue');
    const edited: Attachment = await g.call(`${url}/${a.id}`, { method: 'PATCH', auth, ...form({ name: 'hello_world.txt' }) }, 201);
    expect([edited.id, edited.name]).toEqual([a.id, 'hello_world.txt']);
    expect((await g.call(`${url}/${a.id}`, { auth })).name).toBe('hello_world.txt');
  });

  it('TestAPIEditIssueAttachmentWithUnallowedFile', async () => {
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(`${url}/${a.id}`, { method: 'PATCH', auth, ...form({ name: 'file.bad' }) })).status).toBe(422);
  });

  it('TestAPIDeleteIssueAttachment', async () => {
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(`${url}/${a.id}`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await g.api(`${url}/${a.id}`, { auth })).status).toBe(404);
  });
});
