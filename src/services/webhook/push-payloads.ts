import type { RefUpdate } from '../../git/hooks';
import { pushCommits, type PushCommit } from '../../git/push-commits';
import type { User } from '../../db/schema';
import { usersByEmails } from '../../models/commit-users';
import { apiUser, type Payload, type PayloadContext } from './payloads';

// PushPayload, CreatePayload and DeletePayload of moved refs (Gitea's PushCommits, CreateRef
// and DeleteRef notifications), read from git when the delivery is prepared.

/** Gitea lists this many commits of a new branch; later ones count in total_commits only. */
const NEW_BRANCH_COMMITS = 10;
const MAX_COMMITS = 100;

export const isZero = (id: string) => /^0+$/.test(id);
export const shortRef = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '');
export const refType = (ref: string) => (ref.startsWith('refs/tags/') ? 'tag' : 'branch');

function person(p: PushCommit['author'], users: Map<string, User>) {
  return { name: p.name, email: p.email, username: users.get(p.email.toLowerCase())?.name ?? '' };
}

function payloadCommit(c: PayloadContext, commit: PushCommit, users: Map<string, User>): Payload {
  return {
    id: commit.id, message: commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`,
    url: `${c.repository.html_url as string}/commit/${commit.id}`,
    author: person(commit.author, users), committer: person(commit.committer, users),
    verification: null, timestamp: commit.author.date.replace(/\+00:00$/, 'Z'),
    added: commit.added, removed: commit.removed, modified: commit.modified,
  };
}

/** PushPayload of one ref update (a tag push lists no commits, only its head). */
export async function pushPayload(c: PayloadContext, dir: string, pusher: User, u: RefUpdate): Promise<Payload> {
  const deleted = isZero(u.newId);
  const created = isZero(u.oldId);
  const tag = u.ref.startsWith('refs/tags/');
  const read = deleted ? { commits: [], total: 0 }
    : await pushCommits(dir, created ? null : u.oldId, u.newId, tag ? 1 : created ? NEW_BRANCH_COMMITS : MAX_COMMITS);
  const users = await usersByEmails(c.db, read.commits.flatMap((x) => [x.author.email, x.committer.email]));
  const commits = read.commits.map((x) => payloadCommit(c, x, users));
  const compare = !deleted && !created ? `${c.repository.html_url as string}/compare/${u.oldId}...${u.newId}` : '';
  return {
    ref: u.ref, before: u.oldId, after: u.newId, compare_url: compare,
    // A new branch lists (and counts, as Gitea) the newest commits of its history only.
    commits: tag ? [] : commits, total_commits: tag ? 0 : created ? commits.length : read.total, head_commit: commits[0] ?? null,
    repository: c.repository, pusher: apiUser(c, pusher), sender: c.sender,
  };
}

export function createPayload(c: PayloadContext, u: RefUpdate): Payload {
  return { sha: u.newId, ref: shortRef(u.ref), ref_type: refType(u.ref), repository: c.repository, sender: c.sender };
}

export function deletePayload(c: PayloadContext, u: RefUpdate): Payload {
  return { ref: shortRef(u.ref), ref_type: refType(u.ref), pusher_type: 'user', repository: c.repository, sender: c.sender };
}
