import { assignUser, basicAuthOnly, scope, selfOrAdmin, signedIn, siteAdmin } from '../../middleware/guards';
import { del, get, patch, post, put, type ApiRoute } from '../../table';
import * as admin from './admin-users';
import * as branches from './branches';
import * as commits from './commits';
import * as gitData from './git-data';
import * as tags from './tags';
import * as emails from './emails';
import * as collaborators from './collaborators';
import * as forks from './forks';
import * as mergeUpstream from './merge-upstream';
import * as misc from './misc';
import * as signing from './signing';
import * as federation from './federation';
import * as repos from './repos';
import * as migrate from './migrate';
import * as stars from './stars';
import * as topics from './topics';
import * as transfer from './transfer';
import { assignRepo, notArchived, reqCodeReader, reqCodeWriter, reqRepoAdmin, reqRepoOwner, reqRepoReader, reqRepoWriter } from '../../middleware/repo-guards';
import * as templates from './templates';
import * as tokens from './tokens';
import * as users from './users';
import * as blocks from './blocks';
import * as orgLabels from './org-labels';
import * as orgMembers from './org-members';
import * as orgs from './orgs';
import { assignOrg, reqOrgMember, reqOrgOwner } from '../../middleware/org-guards';
import * as markdown from './markdown';
import * as contents from './contents';
import * as repoLicenses from './repo-licenses';
import * as wiki from './wiki';
import * as issueTemplates from './issue-templates';
import * as attachments from './attachments';
import * as reactions from './reactions';
import * as teams from './teams';
import * as activity from './activity';
import * as follows from './follows';
import * as gpgKeys from './gpg-keys';
import * as keys from './keys';
import * as issues from './issues';
import * as pulls from './pulls';
import * as issueComments from './comments';
import * as labels from './labels';
import * as milestones from './milestones';
import * as releases from './releases';
import { numericId, numericIndex } from '../../middleware/issue-guards';
import * as issueDeps from './issue-dependencies';
import * as issuePins from './issue-pins';
import * as issueTimes from './issue-times';
import * as issueSubs from './issue-subscriptions';
import * as issueTimeline from './issue-timeline';
import * as notifications from './notifications';
import * as cron from './cron';
import * as auditLogs from './audit-logs';
import * as dependencyAlerts from './dependency-alerts';
import { describe } from '../../table';
import * as hooks from './hooks';
import * as packages from './packages';
import * as deliveries from './hook-deliveries';
import * as pushMirrors from './push-mirrors';
import * as deployKeys from './deploy-keys';
import { actionsRoutes } from './actions-routes';
import * as avatars from './avatars';
import * as oauth2Apps from './oauth2-apps';
import * as adminUnadopted from './admin-unadopted';
import * as adminBadges from './admin-badges';

// The route table: every API route with its guard chain, in order: sign-in, token scope,
// assignment of the path's objects, permission, then the handler.
export const apiRoutes: ApiRoute[] = [
  get('/version', ['miscellaneous', 'getVersion', 'Returns the version of the server'], misc.getVersion),
  get('/signing-key.gpg', ['miscellaneous', 'getSigningKey', 'Get default signing-key.gpg'], signing.signingKeyGpg),
  get('/signing-key.pub', ['miscellaneous', 'getSigningKeySSH', 'Get default signing-key.pub'], signing.signingKeySsh),
  get('/nodeinfo', ['miscellaneous', 'getNodeInfo', 'Returns the nodeinfo of the Gitea application'], federation.federationOn, federation.getNodeInfo),
  get('/activitypub/user-id/{user-id}', ['activitypub', 'activitypubPerson', 'Returns the Person actor for a user'], federation.federationOn, federation.getPerson),
  post('/activitypub/user-id/{user-id}/inbox', ['activitypub', 'activitypubPersonInbox', 'Send to the inbox'], federation.federationOn, federation.postInbox),
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
  post('/user/avatar', ['user', 'userUpdateAvatar', 'Update Avatar'], signedIn, scope('user'), avatars.updateUserAvatar),
  del('/user/avatar', ['user', 'userDeleteAvatar', 'Delete Avatar'], signedIn, scope('user'), avatars.deleteUserAvatar),
  get('/user/applications/oauth2', ['user', 'userGetOauth2Application', 'List the authenticated user\'s oauth2 applications'], signedIn, scope('user'), oauth2Apps.list),
  post('/user/applications/oauth2', ['user', 'userCreateOAuth2Application', 'creates a new OAuth2 application'], signedIn, scope('user'), oauth2Apps.create),
  get('/user/applications/oauth2/{id}', ['user', 'userGetOAuth2Application', 'get an OAuth2 Application'], numericId, signedIn, scope('user'), oauth2Apps.get),
  patch('/user/applications/oauth2/{id}', ['user', 'userUpdateOAuth2Application', 'update an OAuth2 Application, this includes regenerating the client secret'], numericId, signedIn, scope('user'), oauth2Apps.update),
  del('/user/applications/oauth2/{id}', ['user', 'userDeleteOAuth2Application', 'delete an OAuth2 Application'], numericId, signedIn, scope('user'), oauth2Apps.remove),

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
  get('/admin/unadopted', ['admin', 'adminUnadoptedList', 'List unadopted repositories'], signedIn, scope('admin'), siteAdmin, adminUnadopted.listUnadoptedRepos),
  post('/admin/unadopted/{owner}/{repo}', ['admin', 'adminAdoptRepository', 'Adopt unadopted files as a repository'], signedIn, scope('admin'), siteAdmin, adminUnadopted.adopt),
  del('/admin/unadopted/{owner}/{repo}', ['admin', 'adminDeleteUnadoptedRepository', 'Delete unadopted files'], signedIn, scope('admin'), siteAdmin, adminUnadopted.removeUnadopted),
  get('/admin/users/{username}/badges', ['admin', 'adminListUserBadges', 'List a user\'s badges'], signedIn, scope('admin'), siteAdmin, assignUser, adminBadges.listBadges),
  post('/admin/users/{username}/badges', ['admin', 'adminAddUserBadges', 'Add a badge to a user'], signedIn, scope('admin'), siteAdmin, assignUser, adminBadges.addBadges),
  del('/admin/users/{username}/badges', ['admin', 'adminDeleteUserBadges', 'Remove a badge from a user'], signedIn, scope('admin'), siteAdmin, assignUser, adminBadges.removeBadges),
  get('/admin/cron', ['admin', 'adminCronList', 'List cron tasks'], signedIn, scope('admin'), siteAdmin, cron.list),
  post('/admin/cron/{task}', ['admin', 'adminCronRun', 'Run cron task'], signedIn, scope('admin'), siteAdmin, cron.run),
  describe(get('/admin/audit-logs', ['admin', 'adminListAuditLogs', 'List the audit log, newest first (hearth extension)', 'extension'], signedIn, scope('admin'), siteAdmin, auditLogs.list), auditLogs.AUDIT_DESCRIPTION),
  describe(get('/admin/audit-logs/export', ['admin', 'adminExportAuditLogs', 'Export the audit log as CSV (hearth extension)', 'extension'], signedIn, scope('admin'), siteAdmin, auditLogs.exportCsv), auditLogs.AUDIT_DESCRIPTION),

  // Repositories
  get('/user/repos', ['user', 'userCurrentListRepos', 'List the repos that the authenticated user owns'], signedIn, scope('repository'), repos.listMine),
  post('/user/repos', ['repository', 'createCurrentUserRepo', 'Create a repository'], signedIn, scope('repository'), repos.createForDoer),
  get('/users/{username}/repos', ['user', 'userListRepos', 'List the repos owned by the given user'], scope('repository'), assignUser, repos.listOfUser),
  get('/repos/search', ['repository', 'repoSearch', 'Search for repositories'], scope('repository'), repos.search),
  post('/repos/migrate', ['repository', 'repoMigrate', 'Migrate a remote git repository'], signedIn, scope('repository'), migrate.migrate),
  get('/repositories/{id}', ['repository', 'repoGetByID', 'Get a repository by id'], scope('repository'), repos.getById),
  get('/repos/{owner}/{repo}', ['repository', 'repoGet', 'Get a repository'], scope('repository'), assignRepo, reqRepoReader, repos.get),
  patch('/repos/{owner}/{repo}', ['repository', 'repoEdit', 'Edit a repository\'s properties. Only fields that are set will be changed.'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, repos.edit),
  del('/repos/{owner}/{repo}', ['repository', 'repoDelete', 'Delete a repository'], signedIn, scope('repository'), assignRepo, reqRepoOwner, repos.remove),
  post('/repos/{owner}/{repo}/avatar', ['repository', 'repoUpdateAvatar', 'Update avatar'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, avatars.updateRepoAvatar),
  del('/repos/{owner}/{repo}/avatar', ['repository', 'repoDeleteAvatar', 'Delete avatar'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, avatars.deleteRepoAvatarHandler),

  // -- section: contents (contents, file-contents, raw, media, diffpatch, editorconfig) --
  get('/repos/{owner}/{repo}/contents', ['repository', 'repoGetContentsList', 'Gets the metadata of all the entries of the root dir'], scope('repository'), assignRepo, reqCodeReader, contents.get),
  post('/repos/{owner}/{repo}/contents', ['repository', 'repoChangeFiles', 'Modify multiple files in a repository'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, contents.changeMany),
  get('/repos/{owner}/{repo}/contents/{filepath}', ['repository', 'repoGetContents', 'Gets the metadata and contents (if a file) of an entry in a repository, or a list of entries if a dir'], scope('repository'), assignRepo, reqCodeReader, contents.get),
  post('/repos/{owner}/{repo}/contents/{filepath}', ['repository', 'repoCreateFile', 'Create a file in a repository'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, contents.create),
  put('/repos/{owner}/{repo}/contents/{filepath}', ['repository', 'repoUpdateFile', 'Update a file in a repository'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, contents.update),
  del('/repos/{owner}/{repo}/contents/{filepath}', ['repository', 'repoDeleteFile', 'Delete a file in a repository'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, contents.remove),
  get('/repos/{owner}/{repo}/contents-ext/{filepath}', ['repository', 'repoGetContentsExt', 'The extended "contents" API, to get file metadata and/or content, or list a directory.'], scope('repository'), assignRepo, reqCodeReader, contents.getExt),
  get('/repos/{owner}/{repo}/file-contents', ['repository', 'repoGetFileContents', 'Get the metadata and contents of requested files'], scope('repository'), assignRepo, reqCodeReader, contents.fileContentsGet),
  post('/repos/{owner}/{repo}/file-contents', ['repository', 'repoGetFileContentsPost', 'Get the metadata and contents of requested files'], scope('repository'), assignRepo, reqCodeReader, contents.fileContentsPost),
  get('/repos/{owner}/{repo}/raw/{filepath}', ['repository', 'repoGetRawFile', 'Get a file from a repository'], scope('repository'), assignRepo, reqCodeReader, contents.raw),
  get('/repos/{owner}/{repo}/media/{filepath}', ['repository', 'repoGetRawFileOrLFS', 'Get a file or it\'s LFS object from a repository'], scope('repository'), assignRepo, reqCodeReader, contents.media),
  post('/repos/{owner}/{repo}/diffpatch', ['repository', 'repoApplyDiffPatch', 'Apply diff patch to repository'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, contents.diffPatch),
  get('/repos/{owner}/{repo}/editorconfig/{filepath}', ['repository', 'repoGetEditorConfig', 'Get the EditorConfig definitions of a file in a repository'], scope('repository'), assignRepo, reqCodeReader, contents.editorconfig),
  // -- end: contents --
  // -- section: wiki --
  get('/repos/{owner}/{repo}/wiki/pages', ['repository', 'repoGetWikiPages', 'Get all wiki pages'], scope('repository'), assignRepo, wiki.wikiEnabled, wiki.list),
  post('/repos/{owner}/{repo}/wiki/new', ['repository', 'repoCreateWikiPage', 'Create a wiki page'], signedIn, scope('repository'), assignRepo, wiki.wikiEnabled, notArchived, wiki.reqWikiWriter, wiki.create),
  get('/repos/{owner}/{repo}/wiki/page/{pageName}', ['repository', 'repoGetWikiPage', 'Get a wiki page'], scope('repository'), assignRepo, wiki.wikiEnabled, wiki.get),
  patch('/repos/{owner}/{repo}/wiki/page/{pageName}', ['repository', 'repoEditWikiPage', 'Edit a wiki page'], signedIn, scope('repository'), assignRepo, wiki.wikiEnabled, notArchived, wiki.reqWikiWriter, wiki.edit),
  del('/repos/{owner}/{repo}/wiki/page/{pageName}', ['repository', 'repoDeleteWikiPage', 'Delete a wiki page'], signedIn, scope('repository'), assignRepo, wiki.wikiEnabled, notArchived, wiki.reqWikiWriter, wiki.remove),
  get('/repos/{owner}/{repo}/wiki/revisions/{pageName}', ['repository', 'repoGetWikiPageRevisions', 'Get revisions of a wiki page'], scope('repository'), assignRepo, wiki.wikiEnabled, wiki.revisions),
  // -- end: wiki --

  // -- section: git data and commits (git/*, commits, statuses, compare, archive) --
  get('/repos/{owner}/{repo}/commits', ['repository', 'repoGetAllCommits', 'Get a list of all commits from a repository'], scope('repository'), assignRepo, reqCodeReader, commits.list),
  get('/repos/{owner}/{repo}/commits/{ref}/status', ['repository', 'repoGetCombinedStatusByRef', 'Get a commit\'s combined status, by branch/tag/commit reference'], scope('repository'), assignRepo, reqCodeReader, commits.combined),
  get('/repos/{owner}/{repo}/commits/{ref}/statuses', ['repository', 'repoListStatusesByRef', 'Get a commit\'s statuses, by branch/tag/commit reference'], scope('repository'), assignRepo, reqCodeReader, commits.listStatusesByRef),
  get('/repos/{owner}/{repo}/statuses/{sha}', ['repository', 'repoListStatuses', 'Get a commit\'s statuses'], scope('repository'), assignRepo, reqCodeReader, commits.listStatusesBySha),
  post('/repos/{owner}/{repo}/statuses/{sha}', ['repository', 'repoCreateStatus', 'Create a commit status'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, commits.createStatus),
  get('/repos/{owner}/{repo}/git/commits/{sha}.{diffType}', ['repository', 'repoDownloadCommitDiffOrPatch', 'Get a commit\'s diff or patch'], scope('repository'), assignRepo, reqCodeReader, commits.diff),
  get('/repos/{owner}/{repo}/git/commits/{sha}', ['repository', 'repoGetSingleCommit', 'Get a single commit from a repository'], scope('repository'), assignRepo, reqCodeReader, commits.get),
  // Where CombinedStatus.commit_url points (Gitea hands out that URL without serving it).
  get('/repos/{owner}/{repo}/commits/{sha}', ['repository', 'repoGetCommitByRef', 'Get a single commit (hearth extension, the target of commit_url)', 'extension'], scope('repository'), assignRepo, reqCodeReader, commits.get),
  get('/repos/{owner}/{repo}/compare/{basehead}', ['repository', 'repoCompareDiff', 'Get commit comparison information'], scope('repository'), assignRepo, reqCodeReader, commits.compare),
  get('/repos/{owner}/{repo}/git/blobs/{sha}', ['repository', 'GetBlob', 'Gets the blob of a repository.'], scope('repository'), assignRepo, reqCodeReader, gitData.blob),
  get('/repos/{owner}/{repo}/git/trees/{sha}', ['repository', 'GetTree', 'Gets the tree of a repository.'], scope('repository'), assignRepo, reqCodeReader, gitData.tree),
  get('/repos/{owner}/{repo}/git/refs', ['repository', 'repoListAllGitRefs', 'Get specified ref or filtered repository\'s refs'], scope('repository'), assignRepo, reqCodeReader, gitData.refs),
  get('/repos/{owner}/{repo}/git/refs/{ref}', ['repository', 'repoListGitRefs', 'Get specified ref or filtered repository\'s refs'], scope('repository'), assignRepo, reqCodeReader, gitData.refs),
  get('/repos/{owner}/{repo}/git/tags/{sha}', ['repository', 'GetAnnotatedTag', 'Gets the tag object of an annotated tag (not lightweight tags)'], scope('repository'), assignRepo, reqCodeReader, gitData.annotatedTag),
  get('/repos/{owner}/{repo}/git/notes/{sha}', ['repository', 'repoGetNote', 'Get a note corresponding to a single commit from a repository'], scope('repository'), assignRepo, reqCodeReader, gitData.note),
  get('/repos/{owner}/{repo}/archive/{archive}', ['repository', 'repoGetArchive', 'Get an archive of a repository'], scope('repository'), assignRepo, reqCodeReader, gitData.archive),
  // -- end: git data and commits --

  // -- section: branches, tags and protections --
  get('/repos/{owner}/{repo}/branches', ['repository', 'repoListBranches', 'List a repository\'s branches'], scope('repository'), assignRepo, reqCodeReader, branches.list),
  post('/repos/{owner}/{repo}/branches', ['repository', 'repoCreateBranch', 'Create a branch'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, branches.create),
  get('/repos/{owner}/{repo}/branches/{branch}', ['repository', 'repoGetBranch', 'Retrieve a specific branch from a repository, including its effective branch protection'], scope('repository'), assignRepo, reqCodeReader, branches.get),
  del('/repos/{owner}/{repo}/branches/{branch}', ['repository', 'repoDeleteBranch', 'Delete a specific branch from a repository'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, branches.remove),
  patch('/repos/{owner}/{repo}/branches/{branch}', ['repository', 'repoRenameBranch', 'Rename a branch'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, branches.rename),
  get('/repos/{owner}/{repo}/branch_protections', ['repository', 'repoListBranchProtection', 'List branch protections for a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, branches.listProtections),
  post('/repos/{owner}/{repo}/branch_protections', ['repository', 'repoCreateBranchProtection', 'Create a branch protections for a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, branches.createProtection),
  post('/repos/{owner}/{repo}/branch_protections/priority', ['repository', 'repoUpdateBranchProtectionPriories', 'Update the priorities of branch protections for a repository.'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, branches.setPriorities),
  get('/repos/{owner}/{repo}/branch_protections/{name}', ['repository', 'repoGetBranchProtection', 'Get a specific branch protection for the repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, branches.getProtection),
  patch('/repos/{owner}/{repo}/branch_protections/{name}', ['repository', 'repoEditBranchProtection', 'Edit a branch protections for a repository. Only fields that are set will be changed'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, branches.editProtection),
  del('/repos/{owner}/{repo}/branch_protections/{name}', ['repository', 'repoDeleteBranchProtection', 'Delete a specific branch protection for the repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, branches.removeProtection),
  get('/repos/{owner}/{repo}/tags', ['repository', 'repoListTags', 'List a repository\'s tags'], scope('repository'), assignRepo, reqCodeReader, tags.list),
  post('/repos/{owner}/{repo}/tags', ['repository', 'repoCreateTag', 'Create a new git tag in a repository'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, tags.create),
  get('/repos/{owner}/{repo}/tags/{tag}', ['repository', 'repoGetTag', 'Get the tag of a repository by tag name'], scope('repository'), assignRepo, reqCodeReader, tags.get),
  del('/repos/{owner}/{repo}/tags/{tag}', ['repository', 'repoDeleteTag', 'Delete a repository\'s tag by name'], signedIn, scope('repository'), assignRepo, reqCodeWriter, notArchived, tags.remove),
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
  get('/repos/{owner}/{repo}/languages', ['repository', 'repoGetLanguages', 'Get languages and number of bytes of code written'], scope('repository'), assignRepo, reqCodeReader, topics.languages),
  get('/repos/{owner}/{repo}/licenses', ['repository', 'repoGetLicenses', 'Get repo licenses'], scope('repository'), assignRepo, reqCodeReader, repoLicenses.list),
  get('/repos/{owner}/{repo}/signing-key.gpg', ['repository', 'repoSigningKey', 'Get signing-key.gpg for given repository'], scope('repository'), assignRepo, signing.signingKeyGpg),
  get('/repos/{owner}/{repo}/signing-key.pub', ['repository', 'repoSigningKeySSH', 'Get signing-key.pub for given repository'], scope('repository'), assignRepo, signing.signingKeySsh),

  get('/repos/{owner}/{repo}/forks', ['repository', 'listForks', 'List a repository\'s forks'], scope('repository'), assignRepo, reqRepoReader, forks.list),
  post('/repos/{owner}/{repo}/forks', ['repository', 'createFork', 'Fork a repository'], signedIn, scope('repository'), assignRepo, reqRepoReader, forks.create),
  post('/repos/{owner}/{repo}/merge-upstream', ['repository', 'repoMergeUpstream', 'Merge a branch from upstream'], signedIn, scope('repository'), assignRepo, notArchived, reqCodeWriter, mergeUpstream.merge),
  post('/repos/{owner}/{repo}/mirror-sync', ['repository', 'repoMirrorSync', 'Sync a mirrored repository'], signedIn, scope('repository'), assignRepo, reqCodeWriter, migrate.mirrorSync),
  post('/repos/{owner}/{repo}/transfer', ['repository', 'repoTransfer', 'Transfer a repo ownership'], signedIn, scope('repository'), assignRepo, reqRepoOwner, transfer.start),
  post('/repos/{owner}/{repo}/transfer/accept', ['repository', 'acceptRepoTransfer', 'Accept a repo transfer'], signedIn, scope('repository'), assignRepo, transfer.accept),
  post('/repos/{owner}/{repo}/transfer/reject', ['repository', 'rejectRepoTransfer', 'Reject a repo transfer'], signedIn, scope('repository'), assignRepo, transfer.reject),
  post('/repos/{template_owner}/{template_repo}/generate', ['repository', 'generateRepo', 'Create a repository using a template'], signedIn, scope('repository'), forks.templateAsRepo, assignRepo, reqRepoReader, forks.generate),
  // -- end: collaborators ... --

  // -- section: templates (gitignore, licenses, label templates) --
  get('/gitignore/templates', ['miscellaneous', 'listGitignoresTemplates', 'Returns a list of all gitignore templates'], templates.gitignoreList),
  get('/gitignore/templates/{name}', ['miscellaneous', 'getGitignoreTemplateInfo', 'Returns information about a gitignore template'], templates.gitignoreInfo),
  get('/licenses', ['miscellaneous', 'listLicenseTemplates', 'Returns a list of all license templates'], templates.licenseList),
  get('/licenses/{name}', ['miscellaneous', 'getLicenseTemplateInfo', 'Returns information about a license template'], templates.licenseInfo),
  get('/label/templates', ['miscellaneous', 'listLabelTemplates', 'Returns a list of all label templates'], templates.labelTemplateList),
  get('/label/templates/{name}', ['miscellaneous', 'getLabelTemplateInfo', 'Returns all labels in a template'], templates.labelTemplateInfo),
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
  post('/org/{org}/repos', ['organization', 'createOrgRepoDeprecated', 'Create a repository in an organization'], signedIn, scope('organization'), assignOrg, orgs.createRepo),
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

  // -- section: markdown, attachments, reactions --
  post('/markdown', ['miscellaneous', 'renderMarkdown', 'Render a markdown document as HTML'], signedIn, markdown.markdown),
  post('/markdown/raw', ['miscellaneous', 'renderMarkdownRaw', 'Render raw markdown as HTML'], signedIn, markdown.markdownRaw),
  post('/markup', ['miscellaneous', 'renderMarkup', 'Render a markup document as HTML'], signedIn, markdown.markup),
  get('/repos/{owner}/{repo}/issue_templates', ['repository', 'repoGetIssueTemplates', 'Get available issue templates for a repository'], scope('repository'), assignRepo, reqRepoReader, issueTemplates.templates),
  get('/repos/{owner}/{repo}/issue_config', ['repository', 'repoGetIssueConfig', 'Returns the issue config for a repo'], scope('repository'), assignRepo, reqRepoReader, issueTemplates.config),
  get('/repos/{owner}/{repo}/issue_config/validate', ['repository', 'repoValidateIssueConfig', 'Returns the validation information for a issue config'], scope('repository'), assignRepo, reqRepoReader, issueTemplates.validateConfig),
  get('/repos/{owner}/{repo}/issues/{index}/assets', ['issue', 'issueListIssueAttachments', 'List issue\'s attachments'], numericIndex, scope('issue'), assignRepo, reqRepoReader, attachments.attachmentsEnabled, attachments.issue.list),
  post('/repos/{owner}/{repo}/issues/{index}/assets', ['issue', 'issueCreateIssueAttachment', 'Create an issue attachment'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, attachments.attachmentsEnabled, attachments.issue.create),
  get('/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}', ['issue', 'issueGetIssueAttachment', 'Get an issue attachment'], numericIndex, scope('issue'), assignRepo, reqRepoReader, attachments.attachmentsEnabled, attachments.issue.get),
  patch('/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}', ['issue', 'issueEditIssueAttachment', 'Edit an issue attachment'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, attachments.attachmentsEnabled, attachments.issue.edit),
  del('/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}', ['issue', 'issueDeleteIssueAttachment', 'Delete an issue attachment'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, attachments.attachmentsEnabled, attachments.issue.remove),
  get('/repos/{owner}/{repo}/issues/comments/{id}/assets', ['issue', 'issueListIssueCommentAttachments', 'List comment\'s attachments'], numericId, scope('issue'), assignRepo, reqRepoReader, attachments.attachmentsEnabled, attachments.comment.list),
  post('/repos/{owner}/{repo}/issues/comments/{id}/assets', ['issue', 'issueCreateIssueCommentAttachment', 'Create a comment attachment'], numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, attachments.attachmentsEnabled, attachments.comment.create),
  get('/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}', ['issue', 'issueGetIssueCommentAttachment', 'Get a comment attachment'], numericId, scope('issue'), assignRepo, reqRepoReader, attachments.attachmentsEnabled, attachments.comment.get),
  patch('/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}', ['issue', 'issueEditIssueCommentAttachment', 'Edit a comment attachment'], numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, attachments.attachmentsEnabled, attachments.comment.edit),
  del('/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}', ['issue', 'issueDeleteIssueCommentAttachment', 'Delete a comment attachment'], numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, attachments.attachmentsEnabled, attachments.comment.remove),
  get('/repos/{owner}/{repo}/issues/{index}/reactions', ['issue', 'issueGetIssueReactions', 'Get a list reactions of an issue'], numericIndex, scope('issue'), assignRepo, reqRepoReader, reactions.issue.list),
  post('/repos/{owner}/{repo}/issues/{index}/reactions', ['issue', 'issuePostIssueReaction', 'Add a reaction to an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, reactions.issue.add),
  del('/repos/{owner}/{repo}/issues/{index}/reactions', ['issue', 'issueDeleteIssueReaction', 'Remove a reaction from an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, reactions.issue.remove),
  get('/repos/{owner}/{repo}/issues/comments/{id}/reactions', ['issue', 'issueGetCommentReactions', 'Get a list of reactions from a comment of an issue'], numericId, scope('issue'), assignRepo, reqRepoReader, reactions.comment.list),
  post('/repos/{owner}/{repo}/issues/comments/{id}/reactions', ['issue', 'issuePostCommentReaction', 'Add a reaction to a comment of an issue'], numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, reactions.comment.add),
  del('/repos/{owner}/{repo}/issues/comments/{id}/reactions', ['issue', 'issueDeleteCommentReaction', 'Remove a reaction from a comment of an issue'], numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, reactions.comment.remove),
  // -- end: markdown, attachments, reactions --

  // -- section: teams --
  get('/orgs/{org}/teams', ['organization', 'orgListTeams', 'List an organization\'s teams'], signedIn, scope('organization'), assignOrg, teams.listOfOrg),
  post('/orgs/{org}/teams', ['organization', 'orgCreateTeam', 'Create a team'], signedIn, scope('organization'), assignOrg, reqOrgOwner, teams.create),
  get('/orgs/{org}/teams/search', ['organization', 'teamSearch', 'Search for teams within an organization'], signedIn, scope('organization'), assignOrg, teams.search),
  get('/user/teams', ['user', 'userListTeams', 'List all the teams a user belongs to'], signedIn, scope('user', 'organization'), teams.listMine),
  get('/teams/{id}', ['organization', 'orgGetTeam', 'Get a team'], signedIn, scope('organization'), teams.get),
  patch('/teams/{id}', ['organization', 'orgEditTeam', 'Edit a team'], signedIn, scope('organization'), teams.edit),
  del('/teams/{id}', ['organization', 'orgDeleteTeam', 'Delete a team'], signedIn, scope('organization'), teams.remove),
  get('/teams/{id}/members', ['organization', 'orgListTeamMembers', 'List a team\'s members'], signedIn, scope('organization'), teams.members),
  get('/teams/{id}/members/{username}', ['organization', 'orgListTeamMember', 'List a particular member of team'], signedIn, scope('organization'), teams.member),
  put('/teams/{id}/members/{username}', ['organization', 'orgAddTeamMember', 'Add a team member'], signedIn, scope('organization'), teams.addTeamMember),
  del('/teams/{id}/members/{username}', ['organization', 'orgRemoveTeamMember', 'Remove a team member'], signedIn, scope('organization'), teams.removeTeamMember),
  get('/teams/{id}/repos', ['organization', 'orgListTeamRepos', 'List a team\'s repos'], signedIn, scope('organization'), teams.repos),
  get('/teams/{id}/repos/{org}/{repo}', ['organization', 'orgListTeamRepo', 'List a particular repo of team'], signedIn, scope('organization'), teams.repo),
  put('/teams/{id}/repos/{org}/{repo}', ['organization', 'orgAddTeamRepository', 'Add a repository to a team'], signedIn, scope('organization'), teams.setRepo(true)),
  del('/teams/{id}/repos/{org}/{repo}', ['organization', 'orgRemoveTeamRepository', 'Remove a repository from a team'], signedIn, scope('organization'), teams.setRepo(false)),
  get('/teams/{id}/activities/feeds', ['organization', 'orgListTeamActivityFeeds', 'List a team\'s activity feeds'], signedIn, scope('organization'), teams.feeds),
  get('/repos/{owner}/{repo}/teams', ['repository', 'repoListTeams', 'List a repository\'s teams'], signedIn, scope('repository'), assignRepo, reqRepoReader, teams.ofRepo),
  get('/repos/{owner}/{repo}/teams/{team}', ['repository', 'repoCheckTeam', 'Check if a team is assigned to a repository'], signedIn, scope('repository'), assignRepo, reqRepoReader, teams.checkOfRepo),
  put('/repos/{owner}/{repo}/teams/{team}', ['repository', 'repoAddTeam', 'Add a team to a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, teams.setOfRepo(true)),
  del('/repos/{owner}/{repo}/teams/{team}', ['repository', 'repoDeleteTeam', 'Delete a team from a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, teams.setOfRepo(false)),
  // -- end: teams --

  // -- section: followers, feeds and keys --
  get('/user/followers', ['user', 'userCurrentListFollowers', 'List the authenticated user\'s followers'], signedIn, scope('user'), follows.myFollowers),
  get('/user/following', ['user', 'userCurrentListFollowing', 'List the users that the authenticated user is following'], signedIn, scope('user'), follows.myFollowing),
  get('/user/following/{username}', ['user', 'userCurrentCheckFollowing', 'Check whether a user is followed by the authenticated user'], signedIn, scope('user'), assignUser, follows.checkMine),
  put('/user/following/{username}', ['user', 'userCurrentPutFollow', 'Follow a user'], signedIn, scope('user'), assignUser, follows.follow),
  del('/user/following/{username}', ['user', 'userCurrentDeleteFollow', 'Unfollow a user'], signedIn, scope('user'), assignUser, follows.unfollow),
  get('/users/{username}/followers', ['user', 'userListFollowers', 'List the given user\'s followers'], scope('user'), assignUser, follows.userFollowers),
  get('/users/{username}/following', ['user', 'userListFollowing', 'List the users that the given user is following'], scope('user'), assignUser, follows.userFollowing),
  get('/users/{username}/following/{target}', ['user', 'userCheckFollowing', 'Check if one user is following another user'], scope('user'), assignUser, follows.checkUser),
  get('/users/{username}/heatmap', ['user', 'userGetHeatmapData', 'Get a user\'s heatmap'], scope('user'), assignUser, activity.heatmap),
  get('/users/{username}/activities/feeds', ['user', 'userListActivityFeeds', 'List a user\'s activity feeds'], scope('user'), assignUser, activity.userFeeds),
  get('/repos/{owner}/{repo}/activities/feeds', ['repository', 'repoListActivityFeeds', 'List a repository\'s activity feeds'], scope('repository'), assignRepo, reqRepoReader, activity.repoFeeds),
  get('/orgs/{org}/activities/feeds', ['organization', 'orgListActivityFeeds', 'List an organization\'s activity feeds'], scope('organization'), assignOrg, activity.orgFeeds),
  get('/user/keys', ['user', 'userCurrentListKeys', 'List the authenticated user\'s public keys'], signedIn, scope('user'), keys.listMine),
  post('/user/keys', ['user', 'userCurrentPostKey', 'Create a public key'], signedIn, scope('user'), keys.createMine),
  get('/user/keys/{id}', ['user', 'userCurrentGetKey', 'Get a public key'], signedIn, scope('user'), keys.get),
  del('/user/keys/{id}', ['user', 'userCurrentDeleteKey', 'Delete a public key'], signedIn, scope('user'), keys.remove),
  get('/users/{username}/keys', ['user', 'userListKeys', 'List the given user\'s public keys'], scope('user'), assignUser, keys.listOfUser),
  post('/admin/users/{username}/keys', ['admin', 'adminCreatePublicKey', 'Add a public key on behalf of a user'], signedIn, scope('admin'), siteAdmin, assignUser, keys.createForUser),
  del('/admin/users/{username}/keys/{id}', ['admin', 'adminDeleteUserPublicKey', 'Delete a user\'s public key'], signedIn, scope('admin'), siteAdmin, assignUser, keys.adminRemove),
  get('/user/gpg_keys', ['user', 'userCurrentListGPGKeys', 'List the authenticated user\'s GPG keys'], signedIn, scope('user'), gpgKeys.listMine),
  post('/user/gpg_keys', ['user', 'userCurrentPostGPGKey', 'Create a GPG key'], signedIn, scope('user'), gpgKeys.create),
  get('/user/gpg_keys/{id}', ['user', 'userCurrentGetGPGKey', 'Get a GPG key'], signedIn, scope('user'), gpgKeys.get),
  del('/user/gpg_keys/{id}', ['user', 'userCurrentDeleteGPGKey', 'Remove a GPG key'], signedIn, scope('user'), gpgKeys.remove),
  get('/users/{username}/gpg_keys', ['user', 'userListGPGKeys', 'List the given user\'s GPG keys'], scope('user'), assignUser, gpgKeys.listOfUser),
  get('/user/gpg_key_token', ['user', 'getVerificationToken', 'Get a Token to verify'], signedIn, scope('user'), gpgKeys.token),
  post('/user/gpg_key_verify', ['user', 'userVerifyGPGKey', 'Verify a GPG key'], signedIn, scope('user'), gpgKeys.verify),
  // -- end: followers, feeds and keys --

  // -- section: issues --
  get('/repos/issues/search', ['issue', 'issueSearchIssues', 'Search for issues across the repositories that the user has access to'], scope('issue'), issues.search),
  get('/repos/{owner}/{repo}/issues', ['issue', 'issueListIssues', 'List a repository\'s issues'], scope('issue'), assignRepo, reqRepoReader, issues.list),
  post('/repos/{owner}/{repo}/issues', ['issue', 'issueCreateIssue', 'Create an issue. If using deadline only the date will be taken into account, and time of day ignored.'], signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issues.create),
  get('/repos/{owner}/{repo}/issues/comments', ['issue', 'issueGetRepoComments', 'List all comments in a repository'], scope('issue'), assignRepo, reqRepoReader, issueComments.listRepo),
  get('/repos/{owner}/{repo}/issues/comments/{id}', ['issue', 'issueGetComment', 'Get a comment'], numericId, scope('issue'), assignRepo, reqRepoReader, issueComments.get),
  patch('/repos/{owner}/{repo}/issues/comments/{id}', ['issue', 'issueEditComment', 'Edit a comment'], numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueComments.edit),
  del('/repos/{owner}/{repo}/issues/comments/{id}', ['issue', 'issueDeleteComment', 'Delete a comment'], numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueComments.remove),
  get('/repos/{owner}/{repo}/issues/{index}', ['issue', 'issueGetIssue', 'Get an issue'], numericIndex, scope('issue'), assignRepo, reqRepoReader, issues.get),
  patch('/repos/{owner}/{repo}/issues/{index}', ['issue', 'issueEditIssue', 'Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issues.edit),
  del('/repos/{owner}/{repo}/issues/{index}', ['issue', 'issueDelete', 'Delete an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoAdmin, notArchived, issues.remove),
  get('/repos/{owner}/{repo}/issues/{index}/comments', ['issue', 'issueGetComments', 'List all comments on an issue'], numericIndex, scope('issue'), assignRepo, reqRepoReader, issueComments.list),
  post('/repos/{owner}/{repo}/issues/{index}/comments', ['issue', 'issueCreateComment', 'Add a comment to an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueComments.create),
  patch('/repos/{owner}/{repo}/issues/{index}/comments/{id}', ['issue', 'issueEditCommentDeprecated', 'Edit a comment'], numericIndex, numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueComments.edit),
  del('/repos/{owner}/{repo}/issues/{index}/comments/{id}', ['issue', 'issueDeleteCommentDeprecated', 'Delete a comment'], numericIndex, numericId, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueComments.remove),
  get('/repos/{owner}/{repo}/issues/{index}/labels', ['issue', 'issueGetLabels', 'Get an issue\'s labels'], numericIndex, scope('issue'), assignRepo, reqRepoReader, labels.issueList),
  post('/repos/{owner}/{repo}/issues/{index}/labels', ['issue', 'issueAddLabel', 'Add a label to an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, labels.issueAdd),
  put('/repos/{owner}/{repo}/issues/{index}/labels', ['issue', 'issueReplaceLabels', 'Replace an issue\'s labels'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, labels.issueReplace),
  del('/repos/{owner}/{repo}/issues/{index}/labels', ['issue', 'issueClearLabels', 'Remove all labels from an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, labels.issueClear),
  del('/repos/{owner}/{repo}/issues/{index}/labels/{id}', ['issue', 'issueRemoveLabel', 'Remove a label from an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, labels.issueRemove),
  get('/repos/{owner}/{repo}/labels', ['issue', 'issueListLabels', 'Get all of a repository\'s labels'], scope('issue'), assignRepo, reqRepoReader, labels.list),
  post('/repos/{owner}/{repo}/labels', ['issue', 'issueCreateLabel', 'Create a label'], signedIn, scope('issue'), assignRepo, reqRepoWriter, notArchived, labels.create),
  get('/repos/{owner}/{repo}/labels/{id}', ['issue', 'issueGetLabel', 'Get a single label'], scope('issue'), assignRepo, reqRepoReader, labels.get),
  patch('/repos/{owner}/{repo}/labels/{id}', ['issue', 'issueEditLabel', 'Update a label'], signedIn, scope('issue'), assignRepo, reqRepoWriter, notArchived, labels.edit),
  del('/repos/{owner}/{repo}/labels/{id}', ['issue', 'issueDeleteLabel', 'Delete a label'], signedIn, scope('issue'), assignRepo, reqRepoWriter, notArchived, labels.remove),
  get('/repos/{owner}/{repo}/milestones', ['issue', 'issueGetMilestonesList', 'Get all of a repository\'s opened milestones'], scope('issue'), assignRepo, reqRepoReader, milestones.list),
  post('/repos/{owner}/{repo}/milestones', ['issue', 'issueCreateMilestone', 'Create a milestone'], signedIn, scope('issue'), assignRepo, reqRepoWriter, notArchived, milestones.create),
  get('/repos/{owner}/{repo}/milestones/{id}', ['issue', 'issueGetMilestone', 'Get a milestone'], scope('issue'), assignRepo, reqRepoReader, milestones.get),
  patch('/repos/{owner}/{repo}/milestones/{id}', ['issue', 'issueEditMilestone', 'Update a milestone'], signedIn, scope('issue'), assignRepo, reqRepoWriter, notArchived, milestones.edit),
  del('/repos/{owner}/{repo}/milestones/{id}', ['issue', 'issueDeleteMilestone', 'Delete a milestone'], signedIn, scope('issue'), assignRepo, reqRepoWriter, notArchived, milestones.remove),
  get('/repos/{owner}/{repo}/assignees', ['repository', 'repoGetAssignees', 'Return all users that have write access and can be assigned to issues'], signedIn, scope('repository'), assignRepo, reqRepoReader, issues.assignees),
  // -- end: issues --

  // -- section: releases --
  get('/repos/{owner}/{repo}/releases', ['repository', 'repoListReleases', 'List a repo\'s releases'], scope('repository'), assignRepo, releases.releaseReader, releases.list),
  post('/repos/{owner}/{repo}/releases', ['repository', 'repoCreateRelease', 'Create a release'], signedIn, scope('repository'), assignRepo, releases.releaseWriter, notArchived, releases.create),
  get('/repos/{owner}/{repo}/releases/latest', ['repository', 'repoGetLatestRelease', 'Gets the most recent non-prerelease, non-draft release of a repository, sorted by created_at'], scope('repository'), assignRepo, releases.releaseReader, releases.latest),
  get('/repos/{owner}/{repo}/releases/tags/{tag}', ['repository', 'repoGetReleaseByTag', 'Get a release by tag name'], scope('repository'), assignRepo, releases.releaseReader, releases.getByTag),
  del('/repos/{owner}/{repo}/releases/tags/{tag}', ['repository', 'repoDeleteReleaseByTag', 'Delete a release by tag name'], signedIn, scope('repository'), assignRepo, releases.releaseWriter, notArchived, releases.removeByTag),
  get('/repos/{owner}/{repo}/releases/{id}', ['repository', 'repoGetRelease', 'Get a release'], numericId, scope('repository'), assignRepo, releases.releaseReader, releases.get),
  patch('/repos/{owner}/{repo}/releases/{id}', ['repository', 'repoEditRelease', 'Update a release'], numericId, signedIn, scope('repository'), assignRepo, releases.releaseWriter, notArchived, releases.edit),
  del('/repos/{owner}/{repo}/releases/{id}', ['repository', 'repoDeleteRelease', 'Delete a release'], numericId, signedIn, scope('repository'), assignRepo, releases.releaseWriter, notArchived, releases.remove),
  get('/repos/{owner}/{repo}/releases/{id}/assets', ['repository', 'repoListReleaseAttachments', 'List release\'s attachments'], numericId, scope('repository'), assignRepo, releases.releaseReader, releases.listAssets),
  post('/repos/{owner}/{repo}/releases/{id}/assets', ['repository', 'repoCreateReleaseAttachment', 'Create a release attachment'], numericId, signedIn, scope('repository'), assignRepo, releases.releaseWriter, notArchived, attachments.attachmentsEnabled, releases.createAsset),
  get('/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', ['repository', 'repoGetReleaseAttachment', 'Get a release attachment'], numericId, scope('repository'), assignRepo, releases.releaseReader, releases.getAsset),
  patch('/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', ['repository', 'repoEditReleaseAttachment', 'Edit a release attachment'], numericId, signedIn, scope('repository'), assignRepo, releases.releaseWriter, notArchived, releases.editAsset),
  del('/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', ['repository', 'repoDeleteReleaseAttachment', 'Delete a release attachment'], numericId, signedIn, scope('repository'), assignRepo, releases.releaseWriter, notArchived, releases.removeAsset),
  // -- end: releases --

  // -- section: notifications --
  get('/notifications', ['notification', 'notifyGetList', 'List users\'s notification threads'], signedIn, scope('notification'), notifications.listMine),
  put('/notifications', ['notification', 'notifyReadList', 'Mark notification threads as read, pinned or unread'], signedIn, scope('notification'), notifications.markMine),
  get('/notifications/new', ['notification', 'notifyNewAvailable', 'Check if unread notifications exist'], signedIn, scope('notification'), notifications.newCount),
  get('/notifications/threads/{id}', ['notification', 'notifyGetThread', 'Get notification thread by ID'], signedIn, scope('notification'), notifications.get),
  patch('/notifications/threads/{id}', ['notification', 'notifyReadThread', 'Mark notification thread as read by ID'], signedIn, scope('notification'), notifications.mark),
  get('/repos/{owner}/{repo}/notifications', ['notification', 'notifyGetRepoList', 'List users\'s notification threads on a specific repo'], signedIn, scope('notification'), assignRepo, reqRepoReader, notifications.listRepo),
  put('/repos/{owner}/{repo}/notifications', ['notification', 'notifyReadRepoList', 'Mark notification threads as read, pinned or unread on a specific repo'], signedIn, scope('notification'), assignRepo, reqRepoReader, notifications.markRepo),
  // -- end: notifications --
  // -- section: issue dependencies, pins, times, subscriptions, timeline --
  get('/repos/{owner}/{repo}/issues/{index}/dependencies', ['issue', 'issueListIssueDependencies', 'List an issue\'s dependencies, i.e all issues that block this issue.'], numericIndex, scope('issue'), assignRepo, reqRepoReader, issueDeps.listDependencies),
  post('/repos/{owner}/{repo}/issues/{index}/dependencies', ['issue', 'issueCreateIssueDependencies', 'Make the issue in the url depend on the issue in the form.'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueDeps.addDependency),
  del('/repos/{owner}/{repo}/issues/{index}/dependencies', ['issue', 'issueRemoveIssueDependencies', 'Remove an issue dependency'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueDeps.removeDependency),
  get('/repos/{owner}/{repo}/issues/{index}/blocks', ['issue', 'issueListBlocks', 'List issues that are blocked by this issue'], numericIndex, scope('issue'), assignRepo, reqRepoReader, issueDeps.listBlocks),
  post('/repos/{owner}/{repo}/issues/{index}/blocks', ['issue', 'issueCreateIssueBlocking', 'Block the issue given in the body by the issue in path'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueDeps.addBlock),
  del('/repos/{owner}/{repo}/issues/{index}/blocks', ['issue', 'issueRemoveIssueBlocking', 'Unblock the issue given in the body by the issue in path'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueDeps.removeBlock),
  get('/repos/{owner}/{repo}/issues/pinned', ['repository', 'repoListPinnedIssues', 'List a repo\'s pinned issues'], scope('issue'), assignRepo, reqRepoReader, issuePins.pinned),
  get('/repos/{owner}/{repo}/new_pin_allowed', ['repository', 'repoNewPinAllowed', 'Returns if new Issue Pins are allowed'], scope('repository'), assignRepo, reqRepoReader, issuePins.allowed),
  put('/repos/{owner}/{repo}/issues/{index}/lock', ['issue', 'issueLockIssue', 'Lock an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issuePins.lock),
  del('/repos/{owner}/{repo}/issues/{index}/lock', ['issue', 'issueUnlockIssue', 'Unlock an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issuePins.unlock),
  post('/repos/{owner}/{repo}/issues/{index}/pin', ['issue', 'pinIssue', 'Pin an Issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoAdmin, notArchived, issuePins.pin),
  del('/repos/{owner}/{repo}/issues/{index}/pin', ['issue', 'unpinIssue', 'Unpin an Issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoAdmin, notArchived, issuePins.unpin),
  patch('/repos/{owner}/{repo}/issues/{index}/pin/{position}', ['issue', 'moveIssuePin', 'Moves the Pin to the given Position'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoAdmin, notArchived, issuePins.move),
  post('/repos/{owner}/{repo}/issues/{index}/deadline', ['issue', 'issueEditIssueDeadline', 'Set an issue deadline. If set to null, the deadline is deleted. If using deadline only the date will be taken into account, and time of day ignored.'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueTimes.deadline),
  post('/repos/{owner}/{repo}/issues/{index}/stopwatch/start', ['issue', 'issueStartStopWatch', 'Start stopwatch on an issue.'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueTimes.start),
  post('/repos/{owner}/{repo}/issues/{index}/stopwatch/stop', ['issue', 'issueStopStopWatch', 'Stop an issue\'s existing stopwatch.'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueTimes.stop),
  del('/repos/{owner}/{repo}/issues/{index}/stopwatch/delete', ['issue', 'issueDeleteStopWatch', 'Delete an issue\'s existing stopwatch.'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueTimes.cancel),
  get('/user/stopwatches', ['user', 'userGetStopWatches', 'Get list of all existing stopwatches'], signedIn, scope('user'), issueTimes.myStopwatches),
  get('/repos/{owner}/{repo}/issues/{index}/times', ['issue', 'issueTrackedTimes', 'List an issue\'s tracked times'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, issueTimes.issueTimes),
  post('/repos/{owner}/{repo}/issues/{index}/times', ['issue', 'issueAddTime', 'Add tracked time to a issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueTimes.add),
  del('/repos/{owner}/{repo}/issues/{index}/times', ['issue', 'issueResetTime', 'Reset a tracked time of an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueTimes.reset),
  del('/repos/{owner}/{repo}/issues/{index}/times/{id}', ['issue', 'issueDeleteTime', 'Delete specific tracked time'], numericId, numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, notArchived, issueTimes.remove),
  get('/repos/{owner}/{repo}/times', ['repository', 'repoTrackedTimes', 'List a repo\'s tracked times'], signedIn, scope('issue'), assignRepo, reqRepoReader, issueTimes.repoTimes),
  get('/repos/{owner}/{repo}/times/{user}', ['repository', 'userTrackedTimes', 'List a user\'s tracked times in a repo'], signedIn, scope('issue'), assignRepo, reqRepoReader, issueTimes.userRepoTimes),
  get('/user/times', ['user', 'userCurrentTrackedTimes', 'List the current user\'s tracked times'], signedIn, scope('user'), issueTimes.myTimes),
  get('/repos/{owner}/{repo}/issues/{index}/subscriptions', ['issue', 'issueSubscriptions', 'Get users who subscribed on an issue.'], numericIndex, scope('issue'), assignRepo, reqRepoReader, issueSubs.list),
  get('/repos/{owner}/{repo}/issues/{index}/subscriptions/check', ['issue', 'issueCheckSubscription', 'Check if user is subscribed to an issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, issueSubs.check),
  put('/repos/{owner}/{repo}/issues/{index}/subscriptions/{user}', ['issue', 'issueAddSubscription', 'Subscribe user to issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, issueSubs.subscribe),
  del('/repos/{owner}/{repo}/issues/{index}/subscriptions/{user}', ['issue', 'issueDeleteSubscription', 'Unsubscribe user from issue'], numericIndex, signedIn, scope('issue'), assignRepo, reqRepoReader, issueSubs.unsubscribe),
  get('/repos/{owner}/{repo}/issues/{index}/timeline', ['issue', 'issueGetCommentsAndTimeline', 'List all comments and events on an issue'], numericIndex, scope('issue'), assignRepo, reqRepoReader, issueTimeline.timeline),
  // -- end: issue dependencies, pins, times, subscriptions, timeline --
  // -- section: pull requests --
  get('/repos/{owner}/{repo}/pulls', ['repository', 'repoListPullRequests', 'List a repo\'s pull requests'], scope('repository'), assignRepo, reqRepoReader, pulls.list),
  post('/repos/{owner}/{repo}/pulls', ['repository', 'repoCreatePullRequest', 'Create a pull request'], signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.create),
  get('/repos/{owner}/{repo}/pulls/pinned', ['repository', 'repoListPinnedPullRequests', 'List a repo\'s pinned pull requests'], scope('repository'), assignRepo, reqRepoReader, pulls.pinned),
  get('/repos/{owner}/{repo}/pulls/{index}.{diffType}', ['repository', 'repoDownloadPullDiffOrPatch', 'Get a pull request diff or patch'], scope('repository'), assignRepo, reqRepoReader, pulls.rawDiff),
  get('/repos/{owner}/{repo}/pulls/{index}', ['repository', 'repoGetPullRequest', 'Get a pull request'], numericIndex, scope('repository'), assignRepo, reqRepoReader, pulls.get),
  patch('/repos/{owner}/{repo}/pulls/{index}', ['repository', 'repoEditPullRequest', 'Update a pull request. If using deadline only the date will be taken into account, and time of day ignored.'], numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.edit),
  get('/repos/{owner}/{repo}/pulls/{index}/commits', ['repository', 'repoGetPullRequestCommits', 'Get commits for a pull request'], numericIndex, scope('repository'), assignRepo, reqRepoReader, pulls.commits),
  get('/repos/{owner}/{repo}/pulls/{index}/files', ['repository', 'repoGetPullRequestFiles', 'Get changed files for a pull request'], numericIndex, scope('repository'), assignRepo, reqRepoReader, pulls.files),
  get('/repos/{owner}/{repo}/pulls/{index}/merge', ['repository', 'repoPullRequestIsMerged', 'Check if a pull request has been merged'], numericIndex, scope('repository'), assignRepo, reqRepoReader, pulls.isMerged),
  post('/repos/{owner}/{repo}/pulls/{index}/merge', ['repository', 'repoMergePullRequest', 'Merge a pull request'], numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.merge),
  del('/repos/{owner}/{repo}/pulls/{index}/merge', ['repository', 'repoCancelScheduledAutoMerge', 'Cancel the scheduled auto merge for the given pull request'], numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.cancelMerge),
  post('/repos/{owner}/{repo}/pulls/{index}/update', ['repository', 'repoUpdatePullRequest', 'Merge PR\'s baseBranch into headBranch'], numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.update),
  get('/repos/{owner}/{repo}/pulls/{index}/reviews', ['repository', 'repoListPullReviews', 'List all reviews for a pull request'], numericIndex, scope('repository'), assignRepo, reqRepoReader, pulls.listReviews),
  post('/repos/{owner}/{repo}/pulls/{index}/reviews', ['repository', 'repoCreatePullReview', 'Create a review to an pull request'], numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.createReview),
  get('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', ['repository', 'repoGetPullReview', 'Get a specific review for a pull request'], numericId, numericIndex, scope('repository'), assignRepo, reqRepoReader, pulls.getReview),
  post('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', ['repository', 'repoSubmitPullReview', 'Submit a pending review to an pull request'], numericId, numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.submitReview),
  del('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', ['repository', 'repoDeletePullReview', 'Delete a specific review from a pull request'], numericId, numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.deleteReview),
  get('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments', ['repository', 'repoGetPullReviewComments', 'Get a specific review for a pull request'], numericId, numericIndex, scope('repository'), assignRepo, reqRepoReader, pulls.reviewComments),
  post('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/dismissals', ['repository', 'repoDismissPullReview', 'Dismiss a review for a pull request'], numericId, numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.dismissReview(true)),
  post('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/undismissals', ['repository', 'repoUnDismissPullReview', 'Cancel to dismiss a review for a pull request'], numericId, numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.dismissReview(false)),
  post('/repos/{owner}/{repo}/pulls/{index}/requested_reviewers', ['repository', 'repoCreatePullReviewRequests', 'create review requests for a pull request'], numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.requestReviewers),
  del('/repos/{owner}/{repo}/pulls/{index}/requested_reviewers', ['repository', 'repoDeletePullReviewRequests', 'cancel review requests for a pull request'], numericIndex, signedIn, scope('repository'), assignRepo, reqRepoReader, notArchived, pulls.cancelReviewers),
  get('/repos/{owner}/{repo}/commits/{sha}/pull', ['repository', 'repoGetCommitPullRequest', 'Get the merged pull request of the commit'], scope('repository'), assignRepo, reqRepoReader, pulls.ofMergeCommit),
  get('/repos/{owner}/{repo}/reviewers', ['repository', 'repoGetReviewers', 'Return all users that can be requested to review in this repo'], signedIn, scope('repository'), assignRepo, reqRepoReader, pulls.reviewers),
  get('/repos/{owner}/{repo}/pulls/{base}/{head}', ['repository', 'repoGetPullRequestByBaseHead', 'Get a pull request by base and head'], scope('repository'), assignRepo, reqRepoReader, pulls.getByBranches),
  // -- end: pull requests --
  // -- section: push mirrors (repository admins, as Gitea's reqAdmin) --
  get('/repos/{owner}/{repo}/push_mirrors', ['repository', 'repoListPushMirrors', 'Get all push mirrors of the repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, pushMirrors.list),
  post('/repos/{owner}/{repo}/push_mirrors', ['repository', 'repoAddPushMirror', 'add a push mirror to the repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, pushMirrors.create),
  get('/repos/{owner}/{repo}/push_mirrors/{name}', ['repository', 'repoGetPushMirrorByRemoteName', 'Get push mirror of the repository by remoteName'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, pushMirrors.get),
  del('/repos/{owner}/{repo}/push_mirrors/{name}', ['repository', 'repoDeletePushMirror', 'deletes a push mirror from a repository by remoteName'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, pushMirrors.remove),
  post('/repos/{owner}/{repo}/push_mirrors-sync', ['repository', 'repoPushMirrorSync', 'Sync all push mirrored repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, notArchived, pushMirrors.sync),
  describe(get('/repos/{owner}/{repo}/security/dependency_alerts', ['repository', 'repoListDependencyAlerts', 'List the dependency alerts of a repository, newest first (hearth extension)', 'extension'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, dependencyAlerts.list),
    'Repository admins only. `state`: open, dismissed or fixed; `page`, `limit`. Alerts come from package-lock.json, requirements.txt (== pins), poetry.lock, go.sum and Cargo.lock at the default branch, matched against the OSV advisories imported with `hearth admin advisories import`.'),
  post('/repos/{owner}/{repo}/security/dependency_alerts/{index}/dismiss', ['repository', 'repoDismissDependencyAlert', 'Dismiss a dependency alert, 204 (hearth extension)', 'extension'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, dependencyAlerts.dismiss),
  // -- end: push mirrors --
  // -- section: deploy keys (repository admins, as Gitea's reqAdmin) --
  get('/repos/{owner}/{repo}/keys', ['repository', 'repoListKeys', 'List a repository\'s keys'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, deployKeys.list),
  post('/repos/{owner}/{repo}/keys', ['repository', 'repoCreateKey', 'Add a key to a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, deployKeys.create),
  get('/repos/{owner}/{repo}/keys/{id}', ['repository', 'repoGetKey', 'Get a repository\'s key by id'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, deployKeys.get),
  del('/repos/{owner}/{repo}/keys/{id}', ['repository', 'repoDeleteKey', 'Delete a key from a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, deployKeys.remove),
  // -- end: deploy keys --

  // -- section: webhooks and git hooks (POST /repos/{owner}/{repo}/hooks/{id}/tests is with deliveries) --
  get('/repos/{owner}/{repo}/hooks', ['repository', 'repoListHooks', 'List the hooks in a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.repo.list),
  post('/repos/{owner}/{repo}/hooks', ['repository', 'repoCreateHook', 'Create a hook'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.repo.create),
  get('/repos/{owner}/{repo}/hooks/git', ['repository', 'repoListGitHooks', 'List the Git hooks in a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.reqGitHook, hooks.listGit),
  get('/repos/{owner}/{repo}/hooks/git/{id}', ['repository', 'repoGetGitHook', 'Get a Git hook'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.reqGitHook, hooks.getGit),
  patch('/repos/{owner}/{repo}/hooks/git/{id}', ['repository', 'repoEditGitHook', 'Edit a Git hook in a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.reqGitHook, hooks.editGit),
  del('/repos/{owner}/{repo}/hooks/git/{id}', ['repository', 'repoDeleteGitHook', 'Delete a Git hook in a repository'], signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.reqGitHook, hooks.removeGit),
  get('/repos/{owner}/{repo}/hooks/{id}', ['repository', 'repoGetHook', 'Get a hook'], numericId, signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.repo.get),
  patch('/repos/{owner}/{repo}/hooks/{id}', ['repository', 'repoEditHook', 'Edit a hook in a repository'], numericId, signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.repo.edit),
  del('/repos/{owner}/{repo}/hooks/{id}', ['repository', 'repoDeleteHook', 'Delete a hook in a repository'], numericId, signedIn, scope('repository'), assignRepo, reqRepoAdmin, hooks.repo.remove),
  get('/orgs/{org}/hooks', ['organization', 'orgListHooks', 'List an organization\'s webhooks'], signedIn, scope('organization'), assignOrg, reqOrgOwner, hooks.org.list),
  post('/orgs/{org}/hooks', ['organization', 'orgCreateHook', 'Create a hook'], signedIn, scope('organization'), assignOrg, reqOrgOwner, hooks.org.create),
  get('/orgs/{org}/hooks/{id}', ['organization', 'orgGetHook', 'Get a hook'], numericId, signedIn, scope('organization'), assignOrg, reqOrgOwner, hooks.org.get),
  patch('/orgs/{org}/hooks/{id}', ['organization', 'orgEditHook', 'Update a hook'], numericId, signedIn, scope('organization'), assignOrg, reqOrgOwner, hooks.org.edit),
  del('/orgs/{org}/hooks/{id}', ['organization', 'orgDeleteHook', 'Delete a hook'], numericId, signedIn, scope('organization'), assignOrg, reqOrgOwner, hooks.org.remove),
  get('/user/hooks', ['user', 'userListHooks', 'List the authenticated user\'s webhooks'], signedIn, scope('user'), hooks.user.list),
  post('/user/hooks', ['user', 'userCreateHook', 'Create a hook'], signedIn, scope('user'), hooks.user.create),
  get('/user/hooks/{id}', ['user', 'userGetHook', 'Get a hook'], numericId, signedIn, scope('user'), hooks.user.get),
  patch('/user/hooks/{id}', ['user', 'userEditHook', 'Update a hook'], numericId, signedIn, scope('user'), hooks.user.edit),
  del('/user/hooks/{id}', ['user', 'userDeleteHook', 'Delete a hook'], numericId, signedIn, scope('user'), hooks.user.remove),
  get('/admin/hooks', ['admin', 'adminListHooks', 'List system\'s webhooks'], signedIn, scope('admin'), siteAdmin, hooks.admin.list),
  post('/admin/hooks', ['admin', 'adminCreateHook', 'Create a hook'], signedIn, scope('admin'), siteAdmin, hooks.admin.create),
  get('/admin/hooks/{id}', ['admin', 'adminGetHook', 'Get a hook'], numericId, signedIn, scope('admin'), siteAdmin, hooks.admin.get),
  patch('/admin/hooks/{id}', ['admin', 'adminEditHook', 'Update a hook'], numericId, signedIn, scope('admin'), siteAdmin, hooks.admin.edit),
  del('/admin/hooks/{id}', ['admin', 'adminDeleteHook', 'Delete a hook'], numericId, signedIn, scope('admin'), siteAdmin, hooks.admin.remove),
  post('/repos/{owner}/{repo}/hooks/{id}/tests', ['repository', 'repoTestHook', 'Test a push webhook'], numericId, signedIn, scope('repository'), assignRepo, reqRepoAdmin, deliveries.test),
  get('/repos/{owner}/{repo}/hooks/{id}/deliveries', ['repository', 'repoListHookDeliveries', 'List a hook\'s deliveries, newest first (hearth extension)', 'extension'], numericId, signedIn, scope('repository'), assignRepo, reqRepoAdmin, deliveries.repo.list),
  get('/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}', ['repository', 'repoGetHookDelivery', 'Get a delivery with its request and response (hearth extension)', 'extension'], numericId, signedIn, scope('repository'), assignRepo, reqRepoAdmin, deliveries.repo.get),
  post('/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}/attempts', ['repository', 'repoRedeliverHookDelivery', 'Redeliver a delivery now, 202 (hearth extension)', 'extension'], numericId, signedIn, scope('repository'), assignRepo, reqRepoAdmin, deliveries.repo.redeliver),
  get('/orgs/{org}/hooks/{id}/deliveries', ['organization', 'orgListHookDeliveries', 'List a hook\'s deliveries, newest first (hearth extension)', 'extension'], numericId, signedIn, scope('organization'), assignOrg, reqOrgOwner, deliveries.org.list),
  get('/orgs/{org}/hooks/{id}/deliveries/{delivery_id}', ['organization', 'orgGetHookDelivery', 'Get a delivery with its request and response (hearth extension)', 'extension'], numericId, signedIn, scope('organization'), assignOrg, reqOrgOwner, deliveries.org.get),
  post('/orgs/{org}/hooks/{id}/deliveries/{delivery_id}/attempts', ['organization', 'orgRedeliverHookDelivery', 'Redeliver a delivery now, 202 (hearth extension)', 'extension'], numericId, signedIn, scope('organization'), assignOrg, reqOrgOwner, deliveries.org.redeliver),
  get('/user/hooks/{id}/deliveries', ['user', 'userListHookDeliveries', 'List a hook\'s deliveries, newest first (hearth extension)', 'extension'], numericId, signedIn, scope('user'), deliveries.user.list),
  get('/user/hooks/{id}/deliveries/{delivery_id}', ['user', 'userGetHookDelivery', 'Get a delivery with its request and response (hearth extension)', 'extension'], numericId, signedIn, scope('user'), deliveries.user.get),
  post('/user/hooks/{id}/deliveries/{delivery_id}/attempts', ['user', 'userRedeliverHookDelivery', 'Redeliver a delivery now, 202 (hearth extension)', 'extension'], numericId, signedIn, scope('user'), deliveries.user.redeliver),
  get('/admin/hooks/{id}/deliveries', ['admin', 'adminListHookDeliveries', 'List a hook\'s deliveries, newest first (hearth extension)', 'extension'], numericId, signedIn, scope('admin'), siteAdmin, deliveries.admin.list),
  get('/admin/hooks/{id}/deliveries/{delivery_id}', ['admin', 'adminGetHookDelivery', 'Get a delivery with its request and response (hearth extension)', 'extension'], numericId, signedIn, scope('admin'), siteAdmin, deliveries.admin.get),
  post('/admin/hooks/{id}/deliveries/{delivery_id}/attempts', ['admin', 'adminRedeliverHookDelivery', 'Redeliver a delivery now, 202 (hearth extension)', 'extension'], numericId, signedIn, scope('admin'), siteAdmin, deliveries.admin.redeliver),
  // -- end: webhooks and git hooks --
  // -- section: packages (Gitea's routers/api/v1/packages) --
  get('/packages/{owner}', ['package', 'listPackages', 'Gets all packages of an owner'], scope('package'), packages.assignPackageOwner, packages.list),
  get('/packages/{owner}/{type}/{name}', ['package', 'listPackageVersions', 'Gets all versions of a package'], scope('package'), packages.assignPackageOwner, packages.versions),
  get('/packages/{owner}/{type}/{name}/-/latest', ['package', 'getLatestPackageVersion', 'Gets the latest version of a package'], scope('package'), packages.assignPackageOwner, packages.latest),
  post('/packages/{owner}/{type}/{name}/-/link/{repo_name}', ['package', 'linkPackage', 'Link a package to a repository'], scope('package'), packages.assignPackageOwner, packages.reqPackageWriter, packages.link),
  post('/packages/{owner}/{type}/{name}/-/unlink', ['package', 'unlinkPackage', 'Unlink a package from a repository'], scope('package'), packages.assignPackageOwner, packages.reqPackageWriter, packages.unlink),
  get('/packages/{owner}/{type}/{name}/{version}', ['package', 'getPackage', 'Gets a package'], scope('package'), packages.assignPackageOwner, packages.get),
  del('/packages/{owner}/{type}/{name}/{version}', ['package', 'deletePackage', 'Delete a package'], scope('package'), packages.assignPackageOwner, packages.reqPackageWriter, packages.remove),
  get('/packages/{owner}/{type}/{name}/{version}/files', ['package', 'listPackageFiles', 'Gets all files of a package'], scope('package'), packages.assignPackageOwner, packages.files),
  // -- section: actions (issue 15), rows in actions-routes.ts --
  ...actionsRoutes,
];
