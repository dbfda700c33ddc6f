import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

let s: TestServer;
let alice: { username: string; password: string };
let bob: { username: string; password: string };

const get = (p: string, who: { username: string; password: string } | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { auth: who ? { basic: [who.username, who.password] } : undefined });

async function ok(res: Response) {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text);
}

async function pushRepo(name: string, files: Record<string, string>, extra: Record<string, unknown> = {}) {
  await createRepo(s, alice, name, extra);
  const wt = await workTree(files);
  await git(wt, 'push', '-q', remoteUrl(s, 'alice', name, alice.username, alice.password), 'main');
}

const BUG_MD = `---
name: Bug report
about: Something is broken
title: "[bug] "
labels: bug, needs triage
assignees:
  - alice
ref: main
---
Describe the bug.
`;

const FORM_YAML = `name: Feature
description: Ask for something
labels: [enhancement]
ref: refs/tags/v1
body:
  - type: markdown
    attributes:
      value: Thanks!
  - type: input
    id: summary
    attributes:
      label: Summary
    validations:
      required: true
  - type: dropdown
    attributes:
      label: Area
      options: [api, git]
      default: 1
  - type: checkboxes
    id: terms
    attributes:
      label: Terms
      options:
        - label: I searched first
          required: true
`;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await pushRepo('tpl', {
    'README.md': '# tpl\n',
    '.gitea/ISSUE_TEMPLATE/bug.md': BUG_MD,
    '.gitea/ISSUE_TEMPLATE/feature.yaml': FORM_YAML,
    '.gitea/ISSUE_TEMPLATE/broken.yaml': 'name: Broken\nabout: no body\n',
    '.gitea/ISSUE_TEMPLATE/notes.txt': 'ignored',
    '.gitea/ISSUE_TEMPLATE/config.yaml': 'blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Ask there\n',
    '.github/ISSUE_TEMPLATE/plain.md': 'Just a body without front matter\n',
  });
  await pushRepo('badcfg', {
    '.github/issue_template/config.yml': 'contact_links:\n  - name: Docs\n    about: Read them\n',
  });
  await pushRepo('secret', { '.gitea/ISSUE_TEMPLATE/bug.md': BUG_MD }, { private: true });
  await createRepo(s, alice, 'empty');
});
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/issue_templates', () => {
  it('lists markdown templates and issue forms of the default branch, flagging invalid files', async () => {
    const res = await get('tpl/issue_templates');
    const body = await ok(res);
    expectShape(body, '[IssueTemplate]');
    expect(res.headers.get('x-gitea-warning')).toBe('error occurs when parsing issue template: count=1');
    expect(body.map((t: { file_name: string }) => t.file_name)).toEqual([
      '.gitea/ISSUE_TEMPLATE/bug.md', '.gitea/ISSUE_TEMPLATE/feature.yaml', '.github/ISSUE_TEMPLATE/plain.md',
    ]);
    const [bug, feature, plain] = body;
    expect(bug).toMatchObject({
      name: 'Bug report', about: 'Something is broken', title: '[bug] ', labels: ['bug', 'needs triage'],
      assignees: ['alice'], ref: 'refs/heads/main', content: 'Describe the bug.\n', body: [],
    });
    expect(feature).toMatchObject({ name: 'Feature', about: 'Ask for something', labels: ['enhancement'], ref: 'refs/tags/v1', content: '' });
    expect(feature.body).toEqual([
      { type: 'markdown', id: '0', attributes: { value: 'Thanks!' }, validations: {}, visible: ['form'] },
      { type: 'input', id: 'summary', attributes: { label: 'Summary' }, validations: { required: true }, visible: ['form', 'content'] },
      { type: 'dropdown', id: '2', attributes: { label: 'Area', options: ['api', 'git'], default: 1 }, validations: {}, visible: ['form', 'content'] },
      { type: 'checkboxes', id: 'terms', attributes: { label: 'Terms', options: [{ label: 'I searched first', required: true }] }, validations: {}, visible: ['form', 'content'] },
    ]);
    // Without front matter the file name is the name and the text the description.
    expect(plain).toMatchObject({ name: 'plain.md', about: 'Just a body without front matter\n', ref: 'refs/heads/' });
  });

  it('answers an empty list for an empty repository and 404 to outsiders of a private one', async () => {
    expect(await ok(await get('empty/issue_templates'))).toEqual([]);
    expect((await get('secret/issue_templates', bob)).status).toBe(404);
    expect((await get('secret/issue_templates', null)).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/issue_config', () => {
  it('reads config.yaml of the template directory', async () => {
    const body = await ok(await get('tpl/issue_config'));
    expectShape(body, 'IssueConfig');
    expect(body).toEqual({
      blank_issues_enabled: false,
      contact_links: [{ name: 'Forum', url: 'https://forum.example.com', about: 'Ask there' }],
    });
  });

  it('answers the defaults without a file or with an invalid one', async () => {
    const defaults = { blank_issues_enabled: true, contact_links: [] };
    expect(await ok(await get('empty/issue_config'))).toEqual(defaults);
    expect(await ok(await get('badcfg/issue_config'))).toEqual(defaults);
  });
});

describe('GET /repos/{owner}/{repo}/issue_config/validate', () => {
  it('reports whether the configuration is valid, and why not', async () => {
    const good = await ok(await get('tpl/issue_config/validate'));
    expectShape(good, 'IssueConfigValidation');
    expect(good).toEqual({ valid: true, message: '' });
    const bad = await ok(await get('badcfg/issue_config/validate'));
    expectShape(bad, 'IssueConfigValidation');
    expect(bad).toEqual({ valid: false, message: 'contact_link at position 1 is missing url key' });
    expect(await json(await get('empty/issue_config/validate'))).toEqual({ valid: true, message: '' });
  });
});
