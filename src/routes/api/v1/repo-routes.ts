import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { R, assignRepo, currentUserRepos, notArchived, repoAdmins, repoOwners, repoReaders, repoScope, repoSignedReaders, repoSignedVisitors, repoVisitors, reqCodeWriter, reqRepoReader } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const activity = lazyModule(() => import('./activity'));
const avatars = lazyModule(() => import('./avatars'));
const collaborators = lazyModule(() => import('./collaborators'));
const dependencyAlerts = lazyModule(() => import('./dependency-alerts'));
const deployKeys = lazyModule(() => import('./deploy-keys'));
const forks = lazyModule(() => import('./forks'));
const mergeUpstream = lazyModule(() => import('./merge-upstream'));
const migrate = lazyModule(() => import('./migrate'));
const pushMirrors = lazyModule(() => import('./push-mirrors'));
const repos = lazyModule(() => import('./repos'));
const signing = lazyModule(() => import('./signing'));
const stars = lazyModule(() => import('./stars'));
const teams = lazyModule(() => import('./teams'));
const topics = lazyModule(() => import('./topics'));
const transfer = lazyModule(() => import('./transfer'));

// Repositories: search, creation, settings and their social side (collaborators, stars, watchers, topics, forks, transfers, teams, mirrors, keys).

export const repoRoutes: RouteGroup[] = [
  group({ name: 'repository scope', guards: repoScope }, [
    get('/repos/search', {
      id: 'repoSearch', tag: 'repository', summary: 'Find repositories the caller can see, by keyword, topic, owner or kind',
      query: [q.str('q'), q.bool('topic'), q.bool('includeDesc'), q.int('uid', { format: 'int64' }), q.int('priority_owner_id', { format: 'int64' }), q.int('team_id', { format: 'int64' }), q.int('starredBy', { format: 'int64' }), q.bool('private'), q.bool('is_private'), q.bool('template'), q.bool('archived'), q.str('mode'), q.bool('exclusive'), q.str('sort'), q.str('order'), ...paging],
      responses: { 200: 'SearchResults' },
    }, repos.search),
    get('/repositories/{id}', {
      id: 'repoGetByID', tag: 'repository', summary: 'A repository by its numeric id', params: { id: 'int64' }, responses: { 200: 'Repository' },
    }, repos.getById),
    get('/topics/search', {
      id: 'topicSearch', tag: 'repository', summary: 'Topics in use that start with or contain a keyword',
      query: [q.str('q', { required: true }), ...paging], responses: { 200: ['TopicResponse'] },
    }, topics.search),
  ]),
  group({ name: 'the caller, repository scope', guards: currentUserRepos }, [
    post('/repos/migrate', {
      id: 'repoMigrate', tag: 'repository', summary: 'Import a repository (and optionally its issues, pulls, releases...) from elsewhere',
      body: migrate.migrateSchema, responses: { 201: 'Repository' },
    }, migrate.migrate),
    post('/repos/{template_owner}/{template_repo}/generate', {
      id: 'generateRepo', tag: 'repository', summary: 'Make a new repository from a template repository', body: forks.generateSchema,
      responses: { 201: 'Repository' },
    }, forks.templateAsRepo, assignRepo, reqRepoReader, forks.generate),
  ]),
  group({ name: 'repository readers', guards: repoReaders() }, [
    get('/repos/{owner}/{repo}', {
      id: 'repoGet', tag: 'repository', summary: 'One repository, with the caller\'s permissions on it', responses: { 200: 'Repository' },
    }, repos.get),
    get('/repos/{owner}/{repo}/stargazers', {
      id: 'repoListStargazers', tag: 'repository', summary: 'Users who starred a repository', query: paging, responses: { 200: ['User'] },
    }, stars.starsEnabled, stars.stargazers),
    get('/repos/{owner}/{repo}/subscribers', {
      id: 'repoListSubscribers', tag: 'repository', summary: 'Users who watch a repository', query: paging, responses: { 200: ['User'] },
    }, stars.subscribers),
    get('/repos/{owner}/{repo}/topics', {
      id: 'repoListTopics', tag: 'repository', summary: 'A repository\'s topics', query: paging, responses: { 200: 'TopicName' },
    }, topics.list),
    get('/repos/{owner}/{repo}/forks', {
      id: 'listForks', tag: 'repository', summary: 'Forks of a repository the caller can see', query: paging, responses: { 200: ['Repository'] },
    }, forks.list),
    get('/repos/{owner}/{repo}/activities/feeds', {
      id: 'repoListActivityFeeds', tag: 'repository', summary: 'Recent activity in a repository', query: [q.date('date'), ...paging],
      responses: { 200: ['Activity'] },
    }, activity.repoFeeds),
  ]),
  group({ name: 'repository admins', guards: repoAdmins() }, [
    patch('/repos/{owner}/{repo}', {
      id: 'repoEdit', tag: 'repository', summary: 'Change a repository\'s settings; fields left out keep their value', body: repos.editSchema,
      responses: { 200: 'Repository' },
    }, repos.edit),
    post('/repos/{owner}/{repo}/avatar', {
      id: 'repoUpdateAvatar', tag: 'repository', summary: 'Upload a repository\'s avatar (base64)', body: avatars.repoAvatarSchema,
      responses: { 204: null },
    }, avatars.updateRepoAvatar),
    del('/repos/{owner}/{repo}/avatar', {
      id: 'repoDeleteAvatar', tag: 'repository', summary: 'Remove a repository\'s avatar', responses: { 204: null },
    }, avatars.deleteRepoAvatarHandler),
    put('/repos/{owner}/{repo}/collaborators/{collaborator}', {
      id: 'repoAddCollaborator', tag: 'repository', summary: 'Give a user access to a repository, or change their access',
      body: collaborators.addSchema, responses: { 204: null },
    }, collaborators.add),
    del('/repos/{owner}/{repo}/collaborators/{collaborator}', {
      id: 'repoDeleteCollaborator', tag: 'repository', summary: 'Take a collaborator\'s access away', responses: { 204: null },
    }, collaborators.remove),
    put('/repos/{owner}/{repo}/topics', {
      id: 'repoUpdateTopics', tag: 'repository', summary: 'Set a repository\'s topics to exactly these', body: topics.replaceSchema,
      responses: { 204: null },
    }, topics.replace),
    put('/repos/{owner}/{repo}/topics/{topic}', { id: 'repoAddTopic', tag: 'repository', summary: 'Add one topic to a repository', responses: { 204: null } }, topics.add),
    del('/repos/{owner}/{repo}/topics/{topic}', {
      id: 'repoDeleteTopic', tag: 'repository', summary: 'Remove one topic from a repository', responses: { 204: null },
    }, topics.remove),
    put('/repos/{owner}/{repo}/teams/{team}', {
      id: 'repoAddTeam', tag: 'repository', summary: 'Give an organization team access to its repository', responses: { 204: null },
    }, teams((m) => m.setOfRepo(true))),
    del('/repos/{owner}/{repo}/teams/{team}', {
      id: 'repoDeleteTeam', tag: 'repository', summary: 'Take a team\'s access to a repository away', responses: { 204: null },
    }, teams((m) => m.setOfRepo(false))),
    get('/repos/{owner}/{repo}/push_mirrors', {
      id: 'repoListPushMirrors', tag: 'repository', summary: 'Remotes this repository pushes to', query: paging,
      responses: { 200: ['PushMirror'] },
    }, pushMirrors.list),
    post('/repos/{owner}/{repo}/push_mirrors', {
      id: 'repoAddPushMirror', tag: 'repository', summary: 'Push this repository to another remote from now on', body: pushMirrors.createSchema,
      responses: { 200: 'PushMirror' },
    }, notArchived, pushMirrors.create),
    get('/repos/{owner}/{repo}/push_mirrors/{name}', {
      id: 'repoGetPushMirrorByRemoteName', tag: 'repository', summary: 'One push mirror, by its remote name', responses: { 200: 'PushMirror' },
    }, pushMirrors.get),
    del('/repos/{owner}/{repo}/push_mirrors/{name}', {
      id: 'repoDeletePushMirror', tag: 'repository', summary: 'Stop pushing to a remote', responses: { 204: null },
    }, notArchived, pushMirrors.remove),
    post('/repos/{owner}/{repo}/push_mirrors-sync', {
      id: 'repoPushMirrorSync', tag: 'repository', summary: 'Push to every mirror now', responses: { 200: null },
    }, notArchived, pushMirrors.sync),
    get('/repos/{owner}/{repo}/security/dependency_alerts', {
      id: 'repoListDependencyAlerts', tag: 'repository', summary: 'Known vulnerabilities in the repository\'s locked dependencies, newest first',
      extension: true,
      description: 'Repository admins only. `state`: open, dismissed or fixed; `page`, `limit`. Alerts come from package-lock.json, requirements.txt (== pins), poetry.lock, go.sum and Cargo.lock at the default branch, matched against the OSV advisories imported with `hearth admin advisories import`.',
      query: [q.str('state', { enum: ['open', 'dismissed', 'fixed'] }), ...paging], responses: { 200: ['DependencyAlert'] },
    }, dependencyAlerts.list),
    post('/repos/{owner}/{repo}/security/dependency_alerts/{index}/dismiss', {
      id: 'repoDismissDependencyAlert', tag: 'repository', summary: 'Set a dependency alert aside', extension: true, params: { index: 'int64' },
      body: dependencyAlerts.dismissSchema, responses: { 204: null },
    }, dependencyAlerts.dismiss),
    get('/repos/{owner}/{repo}/keys', {
      id: 'repoListKeys', tag: 'repository', summary: 'Deploy keys of a repository', query: [q.int('key_id'), q.str('fingerprint'), ...paging],
      responses: { 200: ['DeployKey'] },
    }, deployKeys.list),
    post('/repos/{owner}/{repo}/keys', {
      id: 'repoCreateKey', tag: 'repository', summary: 'Add a deploy key (read-only unless said otherwise)', body: deployKeys.createSchema,
      responses: { 201: 'DeployKey' },
    }, deployKeys.create),
    get('/repos/{owner}/{repo}/keys/{id}', {
      id: 'repoGetKey', tag: 'repository', summary: 'One deploy key', params: { id: 'int64' }, responses: { 200: 'DeployKey' },
    }, deployKeys.get),
    del('/repos/{owner}/{repo}/keys/{id}', {
      id: 'repoDeleteKey', tag: 'repository', summary: 'Remove a deploy key', params: { id: 'int64' }, responses: { 204: null },
    }, deployKeys.remove),
  ]),
  group({ name: 'repository owners', guards: repoOwners }, [
    del('/repos/{owner}/{repo}', {
      id: 'repoDelete', tag: 'repository', summary: 'Delete a repository with its issues, pulls, releases and git data', responses: { 204: null },
    }, repos.remove),
    post('/repos/{owner}/{repo}/transfer', {
      id: 'repoTransfer', tag: 'repository', summary: 'Hand a repository to another user or organization',
      body: { of: transfer.transferSchema, required: true }, responses: { 202: 'Repository' },
    }, transfer.start),
  ]),
  group({ name: 'repository readers, signed in', prefix: R, guards: repoSignedReaders() }, [
    get('/collaborators', {
      id: 'repoListCollaborators', tag: 'repository', summary: 'Users given access to a repository one by one', query: paging,
      responses: { 200: ['User'] },
    }, collaborators.list),
    get('/collaborators/{collaborator}', {
      id: 'repoCheckCollaborator', tag: 'repository', summary: 'Whether a user is a collaborator (204 or 404)', responses: { 204: null },
    }, collaborators.check),
    get('/subscription', {
      id: 'userCurrentCheckSubscription', tag: 'repository', summary: 'Whether the caller watches a repository', responses: { 200: 'WatchInfo' },
    }, stars.checkSubscription),
    put('/subscription', { id: 'userCurrentPutSubscription', tag: 'repository', summary: 'Watch a repository', responses: { 200: 'WatchInfo' } }, stars.subscribe),
    del('/subscription', { id: 'userCurrentDeleteSubscription', tag: 'repository', summary: 'Stop watching a repository', responses: { 204: null } }, stars.unsubscribe),
    post('/forks', {
      id: 'createFork', tag: 'repository', summary: 'Copy a repository to the caller or one of their organizations', body: forks.forkSchema,
      responses: { 202: 'Repository' },
    }, forks.create),
    get('/teams', {
      id: 'repoListTeams', tag: 'repository', summary: 'Teams that have access to an organization\'s repository', responses: { 200: ['Team'] },
    }, teams.ofRepo),
    get('/teams/{team}', {
      id: 'repoCheckTeam', tag: 'repository', summary: 'Whether a team has access to the repository', responses: { 200: 'Team' },
    }, teams.checkOfRepo),
  ]),
  group({ name: 'repository visitors, signed in', prefix: R, guards: repoSignedVisitors() }, [
    get('/collaborators/{collaborator}/permission', {
      id: 'repoGetRepoPermissions', tag: 'repository', summary: 'What a user may do in a repository',
      responses: { 200: 'RepoCollaboratorPermission' },
    }, collaborators.permission),
    post('/merge-upstream', {
      id: 'repoMergeUpstream', tag: 'repository', summary: 'Bring a fork\'s branch up to date with its upstream', body: mergeUpstream.schema,
      responses: { 200: 'MergeUpstreamResponse' },
    }, notArchived, reqCodeWriter, mergeUpstream.merge),
    post('/mirror-sync', {
      id: 'repoMirrorSync', tag: 'repository', summary: 'Fetch from a pull mirror\'s remote now', responses: { 200: null },
    }, reqCodeWriter, migrate.mirrorSync),
    post('/transfer/accept', {
      id: 'acceptRepoTransfer', tag: 'repository', summary: 'Take a repository offered to the caller', responses: { 202: 'Repository' },
    }, transfer.accept),
    post('/transfer/reject', {
      id: 'rejectRepoTransfer', tag: 'repository', summary: 'Turn down a repository offered to the caller', responses: { 200: 'Repository' },
    }, transfer.reject),
  ]),
  group({ name: 'repository visitors', prefix: R, guards: repoVisitors() }, [
    get('/signing-key.gpg', {
      id: 'repoSigningKey', tag: 'repository', summary: 'The public GPG key that signs commits this repository\'s server-side changes make',
      responses: { 200: { type: 'string' } }, produces: ['text/plain'],
    }, signing.signingKeyGpg),
    get('/signing-key.pub', {
      id: 'repoSigningKeySSH', tag: 'repository', summary: 'The public SSH key that signs commits this repository\'s server-side changes make',
      responses: { 200: { type: 'string' } }, produces: ['text/plain'],
    }, signing.signingKeySsh),
  ]),
];
