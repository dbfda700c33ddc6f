import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures, type Repo1 } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_comment_attachment_test.go. Gitea's comment 2
// ("good work!" on repo1's #1) carries an attachment; here each test uploads what it reads,
// as the repository's owner.

let g: GiteaFixtures;
let r: Repo1;
beforeAll(async () => {
  g = await startGitea();
  r = await g.repo1();
});
afterAll(async () => { await g.stop(); });

type Attachment = { id: number; name: string; uuid: string; created_at: string; browser_download_url: string };
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const assets = () => `repos/user2/repo1/issues/comments/${r.comments.goodWork}/assets`;

async function uploaded(): Promise<Attachment> {
  const form = new FormData();
  form.append('attachment', new Blob([png]), 'image.png');
  return g.call(assets(), { method: 'POST', auth: await g.tokenAuth('user2', 'write:issue'), body: form }, 201);
}

describe('api_comment_attachment_test', () => {
  it('TestAPIGetCommentAttachment/UnrelatedCommentID', async () => {
    const a = await uploaded();
    await g.call('user/repos', { method: 'POST', auth: await g.basic('user5'), json: { name: 'repo4' } }, 201).catch(() => undefined);
    const auth = await g.tokenAuth('user5', 'write:issue');
    expect((await g.api(`repos/user5/repo4/issues/comments/${r.comments.goodWork}/assets/${a.id}`, { auth })).status).toBe(404);
  });

  it('TestAPIGetCommentAttachment', async () => {
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'read:issue');
    const got: Attachment = await g.call(`${assets()}/${a.id}`, { auth });
    expect({ id: got.id, name: got.name, uuid: got.uuid, created: Date.parse(got.created_at), url: got.browser_download_url })
      .toEqual({ id: a.id, name: 'image.png', uuid: a.uuid, created: Date.parse(a.created_at), url: a.browser_download_url });
  });

  it('TestAPIListCommentAttachments', async () => {
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'read:issue');
    const list: Attachment[] = await g.call(assets(), { auth });
    expect(list.map((x) => x.id)).toContain(a.id);
    const comment = await g.call(`repos/user2/repo1/issues/comments/${r.comments.goodWork}`, { auth });
    expect(list).toHaveLength(comment.assets.length);
  });

  it('TestAPICreateCommentAttachment', async () => {
    const a = await uploaded();
    const comment = await g.call(`repos/user2/repo1/issues/comments/${r.comments.goodWork}`);
    expect(comment.assets.map((x: Attachment) => x.id)).toContain(a.id);
  });

  it('TestAPIEditCommentAttachment', async () => {
    // Gitea 1.25 checks a new name against [attachment] ALLOWED_TYPES (its UpdateAttachment): a
    // name without an extension is refused under the default list, so this one has one.
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'write:issue');
    const edited: Attachment = await g.call(`${assets()}/${a.id}`, {
      method: 'PATCH', auth, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'name=newAttachmentName.txt',
    }, 201);
    expect([edited.id, edited.name]).toEqual([a.id, 'newAttachmentName.txt']);
    expect((await g.api(`${assets()}/${a.id}`, { method: 'PATCH', auth, json: { name: 'newAttachmentName' } })).status).toBe(422);
  });

  it('TestAPIDeleteCommentAttachment', async () => {
    const a = await uploaded();
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(`${assets()}/${a.id}`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await g.api(`${assets()}/${a.id}`, { auth })).status).toBe(404);
  });
});
