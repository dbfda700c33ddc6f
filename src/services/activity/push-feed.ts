import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { git } from '../../git/exec';
import type { RefUpdate } from '../../git/hooks';
import { getRepoById } from '../../models/repo';
import { backgroundError } from '../../lib/background-log';
import { OP, recordAction } from './activity';

// Feed rows for ref updates (a push, or an API write that moved refs), as Gitea's push
// notifications: commit_repo with the pushed commits, push_tag, delete_branch, delete_tag.

/** Gitea's [ui] FEED_MAX_COMMIT_NUM default; a new branch lists up to 10 commits before that cut. */
const FEED_MAX_COMMITS = 5;
const NEW_BRANCH_COMMITS = 10;

const isZero = (id: string) => /^0+$/.test(id);

type PushCommit = {
  Sha1: string; Message: string; AuthorEmail: string; AuthorName: string;
  CommitterEmail: string; CommitterName: string; Timestamp: string;
};

const LOG_FORMAT = '%H%x00%P%x00%ae%x00%an%x00%ce%x00%cn%x00%aI%x00%B%x1e';

/** Commits as Gitea serialises them (Go time: `Z` for UTC), with their parents. */
async function commitsOf(dir: string, args: string[]): Promise<(PushCommit & { parents: string[] })[]> {
  const out = await git(['log', `--format=${LOG_FORMAT}`, ...args, '--'], { gitDir: dir });
  return out.split('\x1e').map((r) => r.replace(/^\n/, '')).filter(Boolean).map((r) => {
    const [sha, parents, ae, an, ce, cn, date, message] = r.split('\0') as string[];
    return {
      Sha1: sha!, Message: message ?? '', AuthorEmail: ae!, AuthorName: an!, CommitterEmail: ce!, CommitterName: cn!,
      Timestamp: date!.replace(/\+00:00$/, 'Z'), parents: parents ? parents.split(' ') : [],
    };
  });
}

const strip = ({ parents: _parents, ...c }: PushCommit & { parents: string[] }): PushCommit => c;

/** Gitea's PushCommits JSON for a branch update: the newest commits, the head, a compare link. */
async function branchPushContent(dir: string, repo: Repository, u: RefUpdate): Promise<string> {
  const created = isZero(u.oldId);
  const list = await commitsOf(dir, created ? [`--max-count=${NEW_BRANCH_COMMITS}`, u.newId] : [`--max-count=${FEED_MAX_COMMITS}`, `${u.oldId}..${u.newId}`]);
  const len = created ? list.length : Number((await git(['rev-list', '--count', `${u.oldId}..${u.newId}`], { gitDir: dir })).trim());
  const head = list[0]?.Sha1 === u.newId ? list[0] : (await commitsOf(dir, ['--max-count=1', u.newId]))[0];
  // A new branch compares with the parent of its oldest listed commit, else the default branch.
  let base = created ? (list.at(-1)?.parents[0] ?? '') : u.oldId;
  const branch = u.ref.slice('refs/heads/'.length);
  if (!base && repo.default_branch !== branch) base = repo.default_branch;
  const compare = base
    ? `${encodeURIComponent(repo.owner_name)}/${encodeURIComponent(repo.name)}/compare/${base.split('/').map(encodeURIComponent).join('/')}...${u.newId}`
    : '';
  return JSON.stringify({
    Commits: list.slice(0, FEED_MAX_COMMITS).map(strip), HeadCommit: head ? strip(head) : null, CompareURL: compare, Len: len,
  });
}


/** Records the feed rows of ref updates made by `doer` on the repository (by id: read fresh). */
async function recordRefUpdates(db: DB, repoId: number, doer: User, dir: string, updates: RefUpdate[]): Promise<void> {
  const relevant = updates.filter((u) => u.ref.startsWith('refs/heads/') || u.ref.startsWith('refs/tags/'));
  if (!relevant.length) return;
  const repo = await getRepoById(db, repoId);
  if (!repo) return;
  for (const u of relevant) {
    const tag = u.ref.startsWith('refs/tags/');
    if (isZero(u.newId)) {
      await recordAction(db, { op: tag ? OP.deleteTag : OP.deleteBranch, actor: doer, repo, refName: u.ref });
    } else if (tag) {
      const content = JSON.stringify({ Commits: null, HeadCommit: null, CompareURL: '', Len: 0 });
      await recordAction(db, { op: OP.pushTag, actor: doer, repo, refName: u.ref, content });
    } else {
      await recordAction(db, { op: OP.commitRepo, actor: doer, repo, refName: u.ref, content: await branchPushContent(dir, repo, u) });
    }
  }
}

/** Feed rows of refs that moved (a push, an API write, a merge). Best effort: logged, never failing the change. */
export async function feedRefUpdates(db: DB, repoId: number, doer: User, dir: string, updates: RefUpdate[]): Promise<void> {
  try {
    await recordRefUpdates(db, repoId, doer, dir, updates);
  } catch (err) {
    backgroundError({ err, repo: repoId, refs: updates.map((u) => u.ref) }, 'recording ref activity failed');
  }
}

/** A branch created through the API: commit_repo naming the ref, without commits (Gitea's CreateRef). */
export async function feedBranchCreated(db: DB, repo: Repository, doer: User, branch: string): Promise<void> {
  try {
    await recordAction(db, { op: OP.commitRepo, actor: doer, repo, refName: `refs/heads/${branch}` });
  } catch (err) {
    backgroundError({ err, repo: repo.id, branch }, 'recording ref activity failed');
  }
}
