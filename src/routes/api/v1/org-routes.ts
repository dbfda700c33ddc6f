import { assignUser } from '../../middleware/guards';
import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { currentUserOrgs, orgMembers, orgOwners, orgScope, orgSignedIn, orgSignedVisitors, orgVisitors } from './route-chains';
import * as activity from './activity';
import * as blocks from './blocks';
import * as orgLabels from './org-labels';
import * as orgMembership from './org-members';
import * as orgs from './orgs';
import * as teams from './teams';

// Organizations, their members, blocks, labels and teams.

export const orgRoutes: RouteGroup[] = [
  group({ name: 'organization scope', guards: orgScope }, [
    get('/orgs', ['organization', 'orgGetAll', 'Get list of organizations'], orgs.list),
  ]),
  group({ name: 'organization scope, signed in', guards: orgSignedIn }, [
    post('/orgs', ['organization', 'orgCreate', 'Create an organization'], orgs.create),
    get('/teams/{id}', ['organization', 'orgGetTeam', 'Get a team'], teams.get),
    patch('/teams/{id}', ['organization', 'orgEditTeam', 'Edit a team'], teams.edit),
    del('/teams/{id}', ['organization', 'orgDeleteTeam', 'Delete a team'], teams.remove),
    get('/teams/{id}/members', ['organization', 'orgListTeamMembers', 'List a team\'s members'], teams.members),
    get('/teams/{id}/members/{username}', ['organization', 'orgListTeamMember', 'List a particular member of team'], teams.member),
    put('/teams/{id}/members/{username}', ['organization', 'orgAddTeamMember', 'Add a team member'], teams.addTeamMember),
    del('/teams/{id}/members/{username}', ['organization', 'orgRemoveTeamMember', 'Remove a team member'], teams.removeTeamMember),
    get('/teams/{id}/repos', ['organization', 'orgListTeamRepos', 'List a team\'s repos'], teams.repos),
    get('/teams/{id}/repos/{org}/{repo}', ['organization', 'orgListTeamRepo', 'List a particular repo of team'], teams.repo),
    put('/teams/{id}/repos/{org}/{repo}', ['organization', 'orgAddTeamRepository', 'Add a repository to a team'], teams.setRepo(true)),
    del('/teams/{id}/repos/{org}/{repo}', ['organization', 'orgRemoveTeamRepository', 'Remove a repository from a team'], teams.setRepo(false)),
    get('/teams/{id}/activities/feeds', ['organization', 'orgListTeamActivityFeeds', 'List a team\'s activity feeds'], teams.feeds),
  ]),
  group({ name: 'the caller, user or organization scope', guards: currentUserOrgs }, [
    get('/user/orgs', ['organization', 'orgListCurrentUserOrgs', 'List the current user\'s organizations'], orgs.listMine),
    get('/users/{username}/orgs', ['organization', 'orgListUserOrgs', 'List a user\'s organizations'], assignUser, orgs.listOfUser),
    get('/users/{username}/orgs/{org}/permissions', ['organization', 'orgGetUserPermissions', 'Get user permissions in organization'], assignUser, orgs.permissions),
    get('/user/teams', ['user', 'userListTeams', 'List all the teams a user belongs to'], teams.listMine),
  ]),
  group({ name: 'organization visitors', guards: orgVisitors }, [
    get('/orgs/{org}', ['organization', 'orgGet', 'Get an organization'], orgs.get),
    get('/orgs/{org}/repos', ['organization', 'orgListRepos', 'List an organization\'s repos'], orgs.listRepos),
    get('/orgs/{org}/public_members', ['organization', 'orgListPublicMembers', 'List an organization\'s public members'], orgMembership.listPublic),
    get('/orgs/{org}/public_members/{username}', ['organization', 'orgIsPublicMember', 'Check if a user is a public member of an organization'], orgMembership.checkPublic),
    get('/orgs/{org}/labels', ['organization', 'orgListLabels', 'List an organization\'s labels'], orgLabels.list),
    get('/orgs/{org}/activities/feeds', ['organization', 'orgListActivityFeeds', 'List an organization\'s activity feeds'], activity.orgFeeds),
  ]),
  group({ name: 'organization owners', guards: orgOwners }, [
    patch('/orgs/{org}', ['organization', 'orgEdit', 'Edit an organization'], orgs.edit),
    del('/orgs/{org}', ['organization', 'orgDelete', 'Delete an organization'], orgs.remove),
    post('/orgs/{org}/rename', ['organization', 'renameOrg', 'Rename an organization'], orgs.rename),
    post('/orgs/{org}/avatar', ['organization', 'orgUpdateAvatar', 'Update Avatar'], orgs.updateAvatar),
    del('/orgs/{org}/avatar', ['organization', 'orgDeleteAvatar', 'Delete Avatar'], orgs.removeAvatar),
    del('/orgs/{org}/members/{username}', ['organization', 'orgDeleteMember', 'Remove a member from an organization'], orgMembership.remove),
    get('/orgs/{org}/blocks', ['organization', 'organizationListBlocks', 'List users blocked by the organization'], blocks.org.list),
    get('/orgs/{org}/blocks/{username}', ['organization', 'organizationCheckUserBlock', 'Check if a user is blocked by the organization'], blocks.org.check),
    put('/orgs/{org}/blocks/{username}', ['organization', 'organizationBlockUser', 'Block a user'], blocks.org.block),
    del('/orgs/{org}/blocks/{username}', ['organization', 'organizationUnblockUser', 'Unblock a user'], blocks.org.unblock),
    post('/orgs/{org}/labels', ['organization', 'orgCreateLabel', 'Create a label for an organization'], orgLabels.create),
    patch('/orgs/{org}/labels/{id}', ['organization', 'orgEditLabel', 'Update a label'], orgLabels.edit),
    del('/orgs/{org}/labels/{id}', ['organization', 'orgDeleteLabel', 'Delete a label'], orgLabels.remove),
    post('/orgs/{org}/teams', ['organization', 'orgCreateTeam', 'Create a team'], teams.create),
  ]),
  group({ name: 'organization visitors, signed in', guards: orgSignedVisitors }, [
    post('/orgs/{org}/repos', ['organization', 'createOrgRepo', 'Create a repository in an organization'], orgs.createRepo),
    post('/org/{org}/repos', ['organization', 'createOrgRepoDeprecated', 'Create a repository in an organization'], orgs.createRepo),
    get('/orgs/{org}/members', ['organization', 'orgListMembers', 'List an organization\'s members'], orgMembership.list),
    get('/orgs/{org}/members/{username}', ['organization', 'orgIsMember', 'Check if a user is a member of an organization'], orgMembership.check),
    get('/orgs/{org}/labels/{id}', ['organization', 'orgGetLabel', 'Get a single label'], orgLabels.get),
    get('/orgs/{org}/teams', ['organization', 'orgListTeams', 'List an organization\'s teams'], teams.listOfOrg),
    get('/orgs/{org}/teams/search', ['organization', 'teamSearch', 'Search for teams within an organization'], teams.search),
  ]),
  group({ name: 'organization members', guards: orgMembers }, [
    put('/orgs/{org}/public_members/{username}', ['organization', 'orgPublicizeMember', 'Publicize a user\'s membership'], orgMembership.publicize),
    del('/orgs/{org}/public_members/{username}', ['organization', 'orgConcealMember', 'Conceal a user\'s membership'], orgMembership.conceal),
  ]),
];
