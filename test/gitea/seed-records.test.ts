import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnerClient, runnerHeaders } from '../actions/protocol-helpers';
import { repo } from '../helpers/gitea-extra';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { compareFlat, compareRecord } from '../helpers/record-keys';
import { eventually } from '../helpers/wait';

// The seed's records, name for name: each produced through the API and compared with the
// definition of the same name in Gitea 1.25.4's published API (test/fixtures/gitea-api-facts.json):
// no field missing, none extra, each value of the definition's JSON type, nested records alike.

let g: GiteaFixtures;
beforeAll(async () => {
  // The push mirror's remote is a loopback address nothing listens on.
  g = await startGitea({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
}, 120_000);
afterAll(async () => { await g.stop(); });

const same = (body: unknown, name: string) => {
  const diffs = compareRecord(body, name);
  expect(diffs, diffs.join('; ')).toEqual([]);
};

describe('seed records', () => {
  it('User: signed in as itself, and seen by another', async () => {
    await g.user('user2');
    same(await g.call('user', { auth: await g.basic('user2') }), 'User');
    same(await g.call('users/user2', { auth: await g.basic('user4') }), 'User');
    same(await g.call('users/user2'), 'User');
  });

  it('Organization and Team (with its Organization)', async () => {
    const { teams } = await g.org3();
    const auth = await g.basic('user2');
    same(await g.call('orgs/org3', { auth }), 'Organization');
    same(await g.call(`teams/${teams.team1}`, { auth }), 'Team');
    same(await g.call(`teams/${teams.owners}`, { auth }), 'Team');
    for (const t of await g.call('orgs/org3/teams', { auth })) same(t, 'Team');
  });

  it('Team permission: none for unit-based teams, admin for an admin team; an edit without name keeps it', async () => {
    await g.org3();
    const auth = await g.basic('user2');
    const units = await g.call('orgs/org3/teams', { method: 'POST', auth, json: { name: 'by-units', permission: 'write', units: ['repo.code'] } }, 201);
    expect(units).toMatchObject({ permission: 'none', units_map: { 'repo.code': 'write' } });
    const map = await g.call('orgs/org3/teams', { method: 'POST', auth, json: { name: 'by-map', units_map: { 'repo.code': 'read', 'repo.issues': 'write' } } }, 201);
    expect(map).toMatchObject({ permission: 'none', units_map: { 'repo.code': 'read', 'repo.issues': 'write' } });
    const admin = await g.call('orgs/org3/teams', { method: 'POST', auth, json: { name: 'by-admin', permission: 'admin' } }, 201);
    expect(admin.permission).toBe('admin');
    const edited = await g.call(`teams/${units.id}`, { method: 'PATCH', auth, json: { description: 'kept name' } });
    expect(edited).toMatchObject({ name: 'by-units', description: 'kept name', permission: 'none' });
    for (const t of [units, map, admin, edited]) same(t, 'Team');
  });

  it('Repository: its owner a User, a fork with its parent', async () => {
    await g.repo1();
    same(await g.call('repos/user2/repo1', { auth: await g.basic('user2') }), 'Repository');
    same(await g.call('repos/user2/repo1'), 'Repository');
    await g.repo10();
    const fork = await g.call('repos/user13/repo11', { auth: await g.basic('user13') });
    expect(fork.parent.full_name).toBe('user10/repo10');
    same(fork, 'Repository');
  });

  it('Branch: its commit a PayloadCommit', async () => {
    await g.repo1();
    same(await g.call('repos/user2/repo1/branches/master', { auth: await g.basic('user2') }), 'Branch');
  });

  it('Issue: an issue and a pull request seen as one', async () => {
    await g.repo1();
    const auth = await g.basic('user2');
    same(await g.call('repos/user2/repo1/issues/1', { auth }), 'Issue');
    const pull = await g.call('repos/user2/repo1/issues/2', { auth });
    expect(pull.pull_request).not.toBeNull();
    same(pull, 'Issue');
    const closed = await g.call('repos/user2/repo1/issues/4', { auth });
    expect(closed.closed_at).toEqual(expect.any(String));
    same(closed, 'Issue');
  });

  it('Issue with an attachment: its assets are Attachments', async () => {
    await g.repo1();
    const auth = await g.basic('user2');
    const made = await g.call('repos/user2/repo1/issues', { method: 'POST', auth, json: { title: 'with a file' } }, 201);
    const form = new FormData();
    form.append('attachment', new Blob([Buffer.from('some text\n')]), 'notes.txt');
    same(await g.call(`repos/user2/repo1/issues/${made.number}/assets`, { method: 'POST', auth, body: form }, 201), 'Attachment');
    const issue = await g.call(`repos/user2/repo1/issues/${made.number}`, { auth });
    expect(issue.assets.length).toBe(1);
    same(issue, 'Issue');
  });

  it('PullReview', async () => {
    await g.repo1();
    const auth = await g.basic('user2');
    const review = await g.call('repos/user2/repo1/pulls/2/reviews', { method: 'POST', auth, json: { event: 'COMMENT', body: 'a look' } });
    same(review, 'PullReview');
    for (const r of await g.call('repos/user2/repo1/pulls/2/reviews', { auth })) same(r, 'PullReview');
  });

  it('NotificationThread: its repository a Repository', async () => {
    await g.repo1();
    const auth = await g.basic('user2');
    await g.call('repos/user2/repo1/issues', { method: 'POST', auth: await g.basic('user4'), json: { title: 'tell the owner' } }, 201);
    let threads: { id: number }[] = [];
    await eventually(async () => (threads = await g.call('notifications?all=true', { auth })).length > 0);
    for (const t of threads) same(t, 'NotificationThread');
    same(await g.call(`notifications/threads/${threads[0].id}`, { auth }), 'NotificationThread');
  });

  it('ActionVariable', async () => {
    await g.repo1();
    const auth = await g.basic('user2');
    await g.call('repos/user2/repo1/actions/variables/SEED_VAR', { method: 'POST', auth, json: { value: 'v', description: 'd' } }, 201);
    same(await g.call('repos/user2/repo1/actions/variables/SEED_VAR', { auth }), 'ActionVariable');
    for (const v of await g.call('repos/user2/repo1/actions/variables', { auth })) same(v, 'ActionVariable');
  });

  it('ActionRunner, ActionWorkflowJob and ActionWorkflowStep: a runner that took a job', async () => {
    const admin = await g.basic('user1');
    await repo(g, 'user2', 'ci-seed');
    const auth = await g.basic('user2');
    const workflow = 'on: workflow_dispatch\njobs:\n  build:\n    runs-on: seed\n    steps:\n      - run: echo one\n';
    await g.call('repos/user2/ci-seed/contents/.gitea/workflows/ci.yml', {
      method: 'POST', auth, json: { content: Buffer.from(workflow).toString('base64'), message: 'ci' },
    }, 201);
    const token = (await g.call('admin/runners/registration-token', { auth: admin })).token as string;
    const { runner } = runnerClient(g.s, false);
    const reg = (await runner.register({ name: 'seed-runner', token, version: 'v0.2.11', labels: ['seed'] })).runner!;
    const runners = await g.call('admin/actions/runners', { auth: admin });
    for (const r of runners.runners) same(r, 'ActionRunner');
    same(await g.call(`admin/actions/runners/${runners.runners[0].id}`, { auth: admin }), 'ActionRunner');

    await g.call('repos/user2/ci-seed/actions/workflows/ci.yml/dispatches', { method: 'POST', auth, json: { ref: 'master' } }, 204);
    const jobs0 = await g.call('repos/user2/ci-seed/actions/jobs', { auth });
    for (const j of jobs0.jobs) same(j, 'ActionWorkflowJob');
    let task: { id: bigint } | undefined;
    await eventually(async () => !!(task = (await runner.fetchTask({}, runnerHeaders(reg))).task));
    const now = { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 0 };
    await runner.updateTask({ state: { id: task!.id, result: 0, startedAt: now, steps: [{ id: 0n, result: 0, startedAt: now }] } }, runnerHeaders(reg));
    const jobs = await g.call('repos/user2/ci-seed/actions/jobs', { auth });
    const job = await g.call(`repos/user2/ci-seed/actions/jobs/${jobs.jobs[0].id}`, { auth });
    expect(job.steps.length).toBeGreaterThan(0);
    same(job, 'ActionWorkflowJob');
  });

  it('AccessToken: as made (with sha1) and as listed', async () => {
    const auth = await g.basic('user2');
    same(await g.call('users/user2/tokens', { method: 'POST', auth, json: { name: 'seed-token', scopes: ['read:user'] } }, 201), 'AccessToken');
    for (const t of await g.call('users/user2/tokens', { auth })) same(t, 'AccessToken');
  });

  it('PushMirror', async () => {
    await g.repo1();
    const auth = await g.basic('user2');
    const made = await g.call('repos/user2/repo1/push_mirrors', {
      method: 'POST', auth, json: { remote_address: 'http://127.0.0.1:9/elsewhere/repo1.git', interval: '8h0m0s', sync_on_commit: false },
    });
    same(made, 'PushMirror');
    for (const m of await g.call('repos/user2/repo1/push_mirrors', { auth })) same(m, 'PushMirror');
  });

  it('ContentsResponse: a file, a directory listing', async () => {
    await g.repo1();
    const auth = await g.basic('user2');
    same(await g.call('repos/user2/repo1/contents/README.md', { auth }), 'ContentsResponse');
    for (const e of await g.call('repos/user2/repo1/contents', { auth })) same(e, 'ContentsResponse');
    // file-contents: one entry per asked path, null where nothing is there (Gitea's GetContentsListFromTreePaths).
    const list = await g.call('repos/user2/repo1/file-contents', { method: 'POST', auth, json: { files: ['README.md', 'no-such-file', 'branch1.txt'] } });
    expect(list.map((e: { path: string } | null) => e?.path ?? null)).toEqual(['README.md', null, null]);
    same(list[0], 'ContentsResponse');
    const ext = await g.call('repos/user2/repo1/contents-ext/README.md?includes=file_content,commit_metadata', { auth });
    same(ext.file_contents, 'ContentsResponse');
    for (const e of (await g.call('repos/user2/repo1/contents-ext/.', { auth })).dir_contents) same(e, 'ContentsResponse');
  });

  it('GeneralAPISettings and LicenseTemplateInfo', async () => {
    same(await g.call('settings/api'), 'GeneralAPISettings');
    same(await g.call('licenses/MIT'), 'LicenseTemplateInfo');
  });

  it('the same records from other places: lists, searches, other states', async () => {
    await g.repo1();
    await g.org3();
    const admin = await g.basic('user1');
    const auth = await g.basic('user2');
    for (const u of await g.call('admin/users?limit=50', { auth: admin })) same(u, 'User');
    for (const u of (await g.call('users/search?q=user', { auth })).data) same(u, 'User');
    for (const o of await g.call('user/orgs', { auth })) same(o, 'Organization');
    for (const o of await g.call('orgs')) same(o, 'Organization');
    for (const t of await g.call('user/teams', { auth })) same(t, 'Team');
    for (const r of await g.call('user/repos', { auth })) same(r, 'Repository');
    for (const r of (await g.call('repos/search?limit=50', { auth })).data) same(r, 'Repository');
    // An issue with assignees, labels and a due date; a closed pull request.
    const issue = await g.call('repos/user2/repo1/issues', {
      method: 'POST', auth, json: { title: 'assigned', assignees: ['user2'], labels: [(await g.repo1()).labels.label1], due_date: '2031-01-02T00:00:00Z' },
    }, 201);
    expect(issue.assignees.length).toBe(1);
    same(issue, 'Issue');
    for (const i of await g.call('repos/user2/repo1/issues?state=all&type=all', { auth })) same(i, 'Issue');
    // A repository with an external tracker and wiki, archived.
    await repo(g, 'user2', 'elsewhere');
    const edited = await g.call('repos/user2/elsewhere', {
      method: 'PATCH', auth, json: {
        has_issues: true, external_tracker: { external_tracker_url: 'https://tracker.example/', external_tracker_format: 'https://tracker.example/{index}', external_tracker_style: 'numeric' },
        has_wiki: true, external_wiki: { external_wiki_url: 'https://wiki.example/' }, archived: true,
      },
    });
    expect(edited.archived).toBe(true);
    same(edited, 'Repository');
    // A token that was used.
    const token = await g.token('user2', 'read:user');
    await g.call('user', { auth: { token } });
    for (const t of await g.call('users/user2/tokens', { auth })) same(t, 'AccessToken');
    // Variables of a user and of an organization.
    await g.call('user/actions/variables/USER_SEED', { method: 'POST', auth, json: { value: 'u' } }, 201);
    same(await g.call('user/actions/variables/USER_SEED', { auth }), 'ActionVariable');
    await g.call('orgs/org3/actions/variables/ORG_SEED', { method: 'POST', auth, json: { value: 'o' } }, 201);
    same(await g.call('orgs/org3/actions/variables/ORG_SEED', { auth }), 'ActionVariable');
  });

  it('AuditLog: flat, the seed\'s names', async () => {
    await g.repo1();
    const body = await g.call('admin/audit-logs', { auth: await g.basic('user1') });
    const rows = Array.isArray(body) ? body : body.data ?? body.logs;
    expect(rows.length).toBeGreaterThan(0);
    const fields = {
      extra: 'string', id: 'number', ip_address: 'string', message: 'string', operation_time: 'string', operation_type: 'string',
      operator_id: 'number', operator_name: 'string', owner_id: 'number', owner_name: 'string', repo_id: 'number',
      repo_name: 'string', target_id: 'number', target_name: 'string', target_type: 'string',
    };
    for (const r of rows) expect(compareFlat(r, fields, 'AuditLog')).toEqual([]);
  });
});
