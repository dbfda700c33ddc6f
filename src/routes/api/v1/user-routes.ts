import { assignUser } from '../../middleware/guards';
import { assignRepo } from '../../middleware/repo-guards';
import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { byId, currentUser, currentUserRepos, repoScope, tokenOwners, userScope, userVisitors } from './route-chains';
import * as activity from './activity';
import * as avatars from './avatars';
import * as blocks from './blocks';
import * as emails from './emails';
import * as follows from './follows';
import * as gpgKeys from './gpg-keys';
import * as issueTimes from './issue-times';
import * as keys from './keys';
import * as oauth2Apps from './oauth2-apps';
import * as repos from './repos';
import * as stars from './stars';
import * as tokens from './tokens';
import * as users from './users';

// Users: the caller's account (`/user`) and other users (`/users/{username}`).

export const userRoutes: RouteGroup[] = [
  group({ name: 'the caller', guards: currentUser }, [
    get('/user', ['user', 'userGetCurrent', 'Get the authenticated user'], users.getCurrent),
    get('/user/settings', ['user', 'getUserSettings', 'Get user settings'], users.getSettings),
    patch('/user/settings', ['user', 'updateUserSettings', 'Update user settings'], users.patchSettings),
    get('/user/emails', ['user', 'userListEmails', 'List the authenticated user\'s email addresses'], emails.list),
    post('/user/emails', ['user', 'userAddEmail', 'Add email addresses'], emails.add),
    del('/user/emails', ['user', 'userDeleteEmail', 'Delete email addresses'], emails.remove),
    post('/user/avatar', ['user', 'userUpdateAvatar', 'Update Avatar'], avatars.updateUserAvatar),
    del('/user/avatar', ['user', 'userDeleteAvatar', 'Delete Avatar'], avatars.deleteUserAvatar),
    get('/user/applications/oauth2', ['user', 'userGetOauth2Application', 'List the authenticated user\'s oauth2 applications'], oauth2Apps.list),
    post('/user/applications/oauth2', ['user', 'userCreateOAuth2Application', 'creates a new OAuth2 application'], oauth2Apps.create),
    get('/user/subscriptions', ['user', 'userCurrentListSubscriptions', 'List repositories watched by the authenticated user'], stars.mySubscriptions),
    get('/user/blocks', ['user', 'userListBlocks', 'List users blocked by the authenticated user'], blocks.user.list),
    get('/user/blocks/{username}', ['user', 'userCheckUserBlock', 'Check if a user is blocked by the authenticated user'], blocks.user.check),
    put('/user/blocks/{username}', ['user', 'userBlockUser', 'Block a user'], blocks.user.block),
    del('/user/blocks/{username}', ['user', 'userUnblockUser', 'Unblock a user'], blocks.user.unblock),
    get('/user/followers', ['user', 'userCurrentListFollowers', 'List the authenticated user\'s followers'], follows.myFollowers),
    get('/user/following', ['user', 'userCurrentListFollowing', 'List the users that the authenticated user is following'], follows.myFollowing),
    get('/user/following/{username}', ['user', 'userCurrentCheckFollowing', 'Check whether a user is followed by the authenticated user'], assignUser, follows.checkMine),
    put('/user/following/{username}', ['user', 'userCurrentPutFollow', 'Follow a user'], assignUser, follows.follow),
    del('/user/following/{username}', ['user', 'userCurrentDeleteFollow', 'Unfollow a user'], assignUser, follows.unfollow),
    get('/user/keys', ['user', 'userCurrentListKeys', 'List the authenticated user\'s public keys'], keys.listMine),
    post('/user/keys', ['user', 'userCurrentPostKey', 'Create a public key'], keys.createMine),
    get('/user/keys/{id}', ['user', 'userCurrentGetKey', 'Get a public key'], keys.get),
    del('/user/keys/{id}', ['user', 'userCurrentDeleteKey', 'Delete a public key'], keys.remove),
    get('/user/gpg_keys', ['user', 'userCurrentListGPGKeys', 'List the authenticated user\'s GPG keys'], gpgKeys.listMine),
    post('/user/gpg_keys', ['user', 'userCurrentPostGPGKey', 'Create a GPG key'], gpgKeys.create),
    get('/user/gpg_keys/{id}', ['user', 'userCurrentGetGPGKey', 'Get a GPG key'], gpgKeys.get),
    del('/user/gpg_keys/{id}', ['user', 'userCurrentDeleteGPGKey', 'Remove a GPG key'], gpgKeys.remove),
    get('/user/gpg_key_token', ['user', 'getVerificationToken', 'Get a Token to verify'], gpgKeys.token),
    post('/user/gpg_key_verify', ['user', 'userVerifyGPGKey', 'Verify a GPG key'], gpgKeys.verify),
    get('/user/stopwatches', ['user', 'userGetStopWatches', 'Get list of all existing stopwatches'], issueTimes.myStopwatches),
    get('/user/times', ['user', 'userCurrentTrackedTimes', 'List the current user\'s tracked times'], issueTimes.myTimes),
  ]),
  group({ name: 'the caller, by id', guards: byId(currentUser) }, [
    get('/user/applications/oauth2/{id}', ['user', 'userGetOAuth2Application', 'get an OAuth2 Application'], oauth2Apps.get),
    patch('/user/applications/oauth2/{id}', ['user', 'userUpdateOAuth2Application', 'update an OAuth2 Application, this includes regenerating the client secret'], oauth2Apps.update),
    del('/user/applications/oauth2/{id}', ['user', 'userDeleteOAuth2Application', 'delete an OAuth2 Application'], oauth2Apps.remove),
  ]),
  group({ name: 'user scope', guards: userScope }, [
    get('/users/search', ['user', 'userSearch', 'Search for users'], users.search),
  ]),
  group({ name: 'user visitors', guards: userVisitors }, [
    get('/users/{username}', ['user', 'userGet', 'Get a user'], users.getUser),
    get('/users/{username}/starred', ['user', 'userListStarred', 'The repos that the given user has starred'], stars.starsEnabled, stars.userStarred),
    get('/users/{username}/subscriptions', ['user', 'userListSubscriptions', 'List the repositories watched by a user'], stars.userSubscriptions),
    get('/users/{username}/followers', ['user', 'userListFollowers', 'List the given user\'s followers'], follows.userFollowers),
    get('/users/{username}/following', ['user', 'userListFollowing', 'List the users that the given user is following'], follows.userFollowing),
    get('/users/{username}/following/{target}', ['user', 'userCheckFollowing', 'Check if one user is following another user'], follows.checkUser),
    get('/users/{username}/heatmap', ['user', 'userGetHeatmapData', 'Get a user\'s heatmap'], activity.heatmap),
    get('/users/{username}/activities/feeds', ['user', 'userListActivityFeeds', 'List a user\'s activity feeds'], activity.userFeeds),
    get('/users/{username}/keys', ['user', 'userListKeys', 'List the given user\'s public keys'], keys.listOfUser),
    get('/users/{username}/gpg_keys', ['user', 'userListGPGKeys', 'List the given user\'s GPG keys'], gpgKeys.listOfUser),
  ]),
  group({ name: 'token owners', guards: tokenOwners }, [
    get('/users/{username}/tokens', ['user', 'userGetTokens', 'List the authenticated user\'s access tokens'], tokens.list),
    post('/users/{username}/tokens', ['user', 'userCreateToken', 'Create an access token'], tokens.create),
    del('/users/{username}/tokens/{token}', ['user', 'userDeleteAccessToken', 'delete an access token'], tokens.remove),
  ]),
  group({ name: 'the caller, repository scope', guards: currentUserRepos }, [
    get('/user/repos', ['user', 'userCurrentListRepos', 'List the repos that the authenticated user owns'], repos.listMine),
    post('/user/repos', ['repository', 'createCurrentUserRepo', 'Create a repository'], repos.createForDoer),
    get('/user/starred', ['user', 'userCurrentListStarred', 'The repos that the authenticated user has starred'], stars.starsEnabled, stars.myStarred),
    get('/user/starred/{owner}/{repo}', ['user', 'userCurrentCheckStarring', 'Whether the authenticated is starring the repo'], stars.starsEnabled, assignRepo, stars.isStarring),
    put('/user/starred/{owner}/{repo}', ['user', 'userCurrentPutStar', 'Star the given repo'], stars.starsEnabled, assignRepo, stars.star(true)),
    del('/user/starred/{owner}/{repo}', ['user', 'userCurrentDeleteStar', 'Unstar the given repo'], stars.starsEnabled, assignRepo, stars.star(false)),
  ]),
  group({ name: 'repository scope', guards: repoScope }, [
    get('/users/{username}/repos', ['user', 'userListRepos', 'List the repos owned by the given user'], assignUser, repos.listOfUser),
  ]),
];
