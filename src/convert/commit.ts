import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import type { LogCommit, Person } from '../git/log';
import type { RepoAccess } from '../services/repo/repos';
import type { Verification } from '../services/signing/verify-commit';
import { repoUrls } from './repo';
import { toApiUser } from './user';

/** Git's strict ISO dates as Go renders a time.Time: a zero offset is `Z`. */
export const goTime = (iso: string) => iso.replace(/[+-]00:00$/, 'Z');

/** An unsigned commit (Gitea's reason for that case). */
export const UNVERIFIED = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };

/** `verifications`: the commits' checked signatures (unsigned when missing). */
export type CommitJsonOptions = { verification: boolean; verifications?: Map<string, Verification> };

const commitUser = (p: Person) => ({ name: p.name, email: p.email, date: goTime(p.date) });

/**
 * Gitea's Commit: `author`/`committer` are the accounts the emails belong to (null when none);
 * `files`, `stats` and `commit.verification` are null when not asked for.
 */
export function toApiCommit(
  config: Config, access: RepoAccess, c: LogCommit, users: Map<string, User>, viewer: User | null, opts: CommitJsonOptions,
) {
  const { url, html_url } = repoUrls(config, access.owner.name, access.repo.name);
  const account = (email: string) => {
    const u = users.get(email.toLowerCase());
    return u ? toApiUser(config, u, viewer) : null;
  };
  return {
    url: `${url}/git/commits/${c.sha}`,
    sha: c.sha,
    created: goTime(c.committer.date),
    html_url: `${html_url}/commit/${c.sha}`,
    commit: {
      url: `${url}/git/commits/${c.sha}`,
      author: commitUser(c.author),
      committer: commitUser(c.committer),
      message: c.message,
      tree: { url: `${url}/git/trees/${c.tree}`, sha: c.tree, created: goTime(c.committer.date) },
      verification: opts.verification ? opts.verifications?.get(c.sha) ?? UNVERIFIED : null,
    },
    author: account(c.author.email),
    committer: account(c.committer.email),
    parents: c.parents.map((p) => ({ url: `${url}/git/commits/${p}`, sha: p })),
    files: c.files ?? null,
    stats: c.stats ? { total: c.stats.additions + c.stats.deletions, ...c.stats } : null,
  };
}

export function toApiCommits(
  config: Config, access: RepoAccess, list: { commits: LogCommit[]; users: Map<string, User>; verifications?: Map<string, Verification> },
  viewer: User | null, opts: CommitJsonOptions,
) {
  const withChecked = { verifications: list.verifications, ...opts };
  return list.commits.map((c) => toApiCommit(config, access, c, list.users, viewer, withChecked));
}
