import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resyncAllReleases } from '../../src/services/release/release-sync';
import { createRepo, git } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// Gitea's repo-sync-releases (`hearth admin repo-sync-releases`): releases whose tag was moved or
// deleted behind the server's back (no push went through hearth) follow git again.

let s: TestServer;
let alice: { username: string; password: string; id: number };
const api = (p: string, init: { method?: string; json?: unknown } = {}) => s.request(`api/v1/repos/alice/proj/${p}`, { auth: as(alice), ...init });
const bare = () => path.join(s.hearth.config.repository.root, 'alice', 'proj.git');
const releaseRow = (tag: string) => s.hearth.db.selectFrom('release').select(['sha1', 'is_draft']).where('tag_name', '=', tag).executeTakeFirstOrThrow();

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  for (const tag of ['v1', 'v2', 'v3']) await ok(await api('releases', { method: 'POST', json: { tag_name: tag, target_commitish: 'main' } }), 201);
  await ok(await api('contents/later.txt', { method: 'POST', json: { content: Buffer.from('later').toString('base64'), message: 'later' } }), 201);
});
afterAll(async () => { await s.stop(); });

describe('repo-sync-releases', () => {
  it('moves a release to its moved tag, drafts the one whose tag is gone, leaves the others alone', async () => {
    const head = (await git(bare(), 'rev-parse', 'main')).trim();
    const before = await releaseRow('v3');
    expect((await releaseRow('v1')).sha1).not.toBe(head);
    await git(bare(), 'tag', '-f', 'v1', head);
    await git(bare(), 'tag', '-d', 'v2');

    expect(await resyncAllReleases(s.hearth.db, s.hearth.config.repository.root)).toEqual({ repos: 1, changed: 2, failed: [] });
    expect(await releaseRow('v1')).toEqual({ sha1: head, is_draft: 0 });
    expect(await releaseRow('v2')).toMatchObject({ is_draft: 1 });
    expect(await releaseRow('v3')).toEqual(before);
    const listed = (await ok(await api('releases?draft=false'))) as { tag_name: string }[];
    expect(listed.map((r) => r.tag_name).sort()).toEqual(['v1', 'v3']);

    // In line again: a second run changes nothing.
    expect(await resyncAllReleases(s.hearth.db, s.hearth.config.repository.root)).toEqual({ repos: 1, changed: 0, failed: [] });
  });
});
