// What bench/cluster checks after the load, straight in the database and the shared repositories:
// every issue and comment a 201 announced exists once (and nothing the bench made beyond them),
// the repositories' and issues' counters equal the rows, issue numbers are unique per repository,
// every contents-API commit is in its branch, and each branch row names the commit git has.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Problems found, one line each (none: nothing lost). */
export async function checkNothingLost({ url, reposRoot, world, rec }) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const problems = [];
  try {
    const like = `${world.runTag}-%`;
    const issues = await db.query('SELECT i.title, i."index" AS number, r.owner_name AS owner, r.name FROM issue i JOIN repository r ON r.id = i.repo_id WHERE i.title LIKE $1', [like]);
    problems.push(...sameRows('issue', rec.issues.map((x) => `${x.repo.owner}/${x.repo.name}#${x.number} ${x.title}`),
      issues.rows.map((x) => `${x.owner}/${x.name}#${x.number} ${x.title}`)));
    const comments = await db.query(`SELECT c.id, c.content, i."index" AS number, r.owner_name AS owner, r.name FROM comment c
      JOIN issue i ON i.id = c.issue_id JOIN repository r ON r.id = i.repo_id WHERE c.content LIKE $1`, [like]);
    problems.push(...sameRows('comment', rec.comments.map((x) => `${x.repo.owner}/${x.repo.name}#${x.number} ${x.id} ${x.body}`),
      comments.rows.map((x) => `${x.owner}/${x.name}#${x.number} ${x.id} ${x.content}`)));
    const repoCounters = await db.query(`SELECT r.owner_name, r.name, r.num_issues, r.num_closed_issues,
        (SELECT COUNT(*) FROM issue i WHERE i.repo_id = r.id AND i.is_pull = 0)::int AS n,
        (SELECT COUNT(*) FROM issue i WHERE i.repo_id = r.id AND i.is_pull = 0 AND i.is_closed = 1)::int AS closed
      FROM repository r`);
    for (const r of repoCounters.rows) {
      if (Number(r.num_issues) !== r.n || Number(r.num_closed_issues) !== r.closed) {
        problems.push(`${r.owner_name}/${r.name}: num_issues ${r.num_issues} (rows ${r.n}), num_closed_issues ${r.num_closed_issues} (rows ${r.closed})`);
      }
    }
    const issueCounters = await db.query(`SELECT i.id, i.num_comments, (SELECT COUNT(*) FROM comment c WHERE c.issue_id = i.id AND c.type IN (0, 21, 22))::int AS n
      FROM issue i WHERE i.num_comments <> (SELECT COUNT(*) FROM comment c WHERE c.issue_id = i.id AND c.type IN (0, 21, 22))`);
    for (const r of issueCounters.rows) problems.push(`issue ${r.id}: num_comments ${r.num_comments}, rows ${r.n}`);
    const doubled = await db.query('SELECT repo_id, "index", COUNT(*)::int AS n FROM issue GROUP BY repo_id, "index" HAVING COUNT(*) > 1');
    for (const r of doubled.rows) problems.push(`repository ${r.repo_id}: issue number ${r.index} used ${r.n} times`);
    problems.push(...await checkGit(db, reposRoot, world, rec));
  } finally {
    await db.end();
  }
  return problems;
}

/** Rows made against rows announced: each once, none missing, none extra. */
function sameRows(what, announced, stored) {
  const problems = [];
  const count = new Map();
  for (const s of stored) count.set(s, (count.get(s) ?? 0) + 1);
  for (const a of announced) {
    const n = count.get(a) ?? 0;
    if (n !== 1) problems.push(`${what} ${a}: ${n} rows`);
    count.delete(a);
  }
  for (const [s, n] of count) problems.push(`${what} ${s}: ${n} rows never announced by a 201`);
  return problems;
}

/** Each repository's branch row against git, and each announced commit reachable from its branch. */
async function checkGit(db, reposRoot, world, rec) {
  const problems = [];
  for (const repo of world.repos) {
    const gitDir = path.join(reposRoot, repo.owner, `${repo.name}.git`);
    const head = (await run('git', ['--git-dir', gitDir, 'rev-parse', 'refs/heads/main'])).stdout.trim();
    const row = await db.query(`SELECT b.commit_id FROM branch b JOIN repository r ON r.id = b.repo_id
      WHERE r.owner_name = $1 AND r.name = $2 AND b.name = 'main'`, [repo.owner, repo.name]);
    if (row.rows[0]?.commit_id !== head) problems.push(`${repo.owner}/${repo.name}: branch row main ${row.rows[0]?.commit_id}, git ${head}`);
    for (const c of rec.commits.filter((x) => x.repo === repo)) {
      try {
        await run('git', ['--git-dir', gitDir, 'merge-base', '--is-ancestor', c.sha, head]);
        await run('git', ['--git-dir', gitDir, 'cat-file', '-e', `${head}:${c.file}`]);
      } catch {
        problems.push(`${repo.owner}/${repo.name}: commit ${c.sha} (${c.file}) lost from main`);
      }
    }
  }
  return problems;
}
