import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTeam, createOrg } from '../helpers/orgs';
import { as, ok, type Creds } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';

// Deleting a repository leaves nothing behind: its attachment files (issues and releases) and
// the repository count of the teams that listed it.

let s: TestServer;
let alice: Creds;

const api = (p: string, method = 'GET', body?: unknown) => s.request(`api/v1/${p}`, { method, auth: as(alice), json: body });
const upload = (p: string, name: string) => {
  const form = new FormData();
  form.append('attachment', new Blob(['some bytes']), name);
  return s.request(`api/v1/${p}`, { method: 'POST', auth: as(alice), body: form });
};
// The team's repository count is not in the API's Team JSON: read it where it is kept.
const teamRepoCount = async (id: number) =>
  (await s.hearth.db.selectFrom('team').select('num_repos').where('id', '=', id).executeTakeFirstOrThrow()).num_repos;
const fileOf = (uuid: string) => path.join(s.hearth.config.server.data_dir, 'attachments', uuid[0]!, uuid[1]!, uuid);

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
});
afterAll(async () => { await s.stop(); });

describe('deleting a repository', () => {
  it('removes its attachment files and the teams count it no more (bug: files and team.num_repos were left)', async () => {
    const org = await createOrg(s, alice, 'acme', { email: 'acme@example.com' });
    await ok(await api('orgs/acme/repos', 'POST', { name: 'gone', auto_init: true }), 201);
    await ok(await api('orgs/acme/repos', 'POST', { name: 'kept', auto_init: true }), 201);
    const teamId = await addTeam(s, org.id, 'devs');
    for (const repo of ['gone', 'kept']) await ok(await api(`teams/${teamId}/repos/acme/${repo}`, 'PUT'), 204);
    expect(await teamRepoCount(teamId)).toBe(2);

    const issue = await ok(await api('repos/acme/gone/issues', 'POST', { title: 'with a file' }), 201);
    const issueAsset = await ok(await upload(`repos/acme/gone/issues/${issue.number}/assets`, 'a.txt'), 201);
    const release = await ok(await api('repos/acme/gone/releases', 'POST', { tag_name: 'v1', name: 'v1' }), 201);
    const releaseAsset = await ok(await upload(`repos/acme/gone/releases/${release.id}/assets`, 'b.txt'), 201);
    const keptIssue = await ok(await api('repos/acme/kept/issues', 'POST', { title: 'stays' }), 201);
    const keptAsset = await ok(await upload(`repos/acme/kept/issues/${keptIssue.number}/assets`, 'c.txt'), 201);
    for (const a of [issueAsset, releaseAsset, keptAsset]) expect(fs.existsSync(fileOf(a.uuid))).toBe(true);

    await ok(await api('repos/acme/gone', 'DELETE'), 204);
    expect(fs.existsSync(fileOf(issueAsset.uuid))).toBe(false);
    expect(fs.existsSync(fileOf(releaseAsset.uuid))).toBe(false);
    expect(fs.existsSync(fileOf(keptAsset.uuid))).toBe(true);
    expect((await s.request(`attachments/${issueAsset.uuid}`)).status).toBe(404);
    expect(await teamRepoCount(teamId)).toBe(1);
  });
});
