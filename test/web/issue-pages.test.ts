import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDiff, readDiff } from '../../src/services/web/issue-pages-diff';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { as, cloneWork, ok, type Creds } from '../helpers/pull-fixtures';
import { createToken, createUser, startTestServer, type Auth, type TestServer } from '../helpers/server';

// The issue, pull request, label and milestone pages: every html_url, diff_url and patch_url
// the API hands out for them answers, with the visitor's permissions, and user text escaped.

let s: TestServer;
let alice: Creds;
let bob: Creds;
const NASTY = '<script>x</script>';
const ESCAPED = '&lt;script&gt;x&lt;/script&gt;';

/** Ids and URLs the API answered while setting up. */
const got = {
  label: 0, milestone: 0, issueUrl: '', commentUrl: '', commentId: 0, uuid: '',
  pullUrl: '', mergedUrl: '', diffUrl: '', patchUrl: '', headSha: '', reviewUrl: '', reviewId: 0, noteUrl: '', noteId: 0,
};

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

/** A page by absolute URL or path under the root, redirects not followed. */
async function page(url: string, auth?: Auth): Promise<{ status: number; text: string; res: Response }> {
  const res = await s.request(url, { auth, redirect: 'manual' });
  return { status: res.status, text: await res.text(), res };
}
const noFragment = (url: string) => url.replace(/#.*$/, '');

async function seedIssue(): Promise<void> {
  got.label = (await ok(await api('repos/alice/proj/labels', 'POST', { name: 'bug', color: '#ee0701', description: 'broken' }), 201)).id;
  got.milestone = (await ok(await api('repos/alice/proj/milestones', 'POST', { title: 'v1.0', description: 'the **first**' }), 201)).id;
  const issue = await ok(await api('repos/alice/proj/issues', 'POST', {
    title: NASTY, body: 'Hello **world** <b>raw</b>', labels: [got.label], milestone: got.milestone, assignees: ['alice'],
  }), 201);
  got.issueUrl = issue.html_url;
  const comment = await ok(await api('repos/alice/proj/issues/1/comments', 'POST', { body: 'a *comment*' }), 201);
  got.commentUrl = comment.html_url;
  got.commentId = comment.id;
  const form = new FormData();
  form.append('attachment', new Blob(['hello']), 'notes.txt');
  const asset = await s.request('api/v1/repos/alice/proj/issues/1/assets', { method: 'POST', auth: as(alice), body: form });
  got.uuid = (await ok(asset, 201)).uuid;
}

async function seedPull(): Promise<void> {
  const work = await cloneWork(s, 'alice', 'proj', alice);
  got.headSha = await work.branch('feature', { 'a.txt': 'one\ntwo\n' });
  const pr = await ok(await api('repos/alice/proj/pulls', 'POST', { head: 'feature', base: 'main', title: 'Add a', body: 'please' }), 201);
  Object.assign(got, { pullUrl: pr.html_url, diffUrl: pr.diff_url, patchUrl: pr.patch_url });
  const review = await ok(await api(`repos/alice/proj/pulls/${pr.number}/reviews`, 'POST', {
    event: 'COMMENT', body: 'looks *fine*', comments: [{ path: 'a.txt', body: 'line note', new_position: 1 }],
  }));
  got.reviewUrl = review.html_url;
  got.reviewId = review.id;
  const [note] = await ok(await api(`repos/alice/proj/pulls/${pr.number}/reviews/${review.id}/comments`));
  got.noteUrl = note.html_url;
  got.noteId = note.id;
  await work.branch('second', { 'b.txt': 'bee\n' });
  const merged = await ok(await api('repos/alice/proj/pulls', 'POST', { head: 'second', base: 'main', title: 'Merged one' }), 201);
  got.mergedUrl = merged.html_url;
  await ok(await api(`repos/alice/proj/pulls/${merged.number}/merge`, 'POST', { Do: 'merge' }));
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await seedIssue();
  await seedPull();
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });
  await ok(await api('repos/alice/secret/issues', 'POST', { title: 'hidden issue' }), 201);
  await createRepo(s, alice, 'quiet', { auto_init: true });
  await ok(await api('repos/alice/quiet/issues', 'POST', { title: 'before' }), 201);
  await ok(await api('repos/alice/quiet', 'PATCH', { has_issues: false }));
});
afterAll(async () => { await s.stop(); });

describe('issues', () => {
  it('lists open issues with labels, author and comment count; closed ones on ?state=closed', async () => {
    const { status, text } = await page('alice/proj/issues');
    expect(status).toBe(200);
    expect(text).toContain(`href="${got.issueUrl}"`);
    expect(text).toContain(ESCAPED);
    expect(text).not.toContain(NASTY);
    expect(text).toMatch(/<span class="label c-[0-9a-f]{6}" title="broken">bug<\/span>/);
    expect(text).toContain('>alice</a>');
    expect(text).toContain('1 comment');
    expect(text).not.toContain('Add a');
    expect(text).toMatch(/class="active" href="[^"]*\/issues"/);
    const closed = await page('alice/proj/issues?state=closed');
    expect(closed.status).toBe(200);
    expect(closed.text).not.toContain(ESCAPED);
    const filtered = await page(`alice/proj/issues?labels=${got.label}&milestone=${got.milestone}`);
    expect(filtered.text).toContain(ESCAPED);
    expect((await page('alice/proj/issues?labels=999999')).text).not.toContain(ESCAPED);
  });

  it('shows the issue at its html_url: markdown body, labels, milestone, assignees, attachments, comments', async () => {
    const { status, text } = await page(got.issueUrl);
    expect(status).toBe(200);
    expect(text).toContain(`<title>${ESCAPED} #1`);
    expect(text).not.toContain(NASTY);
    expect(text).toContain('<strong>world</strong>');
    // User HTML Gitea allows stays markup in the body (sanitized); the title stays text.
    expect(text).toContain('<b>raw</b>');
    expect(text).toContain('class="state-open"');
    expect(text).toContain(`href="${s.hearth.config.server.root_url}alice/proj/milestone/${got.milestone}"`);
    expect(text).toContain(`href="${s.hearth.config.server.root_url}attachments/${got.uuid}"`);
    expect(text).toMatch(/<h2 id="side-assignees">Assignees<\/h2><p><a [^>]*>alice<\/a>/);
    expect(text).toContain(`id="issuecomment-${got.commentId}"`);
    expect(text).toContain('<em>comment</em>');
  });

  it("answers a comment's html_url (the issue page holding its anchor)", async () => {
    expect(got.commentUrl).toBe(`${got.issueUrl}#issuecomment-${got.commentId}`);
    const { status, text } = await page(noFragment(got.commentUrl));
    expect(status).toBe(200);
    expect(text).toContain(`id="issuecomment-${got.commentId}"`);
  });

  it('redirects a pull request index to /pulls (302), and 404s unknown or non-numeric indexes', async () => {
    const { status, res } = await page('alice/proj/issues/2');
    expect(status).toBe(302);
    expect(res.headers.get('location')).toBe(got.pullUrl);
    for (const p of ['alice/proj/issues/99', 'alice/proj/issues/abc', 'alice/proj/issues/0', 'alice/proj/issues/1x']) {
      const r = await page(p);
      expect(r.status, p).toBe(404);
      expect(r.text).toContain('Page Not Found');
    }
  });
});

describe('pull requests', () => {
  it('lists open pulls with their branches', async () => {
    const { status, text } = await page('alice/proj/pulls');
    expect(status).toBe(200);
    expect(text).toContain(`href="${got.pullUrl}"`);
    expect(text).toContain('<code>feature</code> → <code>main</code>');
    expect(text).not.toContain(ESCAPED);
  });

  it('shows the pull at its html_url with branches, merge state, tabs and the review anchor', async () => {
    const { status, text } = await page(got.pullUrl);
    expect(status).toBe(200);
    expect(text).toContain('Add a');
    expect(text).toContain('wants to merge 1 commit into <code>main</code> from <code>feature</code>');
    expect(text).toContain('This branch has no conflicts with the base branch.');
    expect(text).toContain(`href="${got.pullUrl}/files"`);
    expect(text).toContain(`href="${got.pullUrl}/commits"`);
    expect(text).toContain(`id="${got.reviewUrl.split("#")[1]}"`);
    expect(text).toContain('<em>fine</em>');
    expect(noFragment(got.reviewUrl)).toBe(got.pullUrl);
    expect((await page(noFragment(got.reviewUrl))).status).toBe(200);
  });

  it('streams diff_url and patch_url as text/plain', async () => {
    const diff = await page(got.diffUrl);
    expect(diff.status).toBe(200);
    expect(diff.res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(diff.text).toContain('diff --git a/a.txt b/a.txt');
    expect(diff.text).toContain('+one');
    const patch = await page(got.patchUrl);
    expect(patch.status).toBe(200);
    expect(patch.res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(patch.text).toMatch(/^From [0-9a-f]{40} /);
    expect(patch.text).toContain('Subject: [PATCH] change a.txt');
    expect((await page('alice/proj/pulls/1.diff')).status).toBe(404);
    expect((await page('alice/proj/pulls/2.zip')).status).toBe(404);
  });

  it('shows the files tab with the diff and the review comment anchor', async () => {
    // A submitted review's line comment links into the conversation, as Gitea's; the files tab shows it by its line.
    expect(got.noteUrl).toBe(`${got.pullUrl}#issuecomment-${got.noteId}`);
    const { status, text } = await page(`${got.pullUrl}/files`);
    expect(status).toBe(200);
    expect(text).toContain('a.txt');
    expect(text).toMatch(/<tr class="add"><td class="num"><\/td><td class="num"[^>]*>(<a [^>]*>)?1(<\/a>)?<\/td><td>\+one<\/td><\/tr>/);
    expect(text).toContain(`id="issuecomment-${got.noteId}"`);
    expect(text).toContain('line note');
  });

  it('shows the commits tab linking to each commit; other tabs are 404', async () => {
    const { status, text } = await page(`${got.pullUrl}/commits`);
    expect(status).toBe(200);
    expect(text).toContain(`href="${s.hearth.config.server.root_url}alice/proj/commit/${got.headSha}"`);
    expect(text).toContain('change a.txt');
    expect((await page(`${got.pullUrl}/checks`)).status).toBe(404);
    expect((await page('alice/proj/pulls/1/files')).status).toBe(404);
  });

  it('shows a merged pull as merged, in the closed list, with its files still there', async () => {
    const { status, text } = await page(got.mergedUrl);
    expect(status).toBe(200);
    expect(text).toContain('<span class="state-merged">Merged</span>');
    expect(text).toMatch(/alice<\/a> merged 1 commit into <code>main<\/code> from <code>second<\/code>/);
    expect(text).not.toContain('no conflicts with the base branch');
    expect((await page('alice/proj/pulls')).text).not.toContain('Merged one');
    expect((await page('alice/proj/pulls?state=closed')).text).toContain('Merged one');
    const files = await page(`${got.mergedUrl}/files`);
    expect(files.status).toBe(200);
    expect(files.text).toContain('<td>+bee</td>');
  });

  it('redirects an issue index to /issues (302); 404 for unknown indexes', async () => {
    const { status, res } = await page('alice/proj/pulls/1');
    expect(status).toBe(302);
    expect(res.headers.get('location')).toBe(got.issueUrl);
    expect((await page('alice/proj/pulls/99')).status).toBe(404);
    expect((await page('alice/proj/pulls/99.diff')).status).toBe(404);
  });
});

describe('labels and milestones', () => {
  it('lists the labels with their open counts', async () => {
    const { status, text } = await page('alice/proj/labels');
    expect(status).toBe(200);
    expect(text).toMatch(/<span class="label c-[0-9a-f]{6}">bug<\/span>/);
    expect(text).toContain(`issues?labels=${got.label}`);
    expect(text).toContain('1 open');
  });

  it("lists an organization's labels on its repositories' page", async () => {
    await createOrg(s, alice, 'acme');
    await ok(await api('orgs/acme/labels', 'POST', { name: 'org-wide', color: '#00ff00' }), 201);
    await ok(await api('orgs/acme/repos', 'POST', { name: 'tools' }), 201);
    const { status, text } = await page('acme/tools/labels');
    expect(status).toBe(200);
    expect(text).toContain('Organization labels');
    expect(text).toContain('org-wide');
  });

  it('lists milestones and shows one with its issues; unknown ids are 404', async () => {
    const list = await page('alice/proj/milestones');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`alice/proj/milestone/${got.milestone}"`);
    expect(list.text).toContain('1 open · 0 closed');
    expect((await page('alice/proj/milestones?state=closed')).text).not.toContain('v1.0');
    const one = await page(`alice/proj/milestone/${got.milestone}`);
    expect(one.status).toBe(200);
    expect(one.text).toContain('<strong>first</strong>');
    expect(one.text).toContain(`href="${got.issueUrl}"`);
    expect(one.text).toContain(ESCAPED);
    expect(one.text).not.toContain(NASTY);
    for (const p of ['alice/proj/milestone/9999', 'alice/proj/milestone/v1.0', 'alice/proj/milestone/0']) expect((await page(p)).status, p).toBe(404);
  });
});

describe('who may see', () => {
  const PRIVATE = ['alice/secret/issues', 'alice/secret/issues/1', 'alice/secret/pulls', 'alice/secret/labels', 'alice/secret/milestones'];

  it('hides a private repository from anonymous visitors and other users (404)', async () => {
    for (const p of PRIVATE) {
      expect((await page(p)).status, p).toBe(404);
      expect((await page(p, as(bob))).status, p).toBe(404);
      expect((await page(p, as(alice))).status, p).toBe(200);
    }
    expect((await page('alice/secret/issues/1', as(alice))).text).toContain('hidden issue');
  });

  it('shows what an anonymous visitor sees to a token that may not read repositories', async () => {
    const token = await createToken(s, alice, ['read:user']);
    expect((await page('alice/secret/issues/1', { token })).status).toBe(404);
    const full = await createToken(s, alice, ['read:repository']);
    expect((await page('alice/secret/issues/1', { token: full })).status).toBe(200);
  });

  it('answers 404 when the issues unit is disabled', async () => {
    for (const p of ['alice/quiet/issues', 'alice/quiet/issues/1']) {
      expect((await page(p)).status, p).toBe(404);
      expect((await page(p, as(alice))).status, p).toBe(404);
    }
    const { text } = await page('alice/quiet/pulls');
    expect(text).not.toMatch(/href="[^"]*\/quiet\/issues"/);
  });
});

describe('the diff of the files page', () => {
  it('numbers lines per hunk and keeps content lines that look like headers', () => {
    const [file] = parseDiff([
      'diff --git a/x b/x', 'index 1..2 100644', '--- a/x', '+++ b/x', '@@ -3,3 +3,3 @@ ctx', ' keep', '--- gone', '+++ came', ' end',
    ].join('\n'));
    expect(file!.lines).toEqual([
      { kind: 'hunk', text: '@@ -3,3 +3,3 @@ ctx' }, { kind: 'ctx', old: 3, new: 3, text: 'keep' },
      { kind: 'del', old: 4, text: '-- gone' }, { kind: 'add', new: 4, text: '++ came' }, { kind: 'ctx', old: 5, new: 5, text: 'end' },
    ]);
  });

  it('stops reading at the cap, on a whole line', async () => {
    let killed = false;
    const d = {
      filename: 'x.diff', contentType: 'text/plain', commit: 'c', format: 'diff',
      open: () => ({ stdout: Readable.from([Buffer.from('line one\nline two\n'), Buffer.from('line three\n')]), kill: () => { killed = true; }, done: Promise.resolve({ code: -1, stderr: '' }) }),
    };
    expect(await readDiff(d, 12)).toEqual({ text: 'line one\n', truncated: true });
    expect(killed).toBe(true);
  });
});
