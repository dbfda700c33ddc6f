import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { as, ok, type Creds } from '../helpers/pull-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { ownerAndOther, type WebClient } from '../helpers/web-client';

// The new issue page over HTTP: the blank form (a writer's labels, assignees, milestone and a
// file, multipart), the template chooser, a markdown template's prefill, an issue form's
// answers written as Gitea writes them, and refusals that create nothing. Checked through the API.

let s: TestServer;
let alice: Creds;
let web: WebClient;
let bobWeb: WebClient;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

/** Posts the new issue form as a browser does (multipart), with the page's token. */
async function postNew(c: WebClient, repo: string, fields: [string, string][], file?: { name: string; bytes: string }): Promise<Response> {
  const csrf = await c.csrfOf(`alice/${repo}/issues/new?blank=1`);
  const form = new FormData();
  form.append('_csrf', csrf);
  for (const [k, v] of fields) form.append(k, v);
  if (file) form.append('attachment', new Blob([file.bytes]), file.name);
  return c.fetch(`alice/${repo}/issues/new`, { method: 'POST', body: form });
}

const FORM_YAML = `name: Feature
description: Ask for something
body:
  - type: markdown
    attributes:
      value: Thanks for asking!
  - type: input
    id: summary
    attributes:
      label: Summary
    validations:
      required: true
  - type: dropdown
    id: area
    attributes:
      label: Area
      options: [api, git]
  - type: checkboxes
    id: terms
    attributes:
      label: Terms
      options:
        - label: I searched first
          required: true
`;
const BUG_MD = '---\nname: Bug report\nabout: Something is broken\ntitle: "[bug] "\nlabels: bug\n---\nDescribe the bug.\n';

beforeAll(async () => {
  s = await startTestServer({ HEARTH__ATTACHMENT__ALLOWED_TYPES: '.txt' });
  const users = await ownerAndOther(s);
  ({ alice } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await createRepo(s, alice, 'tpl');
  const wt = await workTree({
    'README.md': '# tpl\n', '.gitea/ISSUE_TEMPLATE/bug.md': BUG_MD, '.gitea/ISSUE_TEMPLATE/feature.yaml': FORM_YAML,
    '.gitea/ISSUE_TEMPLATE/config.yaml': 'blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Ask there\n',
  });
  await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'tpl', alice.username, alice.password), 'main');
  await ok(await api('repos/alice/tpl/labels', 'POST', { name: 'bug', color: '#ee0701' }), 201);
});
afterAll(async () => { await s.stop(); });

describe('the blank form', () => {
  it("creates a writer's issue with a label, an assignee, a milestone and a file", async () => {
    const label = await ok(await api('repos/alice/proj/labels', 'POST', { name: 'area', color: '#00aabb' }), 201);
    const milestone = await ok(await api('repos/alice/proj/milestones', 'POST', { title: 'v1' }), 201);
    const page = await (await web.get('alice/proj/issues/new')).text();
    expect(page).toContain(`name="label" value="${label.id}"`);
    expect(page).toContain('enctype="multipart/form-data"');
    const res = await postNew(web, 'proj', [
      ['title', 'Made on the page'], ['content', 'with **body**'], ['label', String(label.id)],
      ['assignee', 'alice'], ['milestone', String(milestone.id)],
    ], { name: 'notes.txt', bytes: 'hello' });
    expect(res.status, await res.clone().text()).toBe(303);
    const n = Number(/issues\/(\d+)$/.exec(res.headers.get('location') ?? '')?.[1]);
    const got = await ok(await api(`repos/alice/proj/issues/${n}`));
    expect([got.title, got.body, got.milestone.title]).toEqual(['Made on the page', 'with **body**', 'v1']);
    expect(got.labels.map((l: { name: string }) => l.name)).toEqual(['area']);
    expect(got.assignees.map((u: { login: string }) => u.login)).toEqual(['alice']);
    expect(got.assets.map((a: { name: string; size: number }) => [a.name, a.size])).toEqual([['notes.txt', 5]]);
  });

  it("offers a reader no labels and drops a forged one, as the API does", async () => {
    const label = await ok(await api('repos/alice/proj/labels', 'POST', { name: 'kept', color: '#112233' }), 201);
    expect(await (await bobWeb.get('alice/proj/issues/new')).text()).not.toContain('name="label"');
    const res = await postNew(bobWeb, 'proj', [['title', 'From bob'], ['label', String(label.id)]]);
    expect(res.status).toBe(303);
    const n = Number(/issues\/(\d+)$/.exec(res.headers.get('location') ?? '')?.[1]);
    const got = await ok(await api(`repos/alice/proj/issues/${n}`));
    expect([got.user.login, got.labels]).toEqual(['bob', []]);
  });

  it('refuses an empty title or a file type not allowed (422), creating nothing', async () => {
    const before = (await ok(await api('repos/alice/proj/issues?state=all&type=issues'))).length;
    const untitled = await postNew(web, 'proj', [['title', ' '], ['content', 'kept text']]);
    expect(untitled.status).toBe(422);
    const text = await untitled.text();
    expect(text).toContain('id="f-title-error"');
    expect(text).toContain('>kept text</textarea>');
    const refused = await postNew(web, 'proj', [['title', 'with a binary']], { name: 'tool.exe', bytes: 'MZ' });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('id="f-attachment-error"');
    expect((await ok(await api('repos/alice/proj/issues?state=all&type=issues'))).length).toBe(before);
  });

  it('sends an anonymous visitor to sign in', async () => {
    const res = await s.request('alice/proj/issues/new', { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('user/login');
  });
});

describe('templates', () => {
  it('chooses among the templates and contact links; blank issues off hides the blank form', async () => {
    const text = await (await web.get('alice/tpl/issues/new')).text();
    expect(text).toContain('Bug report');
    expect(text).toContain('?template=.gitea%2FISSUE_TEMPLATE%2Ffeature.yaml');
    expect(text).toContain('href="https://forum.example.com"');
    expect(text).not.toContain('Open a blank issue');
    expect(text).not.toContain('name="title"');
  });

  it("prefills a markdown template's title, text and labels", async () => {
    const text = await (await web.get('alice/tpl/issues/new?template=.gitea/ISSUE_TEMPLATE/bug.md')).text();
    expect(text).toContain('value="[bug] "');
    expect(text).toContain('>Describe the bug.\n</textarea>');
    expect(text).toMatch(/name="label" value="\d+" checked/);
  });

  it("writes an issue form's answers as Gitea does, refusing missing required ones (422)", async () => {
    const template = '.gitea/ISSUE_TEMPLATE/feature.yaml';
    const page = await (await web.get(`alice/tpl/issues/new?template=${encodeURIComponent(template)}`)).text();
    expect(page).toContain('Thanks for asking!');
    expect(page).toContain('name="form-summary"');
    const missing = await postNew(web, 'tpl', [['template', template], ['title', 'Want'], ['form-area', '1']]);
    expect(missing.status).toBe(422);
    const again = await missing.text();
    expect(again).toContain('id="form-terms-error"');
    expect(again).toMatch(/<option value="1" selected>git<\/option>/);
    const res = await postNew(web, 'tpl', [['template', template], ['title', 'Want'], ['form-summary', 'faster'], ['form-area', '1'], ['form-terms', '0']]);
    expect(res.status).toBe(303);
    const n = Number(/issues\/(\d+)$/.exec(res.headers.get('location') ?? '')?.[1]);
    expect((await ok(await api(`repos/alice/tpl/issues/${n}`))).body)
      .toBe('### Summary\n\nfaster\n\n### Area\n\ngit\n\n### Terms\n\n- [x] I searched first\n\n');
  });
});

describe('the comment form', () => {
  it("attaches a writer's file to the comment", async () => {
    const { number: n } = await ok(await api('repos/alice/proj/issues', 'POST', { title: 'with files' }), 201);
    const from = `alice/proj/issues/${n}`;
    const form = new FormData();
    form.append('_csrf', await web.csrfOf(from));
    form.append('content', 'see the file');
    form.append('attachment', new Blob(['log line']), 'log.txt');
    const res = await web.fetch(`${from}/comments`, { method: 'POST', body: form });
    expect(res.status).toBe(303);
    const [c] = await ok(await api(`repos/alice/proj/issues/${n}/comments`));
    expect(c.assets.map((a: { name: string }) => a.name)).toEqual(['log.txt']);
    expect(await (await web.get(from)).text()).toContain('>log.txt</a>');
  });
});
