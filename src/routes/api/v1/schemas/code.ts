import * as z from 'zod';
import { bool, dateTime, email, int, str } from './fields';
import { User } from './accounts';
import { Repository } from './repos';

export const AnnotatedTagObject = z.object({
  sha: str,
  type: str,
  url: str,
}).partial();
export const CommitUser = z.object({
  date: str,
  email: email,
  name: str,
}).partial();
export const PayloadUser = z.object({
  email: email,
  name: str,
  username: str,
}).partial();
export const PayloadCommitVerification = z.object({
  payload: str,
  reason: str,
  signature: str,
  signer: PayloadUser.nullable(),
  verified: bool,
}).partial();
export const AnnotatedTag = z.object({
  message: str,
  object: AnnotatedTagObject,
  sha: str,
  tag: str,
  tagger: CommitUser.nullable(),
  url: str,
  verification: PayloadCommitVerification,
}).partial();
export const PayloadCommit = z.object({
  added: z.array(str),
  author: PayloadUser,
  committer: PayloadUser,
  id: str,
  message: str,
  modified: z.array(str),
  removed: z.array(str),
  timestamp: dateTime,
  url: str,
  verification: PayloadCommitVerification,
}).partial();
export const Branch = z.object({
  commit: PayloadCommit,
  effective_branch_protection_name: str,
  enable_status_check: bool,
  name: str,
  protected: bool,
  required_approvals: int,
  status_check_contexts: z.array(str),
  user_can_merge: bool,
  user_can_push: bool,
}).partial();
export const BranchProtection = z.object({
  approvals_whitelist_teams: z.array(str),
  approvals_whitelist_username: z.array(str),
  block_admin_merge_override: bool,
  block_on_official_review_requests: bool,
  block_on_outdated_branch: bool,
  block_on_rejected_reviews: bool,
  branch_name: str,
  created_at: dateTime,
  dismiss_stale_approvals: bool,
  enable_approvals_whitelist: bool,
  enable_force_push: bool,
  enable_force_push_allowlist: bool,
  enable_merge_whitelist: bool,
  enable_push: bool,
  enable_push_whitelist: bool,
  enable_status_check: bool,
  force_push_allowlist_deploy_keys: bool,
  force_push_allowlist_teams: z.array(str),
  force_push_allowlist_usernames: z.array(str),
  ignore_stale_approvals: bool,
  merge_whitelist_teams: z.array(str),
  merge_whitelist_usernames: z.array(str),
  priority: int,
  protected_file_patterns: str,
  push_whitelist_deploy_keys: bool,
  push_whitelist_teams: z.array(str),
  push_whitelist_usernames: z.array(str),
  require_signed_commits: bool,
  required_approvals: int,
  rule_name: str,
  status_check_contexts: z.array(str),
  unprotected_file_patterns: str,
  updated_at: dateTime,
}).partial();
export const CommitStatus = z.object({
  context: str,
  created_at: dateTime,
  creator: User.nullable(),
  description: str,
  id: int,
  status: z.enum(['pending','success','error','failure','warning','skipped']),
  target_url: str,
  updated_at: dateTime,
  url: str,
}).partial();
export const CombinedStatus = z.object({
  commit_url: str,
  repository: Repository,
  sha: str,
  state: z.enum(['pending','success','error','failure','warning','skipped']),
  statuses: z.array(CommitStatus),
  total_count: int,
  url: str,
}).partial();
export const CommitMeta = z.object({
  created: dateTime,
  sha: str,
  url: str,
}).partial();
export const RepoCommit = z.object({
  author: CommitUser,
  committer: CommitUser,
  message: str,
  tree: CommitMeta,
  url: str,
  verification: PayloadCommitVerification.nullable(),
}).partial();
export const CommitAffectedFiles = z.object({
  filename: str,
  status: str,
}).partial();
export const CommitStats = z.object({
  additions: int,
  deletions: int,
  total: int,
}).partial();
export const Commit = z.object({
  author: User.nullable(),
  commit: RepoCommit,
  committer: User.nullable(),
  created: dateTime,
  files: z.array(CommitAffectedFiles).nullable(),
  html_url: str,
  parents: z.array(CommitMeta),
  sha: str,
  stats: CommitStats.nullable(),
  url: str,
}).partial();
export const Compare = z.object({
  commits: z.array(Commit),
  total_commits: int,
}).partial();
export const FileLinksResponse = z.object({
  git: str.nullable(),
  html: str.nullable(),
  self: str,
}).partial();
export const ContentsResponse = z.object({
  _links: FileLinksResponse,
  content: str.nullable(),
  download_url: str.nullable(),
  encoding: str.nullable(),
  git_url: str.nullable(),
  html_url: str.nullable(),
  last_author_date: dateTime,
  last_commit_message: str,
  last_commit_sha: str,
  last_committer_date: dateTime,
  lfs_oid: str,
  lfs_size: int,
  name: str,
  path: str,
  sha: str,
  size: int,
  submodule_git_url: str.nullable(),
  target: str.nullable(),
  type: str,
  url: str,
}).partial();
export const ContentsExtResponse = z.object({
  dir_contents: z.array(ContentsResponse),
  file_contents: ContentsResponse,
}).partial();
export const FileCommitResponse = z.object({
  author: CommitUser,
  committer: CommitUser,
  created: dateTime,
  html_url: str,
  message: str,
  parents: z.array(CommitMeta),
  sha: str,
  tree: CommitMeta,
  url: str,
}).partial();
export const FileDeleteResponse = z.object({
  commit: FileCommitResponse,
  content: z.unknown(),
  verification: PayloadCommitVerification,
}).partial();
export const FileResponse = z.object({
  commit: FileCommitResponse,
  content: ContentsResponse.nullable(),
  verification: PayloadCommitVerification,
}).partial();
export const FilesResponse = z.object({
  commit: FileCommitResponse,
  files: z.array(ContentsResponse.nullable()),
  verification: PayloadCommitVerification,
}).partial();
export const GitBlobResponse = z.object({
  content: str,
  encoding: str,
  lfs_oid: str,
  lfs_size: int,
  sha: str,
  size: int,
  url: str,
}).partial();
export const GitEntry = z.object({
  mode: str,
  path: str,
  sha: str,
  size: int,
  type: str,
  url: str,
}).partial();
export const GitHook = z.object({
  content: str,
  is_active: bool,
  name: str,
}).partial();
export const GitObject = z.object({
  sha: str,
  type: str,
  url: str,
}).partial();
export const GitTreeResponse = z.object({
  page: int,
  sha: str,
  total_count: int,
  tree: z.array(GitEntry),
  truncated: bool,
  url: str,
}).partial();
export const Note = z.object({
  commit: Commit,
  message: str,
}).partial();
export const Reference = z.object({
  object: GitObject,
  ref: str,
  url: str,
}).partial();
export const Tag = z.object({
  commit: CommitMeta,
  id: str,
  message: str,
  name: str,
  tarball_url: str,
  zipball_url: str,
}).partial();
export const TagProtection = z.object({
  created_at: dateTime,
  id: int,
  name_pattern: str,
  updated_at: dateTime,
  whitelist_teams: z.array(str),
  whitelist_usernames: z.array(str),
}).partial();
export const WikiCommit = z.object({
  author: CommitUser,
  commiter: CommitUser,
  message: str,
  sha: str,
}).partial();
export const WikiCommitList = z.object({
  commits: z.array(WikiCommit),
  count: int,
}).partial();
export const WikiPage = z.object({
  commit_count: int,
  content_base64: str,
  footer: str,
  html_url: str,
  last_commit: WikiCommit.nullable(),
  sidebar: str,
  sub_url: str,
  title: str,
}).partial();
export const WikiPageMetaData = z.object({
  html_url: str,
  last_commit: WikiCommit.nullable(),
  sub_url: str,
  title: str,
}).partial();
