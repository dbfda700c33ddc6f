import type { RequestHandler } from 'express';
import type { ScopeCategory } from '../../../lib/scopes';
import { assignUser, basicAuthOnly, scope, selfOrAdmin, signedIn, siteAdmin } from '../../middleware/guards';
import { numericId, numericIndex } from '../../middleware/issue-guards';
import { assignOrg, reqOrgMember, reqOrgOwner } from '../../middleware/org-guards';
import {
  assignRepo, notArchived, reqCodeReader, reqCodeWriter, reqRepoAdmin, reqRepoOwner, reqRepoReader, reqRepoWriter,
} from '../../middleware/repo-guards';

// Who may call what: the guard chains the API's route groups carry, each in the order it runs:
// sign-in, the token's scope, the objects of the path, the caller's permission on them, then
// their state (an archived repository refuses writes). A repository is resolved before the
// sign-in check, as Gitea's repoAssignment runs before reqToken: an anonymous write to a
// private repository is a 404 (it cannot be seen), to a public one a 401. An area's own checks (a unit switched
// off, say) follow in its rows.

export type Guards = readonly RequestHandler[];

/** A repository's routes, below this prefix. */
export const R = '/repos/{owner}/{repo}';

export const anyone: Guards = [];
/** Signed in, whatever the token's scope (rendering markdown). */
export const signedInOnly: Guards = [signedIn];

export const userScope: Guards = [scope('user')];
/** The `{username}` of the path, visible to the caller. */
export const userVisitors: Guards = [scope('user'), assignUser];
export const currentUser: Guards = [signedIn, scope('user')];
/** The caller's own organizations and teams: a token with user or organization scope. */
export const currentUserOrgs: Guards = [signedIn, scope('user', 'organization')];
/** Access tokens are listed and made with a password only, by their owner or a site admin. */
export const tokenOwners: Guards = [basicAuthOnly, scope('user'), assignUser, selfOrAdmin];

export const siteAdmins: Guards = [signedIn, scope('admin'), siteAdmin];
export const siteAdminsOnUser: Guards = [...siteAdmins, assignUser];

export const repoScope: Guards = [scope('repository')];
export const issueScope: Guards = [scope('issue')];
export const currentUserRepos: Guards = [signedIn, scope('repository')];
/** The repository of the path, visible to the caller; each route checks what it needs. */
export const repoVisitors = (c: ScopeCategory = 'repository'): Guards => [scope(c), assignRepo];
export const repoSignedVisitors = (c: ScopeCategory = 'repository'): Guards => [scope(c), assignRepo, signedIn];
export const repoReaders = (c: ScopeCategory = 'repository'): Guards => [scope(c), assignRepo, reqRepoReader];
export const repoSignedReaders = (c: ScopeCategory = 'repository'): Guards => [scope(c), assignRepo, signedIn, reqRepoReader];
/** Readers who write: Gitea lets anyone who can read an issue comment on it, react, subscribe. */
export const repoParticipants = (c: ScopeCategory = 'repository'): Guards => [...repoSignedReaders(c), notArchived];
export const repoWriters = (c: ScopeCategory = 'repository'): Guards => [scope(c), assignRepo, signedIn, reqRepoWriter, notArchived];
export const repoAdmins = (c: ScopeCategory = 'repository'): Guards => [scope(c), assignRepo, signedIn, reqRepoAdmin];
export const repoOwners: Guards = [scope('repository'), assignRepo, signedIn, reqRepoOwner];
/** Code routes (contents, git data, commits, branches, tags) ask for the code unit. */
export const codeReaders: Guards = [scope('repository'), assignRepo, reqCodeReader];
export const codeWriters: Guards = [scope('repository'), assignRepo, signedIn, reqCodeWriter, notArchived];

export const orgScope: Guards = [scope('organization')];
export const orgSignedIn: Guards = [signedIn, scope('organization')];
export const orgVisitors: Guards = [scope('organization'), assignOrg];
export const orgSignedVisitors: Guards = [signedIn, scope('organization'), assignOrg];
export const orgOwners: Guards = [signedIn, scope('organization'), assignOrg, reqOrgOwner];
export const orgMembers: Guards = [signedIn, scope('organization'), assignOrg, reqOrgMember];

export const currentUserNotifications: Guards = [signedIn, scope('notification')];

/**
 * `{index}` / `{id}` must be numbers before anything else runs: other text falls through to
 * the routes after (`/issues/pinned`), not to a guard's 401 or 404.
 */
export const byIndex = (guards: Guards): Guards => [numericIndex, ...guards];
export const byId = (guards: Guards): Guards => [numericId, ...guards];

