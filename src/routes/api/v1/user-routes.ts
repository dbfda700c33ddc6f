import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { assignRepo, assignUser, byId, currentUser, currentUserRepos, repoScope, tokenOwners, userScope, userVisitors } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const activity = lazyModule(() => import('./activity'));
const avatars = lazyModule(() => import('./avatars'));
const blocks = lazyModule(() => import('./blocks'));
const emails = lazyModule(() => import('./emails'));
const follows = lazyModule(() => import('./follows'));
const gpgKeys = lazyModule(() => import('./gpg-keys'));
const issueTimes = lazyModule(() => import('./issue-times'));
const keys = lazyModule(() => import('./keys'));
const oauth2Apps = lazyModule(() => import('./oauth2-apps'));
const repos = lazyModule(() => import('./repos'));
const stars = lazyModule(() => import('./stars'));
const tokens = lazyModule(() => import('./tokens'));
const users = lazyModule(() => import('./users'));

// Users: the caller's account (`/user`) and other users (`/users/{username}`).

export const userRoutes: RouteGroup[] = [
  group({ name: 'the caller', guards: currentUser }, [
    get('/user', { id: 'userGetCurrent', tag: 'user', summary: 'The signed-in caller', responses: { 200: 'User' } }, users.getCurrent),
    get('/user/settings', { id: 'getUserSettings', tag: 'user', summary: 'The caller\'s preferences', responses: { 200: ['UserSettings'] } }, users.getSettings),
    patch('/user/settings', {
      id: 'updateUserSettings', tag: 'user', summary: 'Change the caller\'s preferences', body: users.settingsSchema,
      responses: { 200: ['UserSettings'] },
    }, users.patchSettings),
    get('/user/emails', { id: 'userListEmails', tag: 'user', summary: 'The caller\'s e-mail addresses', responses: { 200: ['Email'] } }, emails.list),
    post('/user/emails', {
      id: 'userAddEmail', tag: 'user', summary: 'Add e-mail addresses to the caller\'s account', body: emails.addSchema,
      responses: { 201: ['Email'] },
    }, emails.add),
    del('/user/emails', {
      id: 'userDeleteEmail', tag: 'user', summary: 'Remove e-mail addresses from the caller\'s account', body: emails.removeSchema,
      responses: { 204: null },
    }, emails.remove),
    post('/user/avatar', {
      id: 'userUpdateAvatar', tag: 'user', summary: 'Upload the caller\'s avatar (base64)', body: avatars.userAvatarSchema,
      responses: { 204: null },
    }, avatars.updateUserAvatar),
    del('/user/avatar', { id: 'userDeleteAvatar', tag: 'user', summary: 'Go back to the generated avatar', responses: { 204: null } }, avatars.deleteUserAvatar),
    get('/user/applications/oauth2', {
      id: 'userGetOauth2Application', tag: 'user', summary: 'OAuth2 applications the caller registered', query: paging,
      responses: { 200: ['OAuth2Application'] },
    }, oauth2Apps.list),
    post('/user/applications/oauth2', {
      id: 'userCreateOAuth2Application', tag: 'user', summary: 'Register an OAuth2 application; its secret is shown once',
      body: { of: oauth2Apps.optionsSchema, required: true }, responses: { 201: 'OAuth2Application' },
    }, oauth2Apps.create),
    get('/user/subscriptions', {
      id: 'userCurrentListSubscriptions', tag: 'user', summary: 'Repositories the caller watches', query: paging,
      responses: { 200: ['Repository'] },
    }, stars.mySubscriptions),
    get('/user/blocks', { id: 'userListBlocks', tag: 'user', summary: 'Users the caller blocks', query: paging, responses: { 200: ['User'] } }, blocks((m) => m.user.list)),
    get('/user/blocks/{username}', {
      id: 'userCheckUserBlock', tag: 'user', summary: 'Whether the caller blocks a user (204 or 404)', responses: { 204: null },
    }, blocks((m) => m.user.check)),
    put('/user/blocks/{username}', {
      id: 'userBlockUser', tag: 'user', summary: 'Block a user from interacting with the caller', query: [q.str('note')], responses: { 204: null },
    }, blocks((m) => m.user.block)),
    del('/user/blocks/{username}', { id: 'userUnblockUser', tag: 'user', summary: 'Lift the caller\'s block on a user', responses: { 204: null } }, blocks((m) => m.user.unblock)),
    get('/user/followers', {
      id: 'userCurrentListFollowers', tag: 'user', summary: 'Users who follow the caller', query: paging, responses: { 200: ['User'] },
    }, follows.myFollowers),
    get('/user/following', {
      id: 'userCurrentListFollowing', tag: 'user', summary: 'Users the caller follows', query: paging, responses: { 200: ['User'] },
    }, follows.myFollowing),
    get('/user/following/{username}', {
      id: 'userCurrentCheckFollowing', tag: 'user', summary: 'Whether the caller follows a user (204 or 404)', responses: { 204: null },
    }, assignUser, follows.checkMine),
    put('/user/following/{username}', {
      id: 'userCurrentPutFollow', tag: 'user', summary: 'Start following a user', responses: { 204: null },
    }, assignUser, follows.follow),
    del('/user/following/{username}', {
      id: 'userCurrentDeleteFollow', tag: 'user', summary: 'Stop following a user', responses: { 204: null },
    }, assignUser, follows.unfollow),
    get('/user/keys', {
      id: 'userCurrentListKeys', tag: 'user', summary: 'The caller\'s SSH keys', query: [q.str('fingerprint'), ...paging],
      responses: { 200: ['PublicKey'] },
    }, keys.listMine),
    post('/user/keys', {
      id: 'userCurrentPostKey', tag: 'user', summary: 'Add an SSH key to the caller\'s account', body: keys.createSchema,
      responses: { 201: 'PublicKey' },
    }, keys.createMine),
    get('/user/keys/{id}', {
      id: 'userCurrentGetKey', tag: 'user', summary: 'One of the caller\'s SSH keys', params: { id: 'int64' }, responses: { 200: 'PublicKey' },
    }, keys.get),
    del('/user/keys/{id}', {
      id: 'userCurrentDeleteKey', tag: 'user', summary: 'Remove one of the caller\'s SSH keys', params: { id: 'int64' }, responses: { 204: null },
    }, keys.remove),
    get('/user/gpg_keys', {
      id: 'userCurrentListGPGKeys', tag: 'user', summary: 'The caller\'s GPG keys', query: paging, responses: { 200: ['GPGKey'] },
    }, gpgKeys.listMine),
    post('/user/gpg_keys', {
      id: 'userCurrentPostGPGKey', tag: 'user', summary: 'Add a GPG key to the caller\'s account',
      body: { of: gpgKeys.createSchema, param: 'Form' }, responses: { 201: 'GPGKey' },
    }, gpgKeys.create),
    get('/user/gpg_keys/{id}', {
      id: 'userCurrentGetGPGKey', tag: 'user', summary: 'One of the caller\'s GPG keys', params: { id: 'int64' }, responses: { 200: 'GPGKey' },
    }, gpgKeys.get),
    del('/user/gpg_keys/{id}', {
      id: 'userCurrentDeleteGPGKey', tag: 'user', summary: 'Remove one of the caller\'s GPG keys', params: { id: 'int64' },
      responses: { 204: null },
    }, gpgKeys.remove),
    get('/user/gpg_key_token', {
      id: 'getVerificationToken', tag: 'user', summary: 'The text to sign to prove a GPG key is the caller\'s',
      responses: { 200: { type: 'string' } }, produces: ['text/plain'],
    }, gpgKeys.token),
    post('/user/gpg_key_verify', {
      id: 'userVerifyGPGKey', tag: 'user', summary: 'Prove a GPG key is the caller\'s with a signature of the token', body: gpgKeys.verifySchema,
      responses: { 201: 'GPGKey' },
    }, gpgKeys.verify),
    get('/user/stopwatches', {
      id: 'userGetStopWatches', tag: 'user', summary: 'The caller\'s running stopwatches', query: paging, responses: { 200: ['StopWatch'] },
    }, issueTimes.myStopwatches),
    get('/user/times', {
      id: 'userCurrentTrackedTimes', tag: 'user', summary: 'Time the caller recorded, across repositories',
      query: [q.int('page'), q.int('limit'), q.dateTime('since'), q.dateTime('before')], responses: { 200: ['TrackedTime'] },
    }, issueTimes.myTimes),
  ]),
  group({ name: 'the caller, by id', guards: byId(currentUser) }, [
    get('/user/applications/oauth2/{id}', {
      id: 'userGetOAuth2Application', tag: 'user', summary: 'One OAuth2 application the caller registered', params: { id: 'int64' },
      responses: { 200: 'OAuth2Application' },
    }, oauth2Apps.get),
    patch('/user/applications/oauth2/{id}', {
      id: 'userUpdateOAuth2Application', tag: 'user', summary: 'Change an OAuth2 application; it gets a new secret, shown once',
      params: { id: 'int64' }, body: { of: oauth2Apps.optionsSchema, required: true }, responses: { 200: 'OAuth2Application' },
    }, oauth2Apps.update),
    del('/user/applications/oauth2/{id}', {
      id: 'userDeleteOAuth2Application', tag: 'user', summary: 'Remove an OAuth2 application and the grants it holds', params: { id: 'int64' },
      responses: { 204: null },
    }, oauth2Apps.remove),
  ]),
  group({ name: 'user scope', guards: userScope }, [
    get('/users/search', {
      id: 'userSearch', tag: 'user', summary: 'Find users by name or login', query: [q.str('q'), q.int('uid', { format: 'int64' }), ...paging],
      responses: { 200: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/definitions/User' } }, ok: { type: 'boolean' } } } },
    }, users.search),
  ]),
  group({ name: 'user visitors', guards: userVisitors }, [
    get('/users/{username}', { id: 'userGet', tag: 'user', summary: 'One user\'s public profile', responses: { 200: 'User' } }, users.getUser),
    get('/users/{username}/starred', {
      id: 'userListStarred', tag: 'user', summary: 'Repositories a user starred', query: paging, responses: { 200: ['Repository'] },
    }, stars.starsEnabled, stars.userStarred),
    get('/users/{username}/subscriptions', {
      id: 'userListSubscriptions', tag: 'user', summary: 'Repositories a user watches', query: paging, responses: { 200: ['Repository'] },
    }, stars.userSubscriptions),
    get('/users/{username}/followers', {
      id: 'userListFollowers', tag: 'user', summary: 'Users who follow a user', query: paging, responses: { 200: ['User'] },
    }, follows.userFollowers),
    get('/users/{username}/following', {
      id: 'userListFollowing', tag: 'user', summary: 'Users a user follows', query: paging, responses: { 200: ['User'] },
    }, follows.userFollowing),
    get('/users/{username}/following/{target}', {
      id: 'userCheckFollowing', tag: 'user', summary: 'Whether one user follows another (204 or 404)', responses: { 204: null },
    }, follows.checkUser),
    get('/users/{username}/heatmap', {
      id: 'userGetHeatmapData', tag: 'user', summary: 'A user\'s contributions per day, for the activity heatmap',
      responses: { 200: ['UserHeatmapData'] },
    }, activity.heatmap),
    get('/users/{username}/activities/feeds', {
      id: 'userListActivityFeeds', tag: 'user', summary: 'A user\'s recent activity',
      query: [q.bool('only-performed-by'), q.date('date'), ...paging], responses: { 200: ['Activity'] },
    }, activity.userFeeds),
    get('/users/{username}/keys', {
      id: 'userListKeys', tag: 'user', summary: 'A user\'s public SSH keys', query: [q.str('fingerprint'), ...paging],
      responses: { 200: ['PublicKey'] },
    }, keys.listOfUser),
    get('/users/{username}/gpg_keys', {
      id: 'userListGPGKeys', tag: 'user', summary: 'A user\'s public GPG keys', query: paging, responses: { 200: ['GPGKey'] },
    }, gpgKeys.listOfUser),
  ]),
  group({ name: 'token owners', guards: tokenOwners }, [
    get('/users/{username}/tokens', {
      id: 'userGetTokens', tag: 'user', summary: 'Access tokens of an account (names and scopes, never the tokens)', query: paging,
      responses: { 200: ['AccessToken'] },
    }, tokens.list),
    post('/users/{username}/tokens', {
      id: 'userCreateToken', tag: 'user', summary: 'Make an access token; the token is shown once', body: tokens.createSchema,
      responses: { 201: 'AccessToken' },
    }, tokens.create),
    del('/users/{username}/tokens/{token}', {
      id: 'userDeleteAccessToken', tag: 'user', summary: 'Revoke an access token, by id or name', responses: { 204: null },
    }, tokens.remove),
  ]),
  group({ name: 'the caller, repository scope', guards: currentUserRepos }, [
    get('/user/repos', {
      id: 'userCurrentListRepos', tag: 'user', summary: 'Repositories the caller owns', query: paging, responses: { 200: ['Repository'] },
    }, repos.listMine),
    post('/user/repos', {
      id: 'createCurrentUserRepo', tag: 'repository', summary: 'Make a repository owned by the caller', body: repos.createSchema,
      responses: { 201: 'Repository' },
    }, repos.createForDoer),
    get('/user/starred', {
      id: 'userCurrentListStarred', tag: 'user', summary: 'Repositories the caller starred', query: paging, responses: { 200: ['Repository'] },
    }, stars.starsEnabled, stars.myStarred),
    get('/user/starred/{owner}/{repo}', {
      id: 'userCurrentCheckStarring', tag: 'user', summary: 'Whether the caller starred a repository (204 or 404)', responses: { 204: null },
    }, stars.starsEnabled, assignRepo, stars.isStarring),
    put('/user/starred/{owner}/{repo}', {
      id: 'userCurrentPutStar', tag: 'user', summary: 'Star a repository', responses: { 204: null },
    }, stars.starsEnabled, assignRepo, stars((m) => m.star(true))),
    del('/user/starred/{owner}/{repo}', {
      id: 'userCurrentDeleteStar', tag: 'user', summary: 'Take back a star', responses: { 204: null },
    }, stars.starsEnabled, assignRepo, stars((m) => m.star(false))),
  ]),
  group({ name: 'repository scope', guards: repoScope }, [
    get('/users/{username}/repos', {
      id: 'userListRepos', tag: 'user', summary: 'A user\'s repositories the caller can see', query: paging, responses: { 200: ['Repository'] },
    }, assignUser, repos.listOfUser),
  ]),
];
