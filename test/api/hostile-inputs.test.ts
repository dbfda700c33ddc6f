import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/routes/api/v1/index';
import { createRepo } from '../helpers/git';
import { createUser, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Bad input gets a 4xx, never a 500: every route of the table, called by a site admin with
// ill-typed bodies and with each path parameter replaced by hostile values (the others naming
// real objects, so the handlers are reached). Routes that delete run last.

let s: TestServer;
let admin: Auth;

/** Real objects for each path parameter, so a call reaches its handler. */
const VALID: Record<string, string> = {
  owner: 'alice', repo: 'proj', username: 'alice', user: 'alice', org: 'acme', name: 'main', branch: 'main',
  tag: 'v1', sha: 'main', ref: 'main', filepath: 'README.md', index: '1', id: '1', attachment_id: '1',
  key: 'MIT', team: 'Owners', collaborator: 'bob', reviewer: 'bob', topic: 'x', label: '1', base: 'main',
  head: 'feature', template_owner: 'alice', template_repo: 'proj', archive: 'main.zip', path: 'README.md',
};

const HOSTILE_SEGMENTS = [
  '-1', '0', '99999999999999999999999', '1.5', 'abc', '%00', '..', '%2E%2E%2F%2E%2E', `${'a'.repeat(300)}`,
  '%E2%80%AE%F0%9F%92%A9', '--upload-pack=touch%20x', 'HEAD~1', 'a%0Ab', '%25', '%20',
];

/** Query parameters the listing and reading routes take, each given nonsense at once. */
const QUERY_KEYS = [
  'page', 'limit', 'since', 'before', 'sort', 'order', 'state', 'type', 'q', 'labels', 'milestones', 'milestone',
  'created_by', 'assigned_by', 'mentioned_by', 'poster', 'ref', 'sha', 'path', 'skip-to', 'whitespace', 'style',
  'files', 'verification', 'stat', 'draft', 'pre-release', 'exclude', 'mode', 'uid', 'team_id', 'priority_repo_id',
  'archived', 'is_private', 'status-types', 'subject-type', 'all', 'recursive', 'per_page', 'not', 'owner', 'template',
  'private', 'topic', 'includeDesc', 'exclusive', 'date', 'only-performed-by', 'include_closed', 'base', 'head',
];
const QUERY_VALUES = ['-1', 'abc', '%00', '99999999999999999999999', '..%2F..', ',,', '%5B%5D', '2024-13-45T99:99:99Z'];

const HOSTILE_BODIES: unknown[] = [[], 'text', 42, null, { name: 1, title: [], body: {}, state: 5, labels: 'x', id: 'x', index: {}, content: 7 }];

function pathOf(template: string, hostile?: { param: string; value: string }): string {
  return template.replace(/\{([^}]+)\}/g, (_m, param: string) => (hostile?.param === param ? hostile.value : encodeURIComponent(VALID[param] ?? 'x')));
}

const paramsOf = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

async function call(method: string, path: string, body?: unknown): Promise<number> {
  const init: Parameters<TestServer['request']>[1] = { method: method.toUpperCase(), auth: admin };
  if (body !== undefined && method !== 'get') init.json = body;
  const res = await s.request(`api/v1${path}`, init);
  const text = await res.text();
  if (res.status >= 500) throw new Error(`${method.toUpperCase()} ${path} ${JSON.stringify(body)} -> ${res.status} ${text.slice(0, 200)}`);
  return res.status;
}

beforeAll(async () => {
  s = await startTestServer();
  admin = { basic: [s.admin.username, s.admin.password] };
  const alice = await createUser(s, 'alice');
  await createUser(s, 'bob');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await s.request('api/v1/orgs', { method: 'POST', auth: admin, json: { username: 'acme' } });
  await s.request('api/v1/repos/alice/proj/issues', { method: 'POST', auth: admin, json: { title: 'one' } });
  await s.request('api/v1/repos/alice/proj/releases', { method: 'POST', auth: admin, json: { tag_name: 'v1' } });
}, 60_000);
afterAll(async () => { await s.stop(); });

const ordered = [...apiRoutes.filter((r) => r.method !== 'delete'), ...apiRoutes.filter((r) => r.method === 'delete')];

describe('hostile inputs never make a 500', () => {
  it('ill-typed bodies on every writing route', async () => {
    for (const r of ordered.filter((x) => x.method !== 'get' && x.method !== 'delete')) {
      for (const body of HOSTILE_BODIES) await call(r.method, pathOf(r.path), body);
    }
  }, 240_000);

  it('hostile query parameters on every reading route', async () => {
    for (const r of ordered.filter((x) => x.method === 'get')) {
      for (const value of QUERY_VALUES) {
        const query = QUERY_KEYS.map((k) => `${k}=${value}`).join('&');
        await call('get', `${pathOf(r.path)}?${query}`);
      }
      // The extended query parser makes arrays and objects of these.
      for (const shape of [(k: string) => `${k}=1&${k}=2`, (k: string) => `${k}[]=x`, (k: string) => `${k}[a][b]=c`]) {
        await call('get', `${pathOf(r.path)}?${QUERY_KEYS.map(shape).join('&')}`);
      }
    }
  }, 240_000);

  it('hostile names on the git, download and web routes', async () => {
    for (const v of HOSTILE_SEGMENTS) {
      for (const path of [
        `${v}/proj.git/info/refs?service=git-upload-pack`, `alice/${v}.git/info/refs?service=git-upload-pack`,
        `alice/proj.git/info/refs?service=${v}`, `alice/proj/releases/download/${v}/x`, `alice/proj/releases/download/v1/${v}`,
        `attachments/${v}`, `avatars/${v}`, `${v}/proj`, `alice/proj/src/branch/${v}`, `alice/${v}`,
      ]) {
        const res = await s.request(path, { auth: admin });
        expect(res.status, `GET /${path}`).toBeLessThan(500);
        await res.arrayBuffer();
      }
      for (const svc of ['git-receive-pack', 'git-upload-pack']) {
        const garbage = await s.request(`alice/proj.git/${svc}`, { method: 'POST', auth: admin, body: `${v}\n0000`, headers: { 'Content-Type': `application/x-${svc}-request` } });
        expect(garbage.status, `POST ${svc} with garbage`).toBeLessThan(500);
        await garbage.arrayBuffer();
      }
      const push = await s.request(`alice/${v}.git/git-receive-pack`, { method: 'POST', auth: admin, body: 'x', headers: { 'Content-Type': 'application/x-git-receive-pack-request' } });
      expect(push.status, `POST receive-pack ${v}`).toBeLessThan(500);
      await push.arrayBuffer();
    }
  });

  it('hostile credentials and Sudo values get 401, 403 or 404', async () => {
    const headers: Record<string, string>[] = [
      { Authorization: 'Basic' }, { Authorization: 'Basic !!!notbase64' }, { Authorization: `Basic ${Buffer.from(':').toString('base64')}` },
      { Authorization: `Basic ${Buffer.from('\u0000:\u0000').toString('base64')}` }, { Authorization: 'token' }, { Authorization: 'Bearer   ' },
      { Authorization: `token ${'f'.repeat(5000)}` }, { Authorization: 'Digest x' }, { Authorization: `Basic ${Buffer.from(`${'a'.repeat(3000)}:x`).toString('base64')}` },
    ];
    for (const h of headers) {
      for (const path of ['api/v1/user', 'api/v1/repos/alice/proj', 'alice/proj.git/info/refs?service=git-upload-pack']) {
        const res = await s.request(path, { headers: h });
        expect(res.status, `${path} ${JSON.stringify(h).slice(0, 60)}`).toBeLessThan(500);
        await res.arrayBuffer();
      }
    }
    for (const sudo of ['%00', '', 'nobody', 'acme', 'a'.repeat(300), '../alice']) {
      const res = await s.request(`api/v1/user?sudo=${sudo}`, { auth: admin });
      expect(res.status, `sudo=${sudo}`).toBeLessThan(500);
      await res.arrayBuffer();
    }
    for (const token of ['%00', 'x', '%E2%80%AE', 'a'.repeat(3000)]) {
      const res = await s.request(`api/v1/user?token=${token}`);
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
  });

  it('hostile path parameters on every route', async () => {
    for (const r of ordered) {
      for (const param of paramsOf(r.path)) {
        for (const value of HOSTILE_SEGMENTS) expect(await call(r.method, pathOf(r.path, { param, value }), {})).toBeLessThan(500);
      }
    }
  }, 240_000);
});
