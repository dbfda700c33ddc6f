import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, type DB } from '../../src/db/connect';
import { openPostgres } from '../../src/db/postgres/connect';
import type { Repository, User } from '../../src/db/schema';
import { COMMENT_TYPE } from '../../src/lib/comment-type';
import { createComment } from '../../src/services/issue/comments';
import { editIssue } from '../../src/services/issue/issue-edit';
import { createIssue } from '../../src/services/issue/issues';
import { createRepoLabel } from '../../src/services/issue/repo-labels';
import { createRepoMilestone } from '../../src/services/issue/milestones';
import { setStar } from '../../src/services/repo/stars';
import { accessOf } from '../../src/services/repo/repos';
import { followUser } from '../../src/services/user/follows';
import { createOrganization } from '../../src/services/org/orgs';
import { addMember } from '../../src/services/org/team-members';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';

// Counters kept by recounting (or bumping) a parent row beside a child's write hold on
// PostgreSQL, whose writers run side by side (SQLite's take turns): 200 creates at once through
// the services, on a pool, then each counter equals a count of its rows. Without the parent's
// row lock (lockRow) a recount reads a snapshot that misses a concurrent commit.

const N = 200;
let server: TempPostgres;
let db: DB;

beforeAll(async () => {
  if (!postgresInstalled) return;
  server = startPostgres();
  db = await openPostgres({ url: server.url(), poolSize: 10 });
  await migrate(db);
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  server?.stop();
});

let seq = 0;
/** `n` users with fresh names (each test makes its own). */
async function users(n: number): Promise<User[]> {
  const base = ++seq;
  return db.insertInto('user').values(Array.from({ length: n }, (_, i) => ({
    lower_name: `u${base}-${i}`, name: `u${base}-${i}`, email: `u${base}-${i}@example.com`, created_unix: 0, updated_unix: 0,
  }))).returningAll().execute();
}

async function repoOf(owner: User, name = 'counted'): Promise<Repository> {
  return db.insertInto('repository').values({
    owner_id: owner.id, owner_name: owner.name, lower_name: name, name, default_branch: 'main', created_unix: 0, updated_unix: 0,
  }).returningAll().executeTakeFirstOrThrow();
}

const all = <T>(n: number, fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
const count = async (q: Promise<{ n: number | string }>) => Number((await q).n);

withPostgres('recounts on PostgreSQL under 200 concurrent writers', () => {
  it('issues in one repository: num_issues', async () => {
    const [owner] = await users(1);
    const access = await accessOf(db, await repoOf(owner!), owner!);
    await all(N, (i) => createIssue(db, access, owner!, { title: `issue ${i}` }));
    const repo = await db.selectFrom('repository').selectAll().where('id', '=', access.repo.id).executeTakeFirstOrThrow();
    const rows = await count(db.selectFrom('issue').select((eb) => eb.fn.countAll<number>().as('n')).where('repo_id', '=', repo.id).executeTakeFirstOrThrow());
    expect(rows).toBe(N);
    expect(repo.num_issues).toBe(rows);
    // Numbers are unique too: the repository's lock orders their allocation.
    const numbers = await db.selectFrom('issue').select('index').where('repo_id', '=', repo.id).execute();
    expect(new Set(numbers.map((r) => r.index)).size).toBe(N);
  }, 120_000);

  it('issues opened with one label and one milestone: their num_issues', async () => {
    const [owner] = await users(1);
    const access = await accessOf(db, await repoOf(owner!), owner!);
    const label = await createRepoLabel(db, access, owner!, { name: 'bug', color: '#ff0000' });
    const milestone = await createRepoMilestone(db, access, owner!, { title: 'v1' });
    await all(N, (i) => createIssue(db, access, owner!, { title: `issue ${i}`, labels: [label.id], milestone: milestone.id }));
    const l = await db.selectFrom('label').selectAll().where('id', '=', label.id).executeTakeFirstOrThrow();
    const m = await db.selectFrom('milestone').selectAll().where('id', '=', milestone.id).executeTakeFirstOrThrow();
    expect(await count(db.selectFrom('issue_label').select((eb) => eb.fn.countAll<number>().as('n')).where('label_id', '=', label.id).executeTakeFirstOrThrow())).toBe(N);
    expect(l.num_issues).toBe(N);
    expect(m.num_issues).toBe(N);
  }, 120_000);

  it('issues closed at once: num_closed_issues of the repository, the label and the milestone', async () => {
    const [owner] = await users(1);
    const access = await accessOf(db, await repoOf(owner!), owner!);
    const label = await createRepoLabel(db, access, owner!, { name: 'bug', color: '#ff0000' });
    const milestone = await createRepoMilestone(db, access, owner!, { title: 'v1' });
    for (let i = 0; i < N; i++) await createIssue(db, access, owner!, { title: `issue ${i}`, labels: [label.id], milestone: milestone.id });
    await all(N, (i) => editIssue(db, access, owner!, i + 1, { state: 'closed' }));
    const repo = await db.selectFrom('repository').selectAll().where('id', '=', access.repo.id).executeTakeFirstOrThrow();
    const l = await db.selectFrom('label').selectAll().where('id', '=', label.id).executeTakeFirstOrThrow();
    const m = await db.selectFrom('milestone').selectAll().where('id', '=', milestone.id).executeTakeFirstOrThrow();
    expect([repo.num_closed_issues, l.num_closed_issues, m.num_closed_issues]).toEqual([N, N, N]);
  }, 180_000);

  it('comments on one issue: num_comments', async () => {
    const [owner] = await users(1);
    const access = await accessOf(db, await repoOf(owner!), owner!);
    const issue = await createIssue(db, access, owner!, { title: 'talked about' });
    await all(N, (i) => createComment(db, access, owner!, issue.issue.index, `comment ${i}`));
    const row = await db.selectFrom('issue').selectAll().where('repo_id', '=', access.repo.id).executeTakeFirstOrThrow();
    const rows = await count(db.selectFrom('comment').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('issue_id', '=', row.id).where('type', '=', COMMENT_TYPE.comment).executeTakeFirstOrThrow());
    expect(rows).toBe(N);
    expect(row.num_comments).toBe(rows);
  }, 120_000);

  it('comments, closes, reopens and new issues of one repository mixed at once: none deadlocks, counters equal rows', async () => {
    // A comment locks its issue, then its second write of that issue row checks the row's
    // repository key (a key-share lock); a close locks the repository, then the issue. Counter
    // locks that exclude key-share locks (FOR UPDATE) turned that into a deadlock (a 500).
    const [owner] = await users(1);
    const access = await accessOf(db, await repoOf(owner!), owner!);
    for (let i = 0; i < 3; i++) await createIssue(db, access, owner!, { title: `issue ${i}` });
    const results = await Promise.allSettled(Array.from({ length: N }, (_, i) => {
      const index = (i % 3) + 1;
      if (i % 4 === 0) return createIssue(db, access, owner!, { title: `more ${i}` });
      if (i % 4 === 3) return editIssue(db, access, owner!, index, { state: i % 8 === 3 ? 'closed' : 'open' });
      return createComment(db, access, owner!, index, `comment ${i}`);
    }));
    expect(results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []))).toEqual([]);
    const repo = await db.selectFrom('repository').selectAll().where('id', '=', access.repo.id).executeTakeFirstOrThrow();
    const issues = await db.selectFrom('issue').selectAll().where('repo_id', '=', repo.id).execute();
    expect(repo.num_issues).toBe(issues.length);
    expect(repo.num_closed_issues).toBe(issues.filter((i) => i.is_closed).length);
    for (const issue of issues) {
      expect(issue.num_comments).toBe(await count(db.selectFrom('comment').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('issue_id', '=', issue.id).where('type', '=', COMMENT_TYPE.comment).executeTakeFirstOrThrow()));
    }
  }, 180_000);

  it('milestones of one repository: num_milestones', async () => {
    const [owner] = await users(1);
    const access = await accessOf(db, await repoOf(owner!), owner!);
    await all(N, (i) => createRepoMilestone(db, access, owner!, { title: `m${i}`, state: i % 2 ? 'closed' : 'open' }));
    const repo = await db.selectFrom('repository').selectAll().where('id', '=', access.repo.id).executeTakeFirstOrThrow();
    expect([repo.num_milestones, repo.num_closed_milestones]).toEqual([N, N / 2]);
  }, 120_000);

  it('stars of one repository by 200 users: num_stars of the repository and of each user', async () => {
    const [owner, ...fans] = await users(N + 1);
    const access = await accessOf(db, await repoOf(owner!), owner!);
    await all(N, (i) => setStar(db, fans[i]!, access, true));
    const repo = await db.selectFrom('repository').selectAll().where('id', '=', access.repo.id).executeTakeFirstOrThrow();
    expect(repo.num_stars).toBe(await count(db.selectFrom('star').select((eb) => eb.fn.countAll<number>().as('n')).where('repo_id', '=', repo.id).executeTakeFirstOrThrow()));
    expect(repo.num_stars).toBe(N);
    const stars = await db.selectFrom('user').select('num_stars').where('id', 'in', fans.map((f) => f.id)).execute();
    expect(stars.every((s) => s.num_stars === 1)).toBe(true);
  }, 120_000);

  it('members joining one team: num_members, and each one an organization member', async () => {
    const [creator, ...joining] = await users(N + 1);
    const org = await createOrganization(db, { ...creator!, is_admin: 1 }, { username: `org${creator!.id}` });
    const owners = await db.selectFrom('team').selectAll().where('org_id', '=', org.id).executeTakeFirstOrThrow();
    await all(N, (i) => addMember(db, owners.id, creator!, joining[i]!.name));
    const team = await db.selectFrom('team').selectAll().where('id', '=', owners.id).executeTakeFirstOrThrow();
    const rows = await count(db.selectFrom('team_user').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', team.id).executeTakeFirstOrThrow());
    expect(rows).toBe(N + 1);
    expect(team.num_members).toBe(rows);
    expect(await count(db.selectFrom('org_user').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', org.id).executeTakeFirstOrThrow())).toBe(N + 1);
  }, 120_000);

  it('followers of one user: num_followers', async () => {
    const [star, ...fans] = await users(N + 1);
    await all(N, (i) => followUser(db, fans[i]!, star!));
    const row = await db.selectFrom('user').selectAll().where('id', '=', star!.id).executeTakeFirstOrThrow();
    const rows = await count(db.selectFrom('follow').select((eb) => eb.fn.countAll<number>().as('n')).where('follow_id', '=', star!.id).executeTakeFirstOrThrow());
    expect(rows).toBe(N);
    expect(row.num_followers).toBe(rows);
  }, 120_000);
});
