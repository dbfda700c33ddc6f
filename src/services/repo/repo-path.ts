import type { RepoPathRows } from '../../models/repo-path';

/** `{owner}/{repo}` of a path as lookups compare it: lower case, without a `.git` suffix. */
export type RepoPath = { owner: string; name: string };

export const repoPathOf = (owner: string, repo: string): RepoPath => ({
  owner: owner.toLowerCase(), name: (repo.endsWith('.git') ? repo.slice(0, -4) : repo).toLowerCase(),
});

/**
 * The rows of `path` a request already read with its caller (authenticateToken/Basic given the
 * path): the repository guard answers from them instead of reading them again. Kept by the
 * request that read them (req.ctx.heldRepo), never across requests.
 */
export type HeldRepo = { path: RepoPath; rows: RepoPathRows };
