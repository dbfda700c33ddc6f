import { assignUser, basicAuthOnly, scope, selfOrAdmin, signedIn, siteAdmin } from '../../middleware/guards';
import { del, get, patch, post, type ApiRoute } from '../../table';
import * as admin from './admin-users';
import * as emails from './emails';
import * as misc from './misc';
import * as repos from './repos';
import { assignRepo, reqRepoAdmin, reqRepoOwner, reqRepoReader } from '../../middleware/repo-guards';
import * as tokens from './tokens';
import * as users from './users';

// The route table: every API route with its guard chain, in order: sign-in, token scope,
// assignment of the path's objects, permission, then the handler.
export const apiRoutes: ApiRoute[] = [
  get('/version', ['miscellaneous', 'getVersion', 'Returns the version of the server'], misc.getVersion),
  get('/settings/api', ['settings', 'getGeneralAPISettings', 'Get instance\'s global settings for api'], misc.getSettings('api')),
  get('/settings/attachment', ['settings', 'getGeneralAttachmentSettings', 'Get instance\'s global settings for Attachment'], misc.getSettings('attachment')),
  get('/settings/repository', ['settings', 'getGeneralRepositorySettings', 'Get instance\'s global settings for repositories'], misc.getSettings('repository')),
  get('/settings/ui', ['settings', 'getGeneralUISettings', 'Get instance\'s global settings for ui'], misc.getSettings('ui')),

  get('/user', ['user', 'userGetCurrent', 'Get the authenticated user'], signedIn, scope('user'), users.getCurrent),
  get('/user/settings', ['user', 'getUserSettings', 'Get user settings'], signedIn, scope('user'), users.getSettings),
  patch('/user/settings', ['user', 'updateUserSettings', 'Update user settings'], signedIn, scope('user'), users.patchSettings),
  get('/user/emails', ['user', 'userListEmails', 'List the authenticated user\'s email addresses'], signedIn, scope('user'), emails.list),
  post('/user/emails', ['user', 'userAddEmail', 'Add email addresses'], signedIn, scope('user'), emails.add),
  del('/user/emails', ['user', 'userDeleteEmail', 'Delete email addresses'], signedIn, scope('user'), emails.remove),

  get('/users/search', ['user', 'userSearch', 'Search for users'], scope('user'), users.search),
  get('/users/{username}', ['user', 'userGet', 'Get a user'], scope('user'), assignUser, users.getUser),
  get('/users/{username}/tokens', ['user', 'userGetTokens', 'List the authenticated user\'s access tokens'], basicAuthOnly, scope('user'), assignUser, selfOrAdmin, tokens.list),
  post('/users/{username}/tokens', ['user', 'userCreateToken', 'Create an access token'], basicAuthOnly, scope('user'), assignUser, selfOrAdmin, tokens.create),
  del('/users/{username}/tokens/{token}', ['user', 'userDeleteAccessToken', 'delete an access token'], basicAuthOnly, scope('user'), assignUser, selfOrAdmin, tokens.remove),

  get('/admin/users', ['admin', 'adminSearchUsers', 'Search users according filter conditions'], signedIn, scope('admin'), siteAdmin, admin.list),
  post('/admin/users', ['admin', 'adminCreateUser', 'Create a user'], signedIn, scope('admin'), siteAdmin, admin.create),
  patch('/admin/users/{username}', ['admin', 'adminEditUser', 'Edit an existing user'], signedIn, scope('admin'), siteAdmin, assignUser, admin.edit),
  del('/admin/users/{username}', ['admin', 'adminDeleteUser', 'Delete a user'], signedIn, scope('admin'), siteAdmin, assignUser, admin.remove),
  post('/admin/users/{username}/rename', ['admin', 'adminRenameUser', 'Rename a user'], signedIn, scope('admin'), siteAdmin, assignUser, admin.rename),
  get('/admin/emails', ['admin', 'adminGetAllEmails', 'List all emails'], signedIn, scope('admin'), siteAdmin, emails.searchAll),
  post('/admin/users/{username}/repos', ['admin', 'adminCreateRepo', 'Create a repository on behalf of a user'], signedIn, scope('admin'), siteAdmin, assignUser, repos.createForUser),
  get('/admin/emails/search', ['admin', 'adminSearchEmails', 'Search all emails'], signedIn, scope('admin'), siteAdmin, emails.searchAll),

  // Repositories
  get('/user/repos', ['user', 'userCurrentListRepos', 'List the repos that the authenticated user owns'], signedIn, scope('repository'), repos.listMine),
  post('/user/repos', ['repository', 'createCurrentUserRepo', 'Create a repository'], signedIn, scope('repository'), repos.createForDoer),
  get('/users/{username}/repos', ['user', 'userListRepos', 'List the repos owned by the given user'], scope('repository'), assignUser, repos.listOfUser),
  get('/repos/search', ['repository', 'repoSearch', 'Search for repositories'], scope('repository'), repos.search),
  get('/repositories/{id}', ['repository', 'repoGetByID', 'Get a repository by id'], scope('repository'), repos.getById),
  get('/repos/{owner}/{repo}', ['repository', 'repoGet', 'Get a repository'], scope('repository'), assignRepo, reqRepoReader, repos.get),
  patch('/repos/{owner}/{repo}', ['repository', 'repoEdit', 'Edit a repository\'s properties. Only fields that are set will be changed.'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, repos.edit),
  del('/repos/{owner}/{repo}', ['repository', 'repoDelete', 'Delete a repository'], signedIn, scope('repository'), assignRepo, reqRepoOwner, repos.remove),

  // -- section: contents (contents, file-contents, raw, media, diffpatch, editorconfig) --
  // -- end: contents --

  // -- section: git data and commits (git/*, commits, statuses, compare, archive) --
  // -- end: git data and commits --

  // -- section: branches, tags and protections --
  // -- end: branches, tags and protections --

  // -- section: collaborators, stars, watchers, topics, languages, forks, transfer, generate --
  // -- end: collaborators ... --

  // -- section: templates (gitignore, licenses, label templates) --
  // -- end: templates --
];
