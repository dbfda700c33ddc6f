import { assignUser, basicAuthOnly, scope, selfOrAdmin, signedIn, siteAdmin } from '../../middleware/guards';
import { del, get, patch, post, put, type ApiRoute } from '../../table';
import * as admin from './admin-users';
import * as branches from './branches';
import * as tags from './tags';
import * as emails from './emails';
import * as collaborators from './collaborators';
import * as forks from './forks';
import * as misc from './misc';
import * as repos from './repos';
import * as stars from './stars';
import * as topics from './topics';
import * as transfer from './transfer';
import { assignRepo, notArchived, reqRepoAdmin, reqRepoOwner, reqRepoReader, reqRepoWriter } from '../../middleware/repo-guards';
import * as tokens from './tokens';
import * as users from './users';
import * as blocks from './blocks';
import * as orgLabels from './org-labels';
import * as orgMembers from './org-members';
import * as orgs from './orgs';
import { assignOrg, reqOrgMember, reqOrgOwner } from '../../middleware/org-guards';

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
  get('/repos/{owner}/{repo}/branches', ['repository', 'repoListBranches', 'List a repository\'s branches'], scope('repository'), assignRepo, reqRepoReader, branches.list),
  post('/repos/{owner}/{repo}/branches', ['repository', 'repoCreateBranch', 'Create a branch'], signedIn, scope('repository'), assignRepo, reqRepoWriter, notArchived, branches.create),
  get('/repos/{owner}/{repo}/branches/{branch}', ['repository', 'repoGetBranch', 'Retrieve a specific branch from a repository, including its effective branch protection'], scope('repository'), assignRepo, reqRepoReader, branches.get),
  del('/repos/{owner}/{repo}/branches/{branch}', ['repository', 'repoDeleteBranch', 'Delete a specific branch from a repository'], signedIn, scope('repository'), assignRepo, reqRepoWriter, notArchived, branches.remove),
  patch('/repos/{owner}/{repo}/branches/{branch}', ['repository', 'repoRenameBranch', 'Rename a branch'], signedIn, scope('repository'), assignRepo, reqRepoWriter, notArchived, branches.rename),
  get('/repos/{owner}/{repo}/branch_protections', ['repository', 'repoListBranchProtection', 'List branch protections for a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, branches.listProtections),
  post('/repos/{owner}/{repo}/branch_protections', ['repository', 'repoCreateBranchProtection', 'Create a branch protections for a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, branches.createProtection),
  post('/repos/{owner}/{repo}/branch_protections/priority', ['repository', 'repoUpdateBranchProtectionPriories', 'Update the priorities of branch protections for a repository.'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, branches.setPriorities),
  get('/repos/{owner}/{repo}/branch_protections/{name}', ['repository', 'repoGetBranchProtection', 'Get a specific branch protection for the repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, branches.getProtection),
  patch('/repos/{owner}/{repo}/branch_protections/{name}', ['repository', 'repoEditBranchProtection', 'Edit a branch protections for a repository. Only fields that are set will be changed'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, branches.editProtection),
  del('/repos/{owner}/{repo}/branch_protections/{name}', ['repository', 'repoDeleteBranchProtection', 'Delete a specific branch protection for the repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, branches.removeProtection),
  get('/repos/{owner}/{repo}/tags', ['repository', 'repoListTags', 'List a repository\'s tags'], scope('repository'), assignRepo, reqRepoReader, tags.list),
  post('/repos/{owner}/{repo}/tags', ['repository', 'repoCreateTag', 'Create a new git tag in a repository'], signedIn, scope('repository'), assignRepo, reqRepoWriter, notArchived, tags.create),
  get('/repos/{owner}/{repo}/tags/{tag}', ['repository', 'repoGetTag', 'Get the tag of a repository by tag name'], scope('repository'), assignRepo, reqRepoReader, tags.get),
  del('/repos/{owner}/{repo}/tags/{tag}', ['repository', 'repoDeleteTag', 'Delete a repository\'s tag by name'], signedIn, scope('repository'), assignRepo, reqRepoWriter, notArchived, tags.remove),
  get('/repos/{owner}/{repo}/tag_protections', ['repository', 'repoListTagProtection', 'List tag protections for a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, tags.listProtections),
  post('/repos/{owner}/{repo}/tag_protections', ['repository', 'repoCreateTagProtection', 'Create a tag protections for a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, tags.createProtection),
  get('/repos/{owner}/{repo}/tag_protections/{id}', ['repository', 'repoGetTagProtection', 'Get a specific tag protection for the repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, tags.getProtection),
  patch('/repos/{owner}/{repo}/tag_protections/{id}', ['repository', 'repoEditTagProtection', 'Edit a tag protections for a repository. Only fields that are set will be changed'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, tags.editProtection),
  del('/repos/{owner}/{repo}/tag_protections/{id}', ['repository', 'repoDeleteTagProtection', 'Delete a specific tag protection for the repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, tags.removeProtection),
  // -- end: branches, tags and protections --

  // -- section: collaborators, stars, watchers, topics, languages, forks, transfer, generate --
  get('/repos/{owner}/{repo}/collaborators', ['repository', 'repoListCollaborators', 'List a repository\'s collaborators'], signedIn, scope('repository'), assignRepo, reqRepoReader, collaborators.list),
  get('/repos/{owner}/{repo}/collaborators/{collaborator}', ['repository', 'repoCheckCollaborator', 'Check if a user is a collaborator of a repository'], signedIn, scope('repository'), assignRepo, reqRepoReader, collaborators.check),
  put('/repos/{owner}/{repo}/collaborators/{collaborator}', ['repository', 'repoAddCollaborator', 'Add or Update a collaborator to a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, collaborators.add),
  del('/repos/{owner}/{repo}/collaborators/{collaborator}', ['repository', 'repoDeleteCollaborator', 'Delete a collaborator from a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, collaborators.remove),
  get('/repos/{owner}/{repo}/collaborators/{collaborator}/permission', ['repository', 'repoGetRepoPermissions', 'Get repository permissions for a user'], signedIn, scope('repository'), assignRepo, collaborators.permission),

  get('/repos/{owner}/{repo}/stargazers', ['repository', 'repoListStargazers', 'List a repo\'s stargazers'], scope('repository'), assignRepo, reqRepoReader, stars.starsEnabled, stars.stargazers),
  get('/repos/{owner}/{repo}/subscribers', ['repository', 'repoListSubscribers', 'List a repo\'s watchers'], scope('repository'), assignRepo, reqRepoReader, stars.subscribers),
  get('/repos/{owner}/{repo}/subscription', ['repository', 'userCurrentCheckSubscription', 'Check if the current user is watching a repo'], signedIn, scope('repository'), assignRepo, reqRepoReader, stars.checkSubscription),
  put('/repos/{owner}/{repo}/subscription', ['repository', 'userCurrentPutSubscription', 'Watch a repo'], signedIn, scope('repository'), assignRepo, reqRepoReader, stars.subscribe),
  del('/repos/{owner}/{repo}/subscription', ['repository', 'userCurrentDeleteSubscription', 'Unwatch a repo'], signedIn, scope('repository'), assignRepo, reqRepoReader, stars.unsubscribe),
  get('/user/starred', ['user', 'userCurrentListStarred', 'The repos that the authenticated user has starred'], signedIn, scope('repository'), stars.starsEnabled, stars.myStarred),
  get('/user/starred/{owner}/{repo}', ['user', 'userCurrentCheckStarring', 'Whether the authenticated is starring the repo'], signedIn, scope('repository'), stars.starsEnabled, assignRepo, stars.isStarring),
  put('/user/starred/{owner}/{repo}', ['user', 'userCurrentPutStar', 'Star the given repo'], signedIn, scope('repository'), stars.starsEnabled, assignRepo, stars.star(true)),
  del('/user/starred/{owner}/{repo}', ['user', 'userCurrentDeleteStar', 'Unstar the given repo'], signedIn, scope('repository'), stars.starsEnabled, assignRepo, stars.star(false)),
  get('/users/{username}/starred', ['user', 'userListStarred', 'The repos that the given user has starred'], scope('user'), assignUser, stars.starsEnabled, stars.userStarred),
  get('/user/subscriptions', ['user', 'userCurrentListSubscriptions', 'List repositories watched by the authenticated user'], signedIn, scope('user'), stars.mySubscriptions),
  get('/users/{username}/subscriptions', ['user', 'userListSubscriptions', 'List the repositories watched by a user'], scope('user'), assignUser, stars.userSubscriptions),

  get('/repos/{owner}/{repo}/topics', ['repository', 'repoListTopics', 'Get list of topics that a repository has'], scope('repository'), assignRepo, reqRepoReader, topics.list),
  put('/repos/{owner}/{repo}/topics', ['repository', 'repoUpdateTopics', 'Replace list of topics for a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, topics.replace),
  put('/repos/{owner}/{repo}/topics/{topic}', ['repository', 'repoAddTopic', 'Add a topic to a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, topics.add),
  del('/repos/{owner}/{repo}/topics/{topic}', ['repository', 'repoDeleteTopic', 'Delete a topic from a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, topics.remove),
  get('/topics/search', ['repository', 'topicSearch', 'search topics via keyword'], scope('repository'), topics.search),
  get('/repos/{owner}/{repo}/languages', ['repository', 'repoGetLanguages', 'Get languages and number of bytes of code written'], scope('repository'), assignRepo, reqRepoReader, topics.languages),

  get('/repos/{owner}/{repo}/forks', ['repository', 'listForks', 'List a repository\'s forks'], scope('repository'), assignRepo, reqRepoReader, forks.list),
  post('/repos/{owner}/{repo}/forks', ['repository', 'createFork', 'Fork a repository'], signedIn, scope('repository'), assignRepo, reqRepoReader, forks.create),
  post('/repos/{owner}/{repo}/transfer', ['repository', 'repoTransfer', 'Transfer a repo ownership'], signedIn, scope('repository'), assignRepo, reqRepoOwner, transfer.start),
  post('/repos/{owner}/{repo}/transfer/accept', ['repository', 'acceptRepoTransfer', 'Accept a repo transfer'], signedIn, scope('repository'), assignRepo, transfer.accept),
  post('/repos/{owner}/{repo}/transfer/reject', ['repository', 'rejectRepoTransfer', 'Reject a repo transfer'], signedIn, scope('repository'), assignRepo, transfer.reject),
  post('/repos/{template_owner}/{template_repo}/generate', ['repository', 'generateRepo', 'Create a repository using a template'], signedIn, scope('repository'), forks.templateAsRepo, assignRepo, reqRepoReader, forks.generate),
  // -- end: collaborators ... --

  // -- section: templates (gitignore, licenses, label templates) --
  // -- end: templates --

  // -- section: organizations --
  get('/orgs', ['organization', 'orgGetAll', 'Get list of organizations'], scope('organization'), orgs.list),
  post('/orgs', ['organization', 'orgCreate', 'Create an organization'], signedIn, scope('organization'), orgs.create),
  get('/user/orgs', ['organization', 'orgListCurrentUserOrgs', 'List the current user\'s organizations'], signedIn, scope('user', 'organization'), orgs.listMine),
  get('/users/{username}/orgs', ['organization', 'orgListUserOrgs', 'List a user\'s organizations'], signedIn, scope('user', 'organization'), assignUser, orgs.listOfUser),
  get('/users/{username}/orgs/{org}/permissions', ['organization', 'orgGetUserPermissions', 'Get user permissions in organization'], signedIn, scope('user', 'organization'), assignUser, orgs.permissions),
  get('/admin/orgs', ['admin', 'adminGetAllOrgs', 'List all organizations'], signedIn, scope('admin'), siteAdmin, orgs.adminList),
  post('/admin/users/{username}/orgs', ['admin', 'adminCreateOrg', 'Create an organization'], signedIn, scope('admin'), siteAdmin, assignUser, orgs.adminCreate),
  get('/orgs/{org}', ['organization', 'orgGet', 'Get an organization'], scope('organization'), assignOrg, orgs.get),
  patch('/orgs/{org}', ['organization', 'orgEdit', 'Edit an organization'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgs.edit),
  del('/orgs/{org}', ['organization', 'orgDelete', 'Delete an organization'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgs.remove),
  post('/orgs/{org}/rename', ['organization', 'renameOrg', 'Rename an organization'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgs.rename),
  post('/orgs/{org}/avatar', ['organization', 'orgUpdateAvatar', 'Update Avatar'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgs.updateAvatar),
  del('/orgs/{org}/avatar', ['organization', 'orgDeleteAvatar', 'Delete Avatar'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgs.removeAvatar),
  get('/orgs/{org}/repos', ['organization', 'orgListRepos', 'List an organization\'s repos'], scope('organization'), assignOrg, orgs.listRepos),
  post('/orgs/{org}/repos', ['organization', 'createOrgRepo', 'Create a repository in an organization'], signedIn, scope('organization'), assignOrg, orgs.createRepo),
  get('/orgs/{org}/members', ['organization', 'orgListMembers', 'List an organization\'s members'], signedIn, scope('organization'), assignOrg, orgMembers.list),
  get('/orgs/{org}/members/{username}', ['organization', 'orgIsMember', 'Check if a user is a member of an organization'], signedIn, scope('organization'), assignOrg, orgMembers.check),
  del('/orgs/{org}/members/{username}', ['organization', 'orgDeleteMember', 'Remove a member from an organization'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgMembers.remove),
  get('/orgs/{org}/public_members', ['organization', 'orgListPublicMembers', 'List an organization\'s public members'], scope('organization'), assignOrg, orgMembers.listPublic),
  get('/orgs/{org}/public_members/{username}', ['organization', 'orgIsPublicMember', 'Check if a user is a public member of an organization'], scope('organization'), assignOrg, orgMembers.checkPublic),
  put('/orgs/{org}/public_members/{username}', ['organization', 'orgPublicizeMember', 'Publicize a user\'s membership'], signedIn, scope('organization'), assignOrg, reqOrgMember, orgMembers.publicize),
  del('/orgs/{org}/public_members/{username}', ['organization', 'orgConcealMember', 'Conceal a user\'s membership'], signedIn, scope('organization'), assignOrg, reqOrgMember, orgMembers.conceal),
  get('/orgs/{org}/blocks', ['organization', 'organizationListBlocks', 'List users blocked by the organization'], signedIn, scope('organization'), assignOrg, reqOrgOwner, blocks.org.list),
  get('/orgs/{org}/blocks/{username}', ['organization', 'organizationCheckUserBlock', 'Check if a user is blocked by the organization'], signedIn, scope('organization'), assignOrg, reqOrgOwner, blocks.org.check),
  put('/orgs/{org}/blocks/{username}', ['organization', 'organizationBlockUser', 'Block a user'], signedIn, scope('organization'), assignOrg, reqOrgOwner, blocks.org.block),
  del('/orgs/{org}/blocks/{username}', ['organization', 'organizationUnblockUser', 'Unblock a user'], signedIn, scope('organization'), assignOrg, reqOrgOwner, blocks.org.unblock),
  get('/user/blocks', ['user', 'userListBlocks', 'List users blocked by the authenticated user'], signedIn, scope('user'), blocks.user.list),
  get('/user/blocks/{username}', ['user', 'userCheckUserBlock', 'Check if a user is blocked by the authenticated user'], signedIn, scope('user'), blocks.user.check),
  put('/user/blocks/{username}', ['user', 'userBlockUser', 'Block a user'], signedIn, scope('user'), blocks.user.block),
  del('/user/blocks/{username}', ['user', 'userUnblockUser', 'Unblock a user'], signedIn, scope('user'), blocks.user.unblock),
  get('/orgs/{org}/labels', ['organization', 'orgListLabels', 'List an organization\'s labels'], scope('organization'), assignOrg, orgLabels.list),
  post('/orgs/{org}/labels', ['organization', 'orgCreateLabel', 'Create a label for an organization'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgLabels.create),
  get('/orgs/{org}/labels/{id}', ['organization', 'orgGetLabel', 'Get a single label'], signedIn, scope('organization'), assignOrg, orgLabels.get),
  patch('/orgs/{org}/labels/{id}', ['organization', 'orgEditLabel', 'Update a label'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgLabels.edit),
  del('/orgs/{org}/labels/{id}', ['organization', 'orgDeleteLabel', 'Delete a label'], signedIn, scope('organization'), assignOrg, reqOrgOwner, orgLabels.remove),
  // -- end: organizations --
];
