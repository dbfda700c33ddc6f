import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementStats } from '../../src/db/connect';
import { findCounterDrift } from '../../src/models/repo-counters';
import { allFollowUpsSettled } from '../../src/services/pull/pull-follow-queue';
import { createRepo } from '../helpers/git';
import { addTeam, createOrg } from '../helpers/orgs';
import { as, createToken, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { createSiteAdmin } from '../helpers/site-admin';
import { sqliteOnly, testsOnPostgres } from '../helpers/test-database';
import { signedInClient } from '../helpers/web-client';

// How many SQL statements one request runs: a listing that queries per item (N+1) shows here
// first. The bounds are the counts measured when the request path was tuned (issue 19); a
// change that needs more must say why.

let s: TestServer;
let alice: { username: string; password: string; id: number };
/**
 * Statements of one merge with the follow-ups it starts: 57 to 78 measured over runs on SQLite
 * (issue 34; the event subscribers and job workers running beside it vary), hence the margin.
 * PostgreSQL's job queue adds its own per job (the claim, lease renewals, the end, NOTIFY):
 * 82 to 95 measured there (CI met 91), so its bound has the same margin over that.
 */
const MERGE_BOUND = testsOnPostgres ? 110 : 90;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'counted', { auto_init: true });
  for (let i = 0; i < 50; i++) await ok(await s.request('api/v1/repos/alice/counted/issues', { method: 'POST', auth: as(alice), json: { title: `Issue ${i}`, body: `Body ${i}` } }), 201);
});
afterAll(async () => { await s.stop(); });

/** The fewest statements of three runs of `call` (background tasks may add to one run). */
async function counted(call: (i: number) => Promise<unknown>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = statementStats(s.hearth.db).executed;
    await call(i);
    runs.push(statementStats(s.hearth.db).executed - before);
  }
  return Math.min(...runs);
}

const statements = (path: string) => counted(async () => ok(await s.request(path, { auth: as(alice) })));

describe('statements per request', () => {
  it('GET /repos/{owner}/{repo}', async () => {
    // 6 before the owner was taken from the caller's row and the details stopped re-reading it;
    // 3 while the pending transfer was a read of its own (the guard's repository read now says);
    // 2 while the caller was read apart from the repository (now one statement: models/repo-path.ts).
    expect(await statements('api/v1/repos/alice/counted')).toBe(1);
  });

  it('GET /repos/{owner}/{repo} by token, by another user and anonymously: one statement each, on either engine', async () => {
    const token = await createToken(s, alice, ['read:repository']);
    // The token's last use is written at most once a second: the fewest of three runs reads only.
    expect(await counted(async () => ok(await s.request('api/v1/repos/alice/counted', { auth: { token } })))).toBe(1);
    const carol = await createUser(s, 'counter-reader');
    // 3 when the caller, the owner and the repository were three reads.
    expect(await counted(async () => ok(await s.request('api/v1/repos/alice/counted', { auth: as(carol) })))).toBe(1);
    const carols = await createToken(s, carol, ['read:repository']);
    expect(await counted(async () => ok(await s.request('api/v1/repos/alice/counted', { auth: { token: carols } })))).toBe(1);
    // 2 when the owner and the repository were two reads.
    expect(await counted(async () => ok(await s.request('api/v1/repos/alice/counted')))).toBe(1);
  });

  it('GET /user reads the caller once, by Basic credentials or by token (the token with its account)', async () => {
    expect(await statements('api/v1/user')).toBeLessThanOrEqual(1);
    const token = await createToken(s, alice, ['read:user']);
    // 2 when the token and its account were two reads; the token's last use is written at most once a second.
    expect(await counted(async () => ok(await s.request('api/v1/user', { auth: { token } })))).toBeLessThanOrEqual(1);
  });

  it('a raw file download by a signed-in reader reads no page state (header counts, watch and star)', async () => {
    // 5 when downloads ran a page's unread count and watch and star queries.
    expect(await statements('alice/counted/raw/branch/main/README.md')).toBeLessThanOrEqual(2);
  });

  it('GET /repos/{owner}/{repo}/issues?limit=50', async () => {
    expect(await statements('api/v1/repos/alice/counted/issues?limit=50')).toBeLessThanOrEqual(10);
  });

  it('PATCH /repos/{owner}/{repo}/issues/{index} by an organization team member reads its access once', async () => {
    const org = await createOrg(s, alice, 'countorg');
    const bob = await createUser(s, 'bob');
    await addTeam(s, org.id, 'writers', { mode: 2, allRepos: true, uids: [bob.id] });
    await ok(await s.request('api/v1/orgs/countorg/repos', { method: 'POST', auth: as(alice), json: { name: 'orgrepo' } }), 201);
    await ok(await s.request('api/v1/repos/countorg/orgrepo/issues', { method: 'POST', auth: as(bob), json: { title: 'x' } }), 201);
    const n = await counted(async (i) => ok(await s.request('api/v1/repos/countorg/orgrepo/issues/1', { method: 'PATCH', auth: as(bob), json: { title: `x${i}` } }), 201));
    // 31 when the overall mode and the issues and pulls unit modes each read the team rows again.
    // PostgreSQL also takes the edit's parent rows FOR NO KEY UPDATE (lockRow: repository, issue and its
    // milestone), statements SQLite, whose writers are serialized, does not run.
    expect(n).toBeLessThanOrEqual(testsOnPostgres ? 28 : 25);
  });

  it('POST /repos/{owner}/{repo}/issues counts the new issue without recounting the repository', async () => {
    const before = await (await s.request('api/v1/repos/alice/counted', { auth: as(alice) })).json() as { open_issues_count: number };
    const n = await counted(async (i) => ok(await s.request('api/v1/repos/alice/counted/issues', { method: 'POST', auth: as(alice), json: { title: `More ${i}` } }), 201));
    // 24: the repository has no workflows, so once the first event's trigger job found none, the
    // next issue events queue no job (25 when every issue event queued one). 15 (21 on SQLite, 22
    // on PostgreSQL before, issue 34): the open count's UPDATE holds the repository row in place of
    // lockRow, no block check in one's own repository, the feed takes the owner from the doer, and
    // a new issue with no labels, assignees or milestone is answered from what its transaction wrote.
    expect(n).toBeLessThanOrEqual(15);
    const after = await (await s.request('api/v1/repos/alice/counted', { auth: as(alice) })).json() as { open_issues_count: number };
    expect(after.open_issues_count).toBe(before.open_issues_count + 3);
    // The increments agree with a count of the rows (what check_repo_stats compares).
    expect(await findCounterDrift(s.hearth.db)).toEqual([]);
  });

  // SQLite only: its statement cache is one per process; PostgreSQL prepares a statement once per
  // pool connection, and the second request may be served by another connection.
  sqliteOnly('prepares each distinct statement once', async () => {
    await statements('api/v1/repos/alice/counted/issues?limit=50');
    const before = statementStats(s.hearth.db).prepared;
    await statements('api/v1/repos/alice/counted/issues?limit=50');
    expect(statementStats(s.hearth.db).prepared - before).toBe(0);
  });
});

describe('statements per page (signed in, the page\'s fixed part: session, header counts, repository, units)', () => {
  const page = async (path: string) => {
    const web = await signedInClient(s, 'alice', alice.password);
    return counted(async () => {
      const res = await web.get(path);
      expect(res.status).toBe(200);
      await res.text();
    });
  };

  it('the releases page looks the mentioned users up once for all its notes', async () => {
    for (let i = 0; i < 5; i++) {
      await ok(await s.request('api/v1/repos/alice/counted/releases', { method: 'POST', auth: as(alice), json: { tag_name: `count-${i}`, body: `Notes **${i}**, thanks @alice` } }), 201);
    }
    // 13 with five releases when each one's notes looked their mentions up again; 9 when the watch and star state were two
    // statements; 8 while they were one of their own (now in the repository's read).
    expect(await page('alice/counted/releases')).toBeLessThanOrEqual(7);
  });

  it('the packages list reads its versions\' creators in one query (the API\'s list too)', async () => {
    for (let i = 0; i < 10; i++) {
      await ok(await s.request(`api/packages/alice/generic/count-${i}/1.0.${i}/file.bin`, { method: 'PUT', auth: as(alice), body: `bytes ${i}` }), 201);
    }
    // 14 and 14 with ten versions when each version read its creator.
    expect(await page('alice/-/packages')).toBeLessThanOrEqual(5);
    expect(await statements('api/v1/packages/alice?limit=20')).toBeLessThanOrEqual(5);
  });

  it('the site administration\'s audit log, account edit and explore pages read no row per entry', async () => {
    const boss = await createSiteAdmin(s, 'countboss');
    // Entries by several actors and repositories of several owners: a lookup per row would show.
    for (let i = 0; i < 6; i++) await createRepo(s, await createUser(s, `audited${i}`), `listed${i}`);
    const web = await signedInClient(s, boss.username, boss.password);
    const adminPage = (path: string) => counted(async () => {
      const res = await web.get(path);
      expect(res.status).toBe(200);
      await res.text();
    });
    // The session with its user and unread count, then the page's own: entries and their total; the account; repositories and their total.
    expect(await adminPage('-/admin/audit-logs')).toBeLessThanOrEqual(3);
    expect(await adminPage('-/admin/users/audited1')).toBeLessThanOrEqual(2);
    expect(await adminPage('explore/repos')).toBeLessThanOrEqual(4);
  });

  it('the repository settings pages; the session, its user and the header\'s unread count are one statement', async () => {
    // Two more each when the session's user and the unread count were read apart. Their header
    // carries the viewer's state as every repository page's does (watch, star and a pending
    // transfer, whose banner reaches its recipient here too): one statement of its own until
    // the repository's read took it (one less each).
    expect(await page('alice/counted/settings')).toBeLessThanOrEqual(3);
    expect(await page('alice/counted/settings/hooks')).toBeLessThanOrEqual(4);
    expect(await page('alice/counted/settings/branches')).toBeLessThanOrEqual(3);
  });

  it('the settings page reads a pending transfer once for its header and its danger zone', async () => {
    await createRepo(s, alice, 'moving', { auto_init: true });
    await createUser(s, 'carol');
    // Pending: alice may not create repositories for carol, so carol must accept.
    await ok(await s.request('api/v1/repos/alice/moving/transfer', { method: 'POST', auth: as(alice), json: { new_owner: 'carol' } }), 201);
    const web = await signedInClient(s, 'alice', alice.password);
    const body = await (await web.get('alice/moving/settings')).text();
    expect(body).toContain('waits for them to accept it');
    // 11 when the danger zone read the transfer and its two users again after the header had; one
    // more while the viewer's watch and star state was a statement of its own.
    expect(await page('alice/moving/settings')).toBeLessThanOrEqual(6);
  });
});

describe('statements per merge', () => {
  it('POST /repos/{owner}/{repo}/pulls/{index}/merge', async () => {
    await createRepo(s, alice, 'merged', { auto_init: true });
    await ok(await s.request('api/v1/repos/alice/merged/contents/feature.txt', {
      method: 'POST', auth: as(alice), json: { content: Buffer.from('feature\n').toString('base64'), message: 'Add feature', new_branch: 'feature' },
    }), 201);
    const pr = await ok(await s.request('api/v1/repos/alice/merged/pulls', {
      method: 'POST', auth: as(alice), json: { head: 'feature', base: 'main', title: 'Feature' },
    }), 201) as { number: number };
    // The pull request's own follow-ups (its mergeability check) run before the count starts.
    await allFollowUpsSettled(s.hearth.db);
    const before = statementStats(s.hearth.db).executed;
    await ok(await s.request(`api/v1/repos/alice/merged/pulls/${pr.number}/merge`, { method: 'POST', auth: as(alice), json: { Do: 'merge' } }), 200);
    await allFollowUpsSettled(s.hearth.db);
    // One merge cannot run three times: counted once. The merge passes the doer's row it holds;
    // the repository and the issue are read again after the merge changed them.
    expect(statementStats(s.hearth.db).executed - before).toBeLessThanOrEqual(MERGE_BOUND);
  });
});
