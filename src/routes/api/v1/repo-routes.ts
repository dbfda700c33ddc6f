import { assignRepo, notArchived, reqCodeWriter, reqRepoReader } from '../../middleware/repo-guards';
import { del, describe, get, group, patch, post, put, type RouteGroup } from '../../table';
import { R, currentUserRepos, repoAdmins, repoOwners, repoReaders, repoScope, repoSignedReaders, repoSignedVisitors, repoVisitors } from './route-chains';
import * as activity from './activity';
import * as avatars from './avatars';
import * as collaborators from './collaborators';
import * as dependencyAlerts from './dependency-alerts';
import * as deployKeys from './deploy-keys';
import * as forks from './forks';
import * as mergeUpstream from './merge-upstream';
import * as migrate from './migrate';
import * as pushMirrors from './push-mirrors';
import * as repos from './repos';
import * as signing from './signing';
import * as stars from './stars';
import * as teams from './teams';
import * as topics from './topics';
import * as transfer from './transfer';

// Repositories: search, creation, settings and their social side (collaborators, stars, watchers, topics, forks, transfers, teams, mirrors, keys).

export const repoRoutes: RouteGroup[] = [
  group({ name: 'repository scope', guards: repoScope }, [
    get('/repos/search', ['repository', 'repoSearch', 'Search for repositories'], repos.search),
    get('/repositories/{id}', ['repository', 'repoGetByID', 'Get a repository by id'], repos.getById),
    get('/topics/search', ['repository', 'topicSearch', 'search topics via keyword'], topics.search),
  ]),
  group({ name: 'the caller, repository scope', guards: currentUserRepos }, [
    post('/repos/migrate', ['repository', 'repoMigrate', 'Migrate a remote git repository'], migrate.migrate),
    post('/repos/{template_owner}/{template_repo}/generate', ['repository', 'generateRepo', 'Create a repository using a template'], forks.templateAsRepo, assignRepo, reqRepoReader, forks.generate),
  ]),
  group({ name: 'repository readers', guards: repoReaders() }, [
    get('/repos/{owner}/{repo}', ['repository', 'repoGet', 'Get a repository'], repos.get),
    get('/repos/{owner}/{repo}/stargazers', ['repository', 'repoListStargazers', 'List a repo\'s stargazers'], stars.starsEnabled, stars.stargazers),
    get('/repos/{owner}/{repo}/subscribers', ['repository', 'repoListSubscribers', 'List a repo\'s watchers'], stars.subscribers),
    get('/repos/{owner}/{repo}/topics', ['repository', 'repoListTopics', 'Get list of topics that a repository has'], topics.list),
    get('/repos/{owner}/{repo}/forks', ['repository', 'listForks', 'List a repository\'s forks'], forks.list),
    get('/repos/{owner}/{repo}/activities/feeds', ['repository', 'repoListActivityFeeds', 'List a repository\'s activity feeds'], activity.repoFeeds),
  ]),
  group({ name: 'repository admins', guards: repoAdmins() }, [
    patch('/repos/{owner}/{repo}', ['repository', 'repoEdit', 'Edit a repository\'s properties. Only fields that are set will be changed.'], repos.edit),
    post('/repos/{owner}/{repo}/avatar', ['repository', 'repoUpdateAvatar', 'Update avatar'], avatars.updateRepoAvatar),
    del('/repos/{owner}/{repo}/avatar', ['repository', 'repoDeleteAvatar', 'Delete avatar'], avatars.deleteRepoAvatarHandler),
    put('/repos/{owner}/{repo}/collaborators/{collaborator}', ['repository', 'repoAddCollaborator', 'Add or Update a collaborator to a repository'], collaborators.add),
    del('/repos/{owner}/{repo}/collaborators/{collaborator}', ['repository', 'repoDeleteCollaborator', 'Delete a collaborator from a repository'], collaborators.remove),
    put('/repos/{owner}/{repo}/topics', ['repository', 'repoUpdateTopics', 'Replace list of topics for a repository'], topics.replace),
    put('/repos/{owner}/{repo}/topics/{topic}', ['repository', 'repoAddTopic', 'Add a topic to a repository'], topics.add),
    del('/repos/{owner}/{repo}/topics/{topic}', ['repository', 'repoDeleteTopic', 'Delete a topic from a repository'], topics.remove),
    put('/repos/{owner}/{repo}/teams/{team}', ['repository', 'repoAddTeam', 'Add a team to a repository'], teams.setOfRepo(true)),
    del('/repos/{owner}/{repo}/teams/{team}', ['repository', 'repoDeleteTeam', 'Delete a team from a repository'], teams.setOfRepo(false)),
    get('/repos/{owner}/{repo}/push_mirrors', ['repository', 'repoListPushMirrors', 'Get all push mirrors of the repository'], pushMirrors.list),
    post('/repos/{owner}/{repo}/push_mirrors', ['repository', 'repoAddPushMirror', 'add a push mirror to the repository'], notArchived, pushMirrors.create),
    get('/repos/{owner}/{repo}/push_mirrors/{name}', ['repository', 'repoGetPushMirrorByRemoteName', 'Get push mirror of the repository by remoteName'], pushMirrors.get),
    del('/repos/{owner}/{repo}/push_mirrors/{name}', ['repository', 'repoDeletePushMirror', 'deletes a push mirror from a repository by remoteName'], notArchived, pushMirrors.remove),
    post('/repos/{owner}/{repo}/push_mirrors-sync', ['repository', 'repoPushMirrorSync', 'Sync all push mirrored repository'], notArchived, pushMirrors.sync),
    describe(get('/repos/{owner}/{repo}/security/dependency_alerts', ['repository', 'repoListDependencyAlerts', 'List the dependency alerts of a repository, newest first (hearth extension)', 'extension'], dependencyAlerts.list), 'Repository admins only. `state`: open, dismissed or fixed; `page`, `limit`. Alerts come from package-lock.json, requirements.txt (== pins), poetry.lock, go.sum and Cargo.lock at the default branch, matched against the OSV advisories imported with `hearth admin advisories import`.'),
    post('/repos/{owner}/{repo}/security/dependency_alerts/{index}/dismiss', ['repository', 'repoDismissDependencyAlert', 'Dismiss a dependency alert, 204 (hearth extension)', 'extension'], dependencyAlerts.dismiss),
    get('/repos/{owner}/{repo}/keys', ['repository', 'repoListKeys', 'List a repository\'s keys'], deployKeys.list),
    post('/repos/{owner}/{repo}/keys', ['repository', 'repoCreateKey', 'Add a key to a repository'], deployKeys.create),
    get('/repos/{owner}/{repo}/keys/{id}', ['repository', 'repoGetKey', 'Get a repository\'s key by id'], deployKeys.get),
    del('/repos/{owner}/{repo}/keys/{id}', ['repository', 'repoDeleteKey', 'Delete a key from a repository'], deployKeys.remove),
  ]),
  group({ name: 'repository owners', guards: repoOwners }, [
    del('/repos/{owner}/{repo}', ['repository', 'repoDelete', 'Delete a repository'], repos.remove),
    post('/repos/{owner}/{repo}/transfer', ['repository', 'repoTransfer', 'Transfer a repo ownership'], transfer.start),
  ]),
  group({ name: 'repository readers, signed in', prefix: R, guards: repoSignedReaders() }, [
    get('/collaborators', ['repository', 'repoListCollaborators', 'List a repository\'s collaborators'], collaborators.list),
    get('/collaborators/{collaborator}', ['repository', 'repoCheckCollaborator', 'Check if a user is a collaborator of a repository'], collaborators.check),
    get('/subscription', ['repository', 'userCurrentCheckSubscription', 'Check if the current user is watching a repo'], stars.checkSubscription),
    put('/subscription', ['repository', 'userCurrentPutSubscription', 'Watch a repo'], stars.subscribe),
    del('/subscription', ['repository', 'userCurrentDeleteSubscription', 'Unwatch a repo'], stars.unsubscribe),
    post('/forks', ['repository', 'createFork', 'Fork a repository'], forks.create),
    get('/teams', ['repository', 'repoListTeams', 'List a repository\'s teams'], teams.ofRepo),
    get('/teams/{team}', ['repository', 'repoCheckTeam', 'Check if a team is assigned to a repository'], teams.checkOfRepo),
  ]),
  group({ name: 'repository visitors, signed in', prefix: R, guards: repoSignedVisitors() }, [
    get('/collaborators/{collaborator}/permission', ['repository', 'repoGetRepoPermissions', 'Get repository permissions for a user'], collaborators.permission),
    post('/merge-upstream', ['repository', 'repoMergeUpstream', 'Merge a branch from upstream'], notArchived, reqCodeWriter, mergeUpstream.merge),
    post('/mirror-sync', ['repository', 'repoMirrorSync', 'Sync a mirrored repository'], reqCodeWriter, migrate.mirrorSync),
    post('/transfer/accept', ['repository', 'acceptRepoTransfer', 'Accept a repo transfer'], transfer.accept),
    post('/transfer/reject', ['repository', 'rejectRepoTransfer', 'Reject a repo transfer'], transfer.reject),
  ]),
  group({ name: 'repository visitors', prefix: R, guards: repoVisitors() }, [
    get('/signing-key.gpg', ['repository', 'repoSigningKey', 'Get signing-key.gpg for given repository'], signing.signingKeyGpg),
    get('/signing-key.pub', ['repository', 'repoSigningKeySSH', 'Get signing-key.pub for given repository'], signing.signingKeySsh),
  ]),
];
