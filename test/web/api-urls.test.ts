import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Every URL the API hands out resolves: a scenario makes one of everything (user, organization,
// team, private repository with files, branch, tag, release with an asset, issue with an
// attachment, comment, milestone, label, pull request with a review, commit status), every
// URL-valued field of every answer is collected, and each is fetched: 200 (after redirects)
// for a caller who may see the object, 404 for callers who may not.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;
const answers: { from: string; body: unknown }[] = [];

async function call(path: string, method = 'GET', body?: unknown, who: Creds = alice, status?: number): Promise<any> {
  const init: Parameters<TestServer['request']>[1] = { method, auth: as(who) };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) init.json = body;
  const res = await s.request(`api/v1/${path}`, init);
  const text = await res.text();
  if (status !== undefined) expect(res.status, `${method} ${path}: ${text}`).toBe(status);
  else expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  const parsed = text ? JSON.parse(text) : null;
  answers.push({ from: `${method} ${path}`, body: parsed });
  return parsed;
}

const upload = (name: string, data: string) => {
  const form = new FormData();
  form.append('attachment', new Blob([data]), name);
  return form;
};

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await call('users/alice');
  await createOrg(s, alice, 'acme');
  await call('orgs/acme');
  const team = await call('orgs/acme/teams', 'POST', { name: 'devs', permission: 'write', units: ['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases'], includes_all_repositories: true });
  await call(`teams/${team.id}/members/bob`, 'PUT');
  await call(`teams/${team.id}`);
  const R = 'repos/acme/app';
  await call('orgs/acme/repos', 'POST', { name: 'app', private: true, auto_init: true, license: 'MIT', readme: 'Default' });
  await call(R);
  await call(`${R}/contents/docs/guide.md`, 'POST', { content: Buffer.from('# Guide\n').toString('base64'), message: 'Add guide' });
  await call(`${R}/contents`);
  await call(`${R}/contents/docs/guide.md`);
  await call(`${R}/branches`, 'POST', { new_branch_name: 'feature' });
  await call(`${R}/contents/feature.txt`, 'POST', { content: Buffer.from('feature\n').toString('base64'), message: 'Feature work', branch: 'feature' });
  await call(`${R}/branches/feature`);
  const tag = await call(`${R}/tags`, 'POST', { tag_name: 'v1.0', message: 'first' });
  await call(`${R}/tags`);
  const commits = await call(`${R}/commits?sha=feature`);
  await call(`${R}/git/commits/${tag.commit.sha}`);
  await call(`${R}/statuses/${commits[0].sha}`, 'POST', { state: 'success', context: 'ci', target_url: `${s.hearth.config.server.root_url}acme/app` });
  await call(`${R}/commits/${commits[0].sha}/status`);
  await call(`${R}/commits/${commits[0].sha}/statuses`);
  const release = await call(`${R}/releases`, 'POST', { tag_name: 'v1.0', name: 'First', body: 'Notes' });
  await call(`${R}/releases/${release.id}/assets?name=app.txt`, 'POST', upload('app.txt', 'binary'));
  await call(`${R}/releases/${release.id}`);
  await call(`${R}/releases/tags/v1.0`);
  const milestone = await call(`${R}/milestones`, 'POST', { title: 'M1' });
  const label = await call(`${R}/labels`, 'POST', { name: 'bug', color: '#ff0000' });
  await call('orgs/acme/labels', 'POST', { name: 'org-wide', color: '#00ff00' });
  const issue = await call(`${R}/issues`, 'POST', { title: 'Broken', body: 'It breaks', milestone: milestone.id, labels: [label.id], assignees: ['bob'] });
  await call(`${R}/issues/${issue.number}/assets`, 'POST', upload('log.txt', 'trace'));
  const comment = await call(`${R}/issues/${issue.number}/comments`, 'POST', { body: 'Me too' }, bob);
  await call(`${R}/issues/comments/${comment.id}/assets`, 'POST', upload('more.txt', 'more'), bob);
  await call(`${R}/issues/${issue.number}`);
  await call(`${R}/issues/${issue.number}/comments`);
  await call(`${R}/issues/${issue.number}/timeline`);
  await call(`${R}/milestones/${milestone.id}`);
  await call(`${R}/labels`);
  const pull = await call(`${R}/pulls`, 'POST', { title: 'Feature', head: 'feature', base: 'main', body: 'Closes #1' }, bob);
  await call(`${R}/pulls/${pull.number}/reviews`, 'POST', { event: 'COMMENT', body: 'Looks fine', comments: [{ path: 'feature.txt', new_position: 1, body: 'nit' }] });
  const reviews = await call(`${R}/pulls/${pull.number}/reviews`);
  await call(`${R}/pulls/${pull.number}/reviews/${reviews[0].id}/comments`);
  await call(`${R}/pulls/${pull.number}`);
  await call(`${R}/pulls/${pull.number}/files`);
  await call(`${R}/pulls/${pull.number}/commits`);
  // WatchInfo.url answers the watcher only (Gitea's GET subscription is 404 to non-watchers).
  await call(`${R}/subscription`, 'PUT', undefined, bob);
  await call('notifications', 'GET', undefined, bob);
  await call('repos/search?q=app');
});
afterAll(async () => { await s.stop(); });

const URL_KEY = /(^|_)(url|urls)$|^_links$|^(self|git|html)$|^link$/;

/** Every string under a URL-ish key that points into this server, fragments dropped; `fields` gets their keys. */
function collect(value: unknown, root: string, out: Map<string, string>, from: string, key = '', fields?: Set<string>): void {
  if (Array.isArray(value)) return value.forEach((v) => collect(v, root, out, from, key, fields));
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collect(v, root, out, from, URL_KEY.test(k) || key === '_links' ? k : '', fields);
    return;
  }
  if (!key || typeof value !== 'string' || !value.startsWith(root)) return;
  out.set(value.split('#')[0]!, `${from} .${key}`);
  fields?.add(key);
}

/** URLs of objects inside the private repository (or its attachments), which outsiders may not see. */
const insideRepo = (url: string, root: string) => {
  const p = url.slice(root.length);
  return /^(api\/v1\/repos\/)?acme\/app(\.git|[/?]|$)/.test(p) || p.startsWith('attachments/');
};

describe('every URL of every answer resolves', () => {
  it('collected the kinds of URLs the API hands out', () => {
    const urls = new Map<string, string>();
    const fields = new Set<string>();
    for (const a of answers) collect(a.body, s.hearth.config.server.root_url, urls, a.from, '', fields);
    for (const f of ['html_url', 'url', 'download_url', 'browser_download_url', 'tarball_url', 'zipball_url', 'clone_url',
      'avatar_url', 'diff_url', 'patch_url', 'git_url', 'self', 'html', 'git', 'commit_url', 'upload_url', 'raw_url',
      'contents_url', 'issue_url', 'pull_request_url', 'languages_url', 'repository_url', 'target_url']) {
      expect(fields, f).toContain(f);
    }
  });

  it('each answers 200 (after redirects) to a member who may see it', async () => {
    const urls = new Map<string, string>();
    for (const a of answers) collect(a.body, s.hearth.config.server.root_url, urls, a.from);
    const failures: string[] = [];
    for (const [url, from] of urls) {
      const res = await fetch(url, { headers: { Authorization: `Basic ${Buffer.from(`${bob.username}:${bob.password}`).toString('base64')}` } });
      await res.arrayBuffer();
      if (res.status !== 200) failures.push(`${res.status} ${url} (${from})`);
    }
    expect(failures).toEqual([]);
    expect(urls.size).toBeGreaterThan(60);
  });

  it('a token that may read repositories sees them too', async () => {
    const token = await createToken(s, bob, ['read:repository', 'read:issue', 'read:user', 'read:organization']);
    const root = s.hearth.config.server.root_url;
    for (const p of ['acme/app', 'acme/app/issues/1', 'acme/app/pulls/2', 'acme/app/releases/tag/v1.0', 'acme/app/raw/branch/main/README.md', 'acme/app/archive/v1.0.zip']) {
      expect((await fetch(`${root}${p}`, { headers: { Authorization: `token ${token}` } })).status, p).toBe(200);
    }
  });

  it('each URL inside the private repository answers 404 to outsiders and anonymous callers', async () => {
    const root = s.hearth.config.server.root_url;
    const urls = new Map<string, string>();
    for (const a of answers) collect(a.body, root, urls, a.from);
    const inside = [...urls.keys()].filter((u) => insideRepo(u, root));
    expect(inside.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const url of inside) {
      for (const auth of [`Basic ${Buffer.from(`${carol.username}:${carol.password}`).toString('base64')}`, null]) {
        const res = await fetch(url, { headers: auth ? { Authorization: auth } : {}, redirect: 'follow' });
        await res.arrayBuffer();
        // The repository is resolved before a sign-in is asked for (as Gitea's repoAssignment
        // runs before reqToken): the subscription endpoint too is a 404 to anonymous callers.
        if (res.status !== 404) failures.push(`${res.status} ${auth ? 'carol' : 'anonymous'} ${url}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('/ and unknown paths answer pages, never "Cannot GET"', async () => {
    const home = await s.request('');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    const unknown = await s.request('no/such/place/at/all');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('Cannot GET');
  });
});
