import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, cloneWork, type Creds } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';

// Names that git would read as options, traversals and NUL characters get a 4xx, never a 500.
// Regressions: a NUL in a pull's head branch (spawn refused the argument: 500) and
// `commits?path=../..` (git refused a path outside the repository: 500).

let s: TestServer;
let alice: Creds;

const call = (p: string, method = 'GET', body?: unknown) => s.request(`api/v1/repos/alice/p/${p}`, { method, auth: as(alice), json: body });
async function serverErrors(calls: [string, string, unknown?][]): Promise<string[]> {
  const out: string[] = [];
  for (const [method, p, body] of calls) {
    const r = await call(p, method, body);
    if (r.status >= 500) out.push(`${r.status} ${method} ${p} ${JSON.stringify(body ?? '')}`);
    await r.arrayBuffer();
  }
  return out;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'p', { auto_init: true, default_branch: 'main' });
  await (await cloneWork(s, 'alice', 'p', alice)).branch('f', { 'f.txt': 'f\n' });
});
afterAll(async () => { await s.stop(); });

describe('hostile names', () => {
  it('pull requests: heads, bases, commit ids and paths (bug: a NUL in the head branch was a 500)', async () => {
    const pulls: [string, string, unknown?][] = [
      ['POST', 'pulls', { head: '--upload-pack=x', base: 'main', title: 't' }], ['POST', 'pulls', { head: 'f\u0000', base: 'main', title: 't' }],
      ['POST', 'pulls', { head: 'f', base: '../../x', title: 't' }], ['POST', 'pulls', { head: 'a:b:c', base: 'main', title: 't' }],
      ['POST', 'pulls', { head: 'f', base: '-x', title: 't' }], ['POST', 'pulls', { head: 'f', base: 'main', title: 'ok' }],
      ['GET', 'pulls/1.diff?binary=x'], ['GET', 'pulls/main/--x'], ['GET', 'pulls/1/files?skip-to=--x'], ['GET', 'commits/zz/pull'],
      ['POST', 'pulls/1/merge', { Do: 'merge', head_commit_id: '--x' }], ['POST', 'pulls/1/reviews', { event: 'COMMENT', body: 'x', commit_id: '--x' }],
      ['POST', 'pulls/1/reviews', { event: 'COMMENT', body: 'x', comments: [{ path: '--output=/tmp/x', body: 'b', new_position: 1 }] }],
      ['PATCH', 'pulls/1', { base: '--x' }], ['PATCH', 'pulls/1', { base: 'a\u0000' }],
    ];
    expect(await serverErrors(pulls)).toEqual([]);
    expect((await call('pulls', 'POST', { head: 'f\u0000', base: 'main', title: 't' })).status).toBeLessThan(500);
  });

  it('refs and paths across the repository API (bug: commits?path=../.. was a 500)', async () => {
    const bad = ['%00', '-x', '--output%3D%2Ftmp%2Fx', '..%2F..', 'a%00b', 'HEAD~1', 'main%5E%7B%7D'];
    const templates = ['branches/X', 'contents/X', 'contents/README.md?ref=X', 'raw/X', 'raw/README.md?ref=X', 'media/X', 'git/refs/heads/X',
      'git/commits/X', 'git/trees/X', 'git/blobs/X', 'git/tags/X', 'tags/X', 'releases/tags/X', 'commits?sha=X', 'commits?path=X',
      'commits/X/status', 'commits/X/statuses', 'statuses/X', 'compare/main...X', 'archive/X.zip', 'branch_protections/X', 'editorconfig/X',
      'git/notes/X', 'tag_protections/X'];
    const reads = templates.flatMap((t) => bad.map((b) => ['GET', t.replace(/X/g, b)] as [string, string]));
    const writes: [string, string, unknown][] = [
      ['POST', 'branches', { new_branch_name: 'a\u0000b', old_ref_name: 'main' }], ['POST', 'branches', { new_branch_name: 'x', old_ref_name: '--all' }],
      ['POST', 'tags', { tag_name: 'a\u0000', target: 'main' }], ['POST', 'tags', { tag_name: 't', target: '-x' }],
      ['POST', 'releases', { tag_name: 'r\u0000' }], ['POST', 'releases', { tag_name: 'v9', target_commitish: '--x' }],
      ['POST', 'contents/a%00b.txt', { content: 'eA==' }], ['POST', 'contents/x.txt', { content: 'eA==', branch: 'a\u0000' }],
      ['POST', 'contents', { files: [{ operation: 'create', path: 'a\u0000', content: 'eA==' }] }],
      ['POST', 'statuses/%00', { state: 'success', context: 'c' }], ['POST', 'branch_protections', { rule_name: 'a\u0000' }],
    ];
    expect(await serverErrors([...reads, ...writes])).toEqual([]);
  });
});
