import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { WebClient } from '../helpers/web-client';

// Editing files in the browser: new, edit, upload (multipart) and delete, committed through the
// contents service, straight to the branch or to a new branch that leads to the comparison;
// refusals (a conflict, a protected or archived branch, a reader's forged post, a post
// without its CSRF token) change nothing and say why.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds;
let bob: Creds;
const root = () => s.hearth.config.server.root_url;
const api = (p: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${p}`, init);
const file = async (repo: string, p: string, ref = 'main') => {
  const res = await api(`repos/alice/${repo}/raw/${p}?ref=${encodeURIComponent(ref)}`, { auth: as(alice) });
  return res.status === 200 ? res.text() : null;
};
const head = async (repo: string, branch = 'main') => (await json(await api(`repos/alice/${repo}/branches/${branch}`, { auth: as(alice) }))).commit.id as string;
const lastMessage = async (repo: string, ref = 'main') => (await json(await api(`repos/alice/${repo}/commits?sha=${ref}&limit=1`, { auth: as(alice) })))[0].commit.message as string;

async function signedIn(u: Creds): Promise<WebClient> {
  const c = new WebClient(s);
  await c.signIn(u.username, u.password);
  return c;
}

/** A repository of its own per test, with README.md and docs/a.txt on main. */
async function fresh(name: string): Promise<void> {
  await createRepo(s, alice, name, { auto_init: true });
  await ok(await api(`repos/alice/${name}/contents/docs/a.txt`, { method: 'POST', auth: as(alice), json: { content: Buffer.from('one\n').toString('base64') } }), 201);
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
});
afterAll(async () => { await s.stop(); });

describe('new and edit', () => {
  it('creates a file on the branch, with the summary and body as its message', async () => {
    await fresh('e-new');
    const c = await signedIn(alice);
    const form = await (await c.get('alice/e-new/_new/main/docs')).text();
    expect(form).toContain('value="docs/"');
    expect(form).toContain('<input type="radio" name="commit_choice" value="direct" checked>');
    const res = await c.post('alice/e-new/_new/main/docs', { tree_path: 'docs/b.md', content: '# B\r\n', commit_summary: 'Add B', commit_message: 'Because.', commit_choice: 'direct' }, { from: 'alice/e-new/_new/main/docs' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}alice/e-new/src/branch/main/docs/b.md`);
    expect(await file('e-new', 'docs/b.md')).toBe('# B\n');
    expect(await lastMessage('e-new')).toBe('Add B\n\nBecause.\n');
  });

  it('edits a file on a new branch and goes to the comparison that starts a pull request', async () => {
    await fresh('e-branch');
    const c = await signedIn(alice);
    const form = await (await c.get('alice/e-branch/_edit/main/docs/a.txt')).text();
    expect(form).toContain('one\n</textarea>');
    expect(form).toContain('name="new_branch_name" type="text" value="alice-patch-1"');
    const before = await head('e-branch');
    const res = await c.post('alice/e-branch/_edit/main/docs/a.txt', { tree_path: 'docs/a.txt', content: 'two\n', commit_choice: 'commit-to-new-branch', new_branch_name: 'alice-patch-1', last_commit: before }, { from: 'alice/e-branch/_edit/main/docs/a.txt' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}alice/e-branch/compare/main...alice-patch-1`);
    expect(await file('e-branch', 'docs/a.txt')).toBe('one\n');
    expect(await file('e-branch', 'docs/a.txt', 'alice-patch-1')).toBe('two\n');
    expect(await lastMessage('e-branch', 'alice-patch-1')).toBe('Update docs/a.txt\n');
    expect(await head('e-branch')).toBe(before);
    const compare = await c.get(res.headers.get('location')!);
    expect(compare.status).toBe(200);
  });

  it('refuses to overwrite a change made since the form was opened', async () => {
    await fresh('e-race');
    const c = await signedIn(alice);
    const opened = await head('e-race');
    const current = await json(await api('repos/alice/e-race/contents/docs/a.txt', { auth: as(alice) }));
    await ok(await api('repos/alice/e-race/contents/docs/a.txt', { method: 'PUT', auth: as(alice), json: { content: Buffer.from('theirs\n').toString('base64'), sha: current.sha } }));
    const res = await c.post('alice/e-race/_edit/main/docs/a.txt', { tree_path: 'docs/a.txt', content: 'mine\n', commit_choice: 'direct', last_commit: opened }, { from: 'alice/e-race/_edit/main/docs/a.txt' });
    expect(res.status).toBe(422);
    const body = await res.text();
    expect(body).toContain('This file was changed since you opened it.');
    expect(body).toContain('mine\n</textarea>');
    expect(await file('e-race', 'docs/a.txt')).toBe('theirs\n');
  });

  it('re-renders with errors beside the fields: no name, a taken name', async () => {
    await fresh('e-invalid');
    const c = await signedIn(alice);
    const empty = await c.post('alice/e-invalid/_new/main', { tree_path: '', content: 'x' }, { from: 'alice/e-invalid/_new/main' });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toMatch(/id="f-tree_path-error">The file name \(none\) is not allowed\./);
    const taken = await c.post('alice/e-invalid/_new/main', { tree_path: 'README.md', content: 'x' }, { from: 'alice/e-invalid/_new/main' });
    expect(taken.status).toBe(422);
    expect(await taken.text()).toContain('id="f-tree_path-error">A file of that name exists already.');
  });

  it('starts an empty repository with its first file', async () => {
    await createRepo(s, alice, 'e-empty');
    const c = await signedIn(alice);
    const res = await c.post('alice/e-empty/_new/main', { tree_path: 'README.md', content: 'hello\n' }, { from: 'alice/e-empty/_new/main' });
    expect(res.status).toBe(303);
    expect(await file('e-empty', 'README.md')).toBe('hello\n');
    expect((await json(await api('repos/alice/e-empty', { auth: as(alice) }))).empty).toBe(false);
  });
});

describe('delete and upload', () => {
  it('deletes a file and goes to its directory', async () => {
    await fresh('e-del');
    await ok(await api('repos/alice/e-del/contents/docs/keep.txt', { method: 'POST', auth: as(alice), json: { content: '' } }), 201);
    const c = await signedIn(alice);
    const form = await (await c.get('alice/e-del/_delete/main/docs/a.txt')).text();
    expect(form).toContain('<button type="submit" class="danger">Delete file</button>');
    const res = await c.post('alice/e-del/_delete/main/docs/a.txt', { commit_choice: 'direct', last_commit: await head('e-del') }, { from: 'alice/e-del/_delete/main/docs/a.txt' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}alice/e-del/src/branch/main/docs`);
    expect(await file('e-del', 'docs/a.txt')).toBeNull();
    expect(await lastMessage('e-del')).toBe('Delete docs/a.txt\n');
    expect((await c.get('alice/e-del/_delete/main/docs/nope.txt')).status).toBe(404);
  });

  it('uploads several files in one commit', async () => {
    await fresh('e-up');
    const c = await signedIn(alice);
    const token = await c.csrfOf('alice/e-up/_upload/main/docs');
    const form = new FormData();
    form.append('_csrf', token);
    form.append('tree_path', 'docs');
    form.append('commit_choice', 'direct');
    form.append('files', new Blob(['first\n']), 'one.txt');
    form.append('files', new Blob([Buffer.from([0, 1, 2])]), 'two.bin');
    const res = await c.fetch('alice/e-up/_upload/main/docs', { method: 'POST', body: form });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}alice/e-up/src/branch/main/docs`);
    expect(await file('e-up', 'docs/one.txt')).toBe('first\n');
    expect((await api('repos/alice/e-up/raw/docs/two.bin', { auth: as(alice) })).status).toBe(200);
    expect(await lastMessage('e-up')).toBe('Upload files to "docs"\n');
  });

  it('refuses a multipart post without its CSRF token, and commits nothing', async () => {
    await fresh('e-up-forged');
    const c = await signedIn(alice);
    const before = await head('e-up-forged');
    const form = new FormData();
    form.append('tree_path', '');
    form.append('files', new Blob(['sneaky\n']), 'sneaky.txt');
    const res = await c.fetch('alice/e-up-forged/_upload/main', { method: 'POST', body: form });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('This form has expired or was not sent from this site');
    expect(await head('e-up-forged')).toBe(before);
    expect(await file('e-up-forged', 'sneaky.txt')).toBeNull();
  });

  it('refuses more files than an upload takes', async () => {
    await fresh('e-up-many');
    const c = await signedIn(alice);
    const form = new FormData();
    form.append('_csrf', await c.csrfOf('alice/e-up-many/_upload/main'));
    for (let i = 0; i < 6; i++) form.append('files', new Blob([`${i}`]), `f${i}.txt`);
    const res = await c.fetch('alice/e-up-many/_upload/main', { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(await file('e-up-many', 'f0.txt')).toBeNull();
  });
});

describe('who may edit', () => {
  it('sends a browser without a session to sign in', async () => {
    await fresh('e-anon');
    const res = await new WebClient(s).get('alice/e-anon/_edit/main/docs/a.txt');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/user\/login\?redirect_to=/);
  });

  it('shows a reader no form, and a reader\'s forged post changes nothing', async () => {
    await fresh('e-reader');
    await ok(await api('repos/alice/e-reader/collaborators/bob', { method: 'PUT', auth: as(alice), json: { permission: 'read' } }), 204);
    const c = await signedIn(bob);
    expect((await c.get('alice/e-reader/_edit/main/docs/a.txt')).status).toBe(403);
    const token = await c.csrfOf('alice/e-reader');
    const res = await c.post('alice/e-reader/_edit/main/docs/a.txt', { tree_path: 'docs/a.txt', content: 'bob was here\n', commit_choice: 'direct' }, { csrf: token });
    expect(res.status).toBe(403);
    expect(await file('e-reader', 'docs/a.txt')).toBe('one\n');
  });

  it('refuses an archived repository with a clear message', async () => {
    await fresh('e-archived');
    await ok(await api('repos/alice/e-archived', { method: 'PATCH', auth: as(alice), json: { archived: true } }));
    const c = await signedIn(alice);
    const page = await c.get('alice/e-archived/_edit/main/docs/a.txt');
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('This repository is archived: its files and branches cannot be changed.');
    const token = await c.csrfOf('alice/e-archived');
    expect((await c.post('alice/e-archived/_new/main', { tree_path: 'x.txt', content: 'x' }, { csrf: token })).status).toBe(403);
    expect(await file('e-archived', 'x.txt')).toBeNull();
  });

  it('offers only a new branch on a protected branch, and refuses a direct commit to it', async () => {
    await fresh('e-protected');
    await ok(await api('repos/alice/e-protected/branch_protections', { method: 'POST', auth: as(alice), json: { rule_name: 'main', enable_push: false } }), 201);
    const c = await signedIn(alice);
    const form = await (await c.get('alice/e-protected/_edit/main/docs/a.txt')).text();
    expect(form).toContain('<input type="radio" name="commit_choice" value="direct" disabled>');
    expect(form).toContain('<input type="radio" name="commit_choice" value="commit-to-new-branch" checked>');
    const direct = await c.post('alice/e-protected/_edit/main/docs/a.txt', { tree_path: 'docs/a.txt', content: 'x\n', commit_choice: 'direct' }, { from: 'alice/e-protected/_edit/main/docs/a.txt' });
    expect(direct.status).toBe(422);
    expect(await direct.text()).toContain('You may not commit to the protected branch main');
    expect(await file('e-protected', 'docs/a.txt')).toBe('one\n');
    const branched = await c.post('alice/e-protected/_edit/main/docs/a.txt', { tree_path: 'docs/a.txt', content: 'x\n', commit_choice: 'commit-to-new-branch', new_branch_name: 'fix' }, { from: 'alice/e-protected/_edit/main/docs/a.txt' });
    expect(branched.status).toBe(303);
    expect(await file('e-protected', 'docs/a.txt', 'fix')).toBe('x\n');
  });
});
