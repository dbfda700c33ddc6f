import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { assignUser, currentUserOrgs, orgMembers, orgOwners, orgScope, orgSignedIn, orgSignedVisitors, orgVisitors } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const activity = lazyModule(() => import('./activity'));
const blocks = lazyModule(() => import('./blocks'));
const orgLabels = lazyModule(() => import('./org-labels'));
const orgMembership = lazyModule(() => import('./org-members'));
const orgs = lazyModule(() => import('./orgs'));
const teams = lazyModule(() => import('./teams'));
const repos = lazyModule(() => import('./repos'));

// Organizations, their members, blocks, labels and teams.

export const orgRoutes: RouteGroup[] = [
  group({ name: 'organization scope', guards: orgScope }, [
    get('/orgs', { id: 'orgGetAll', tag: 'organization', summary: 'Organizations the caller can see', query: paging, responses: { 200: ['Organization'] } }, orgs.list),
  ]),
  group({ name: 'organization scope, signed in', guards: orgSignedIn }, [
    post('/orgs', {
      id: 'orgCreate', tag: 'organization', summary: 'Make an organization owned by the caller',
      body: { of: orgs.createSchema, param: 'organization', required: true }, responses: { 201: 'Organization' },
    }, orgs.create),
    get('/teams/{id}', { id: 'orgGetTeam', tag: 'organization', summary: 'One team', params: { id: 'int64' }, responses: { 200: 'Team' } }, teams.get),
    patch('/teams/{id}', {
      id: 'orgEditTeam', tag: 'organization', summary: 'Change a team\'s name, permission or units', params: { id: 'integer' },
      body: teams.editSchema, responses: { 200: 'Team' },
    }, teams.edit),
    del('/teams/{id}', { id: 'orgDeleteTeam', tag: 'organization', summary: 'Remove a team', params: { id: 'int64' }, responses: { 204: null } }, teams.remove),
    get('/teams/{id}/members', {
      id: 'orgListTeamMembers', tag: 'organization', summary: 'Members of a team', params: { id: 'int64' }, query: paging,
      responses: { 200: ['User'] },
    }, teams.members),
    get('/teams/{id}/members/{username}', {
      id: 'orgListTeamMember', tag: 'organization', summary: 'One member of a team (404 when not a member)', params: { id: 'int64' },
      responses: { 200: 'User' },
    }, teams.member),
    put('/teams/{id}/members/{username}', {
      id: 'orgAddTeamMember', tag: 'organization', summary: 'Put a user in a team', params: { id: 'int64' }, responses: { 204: null },
    }, teams.addTeamMember),
    del('/teams/{id}/members/{username}', {
      id: 'orgRemoveTeamMember', tag: 'organization', summary: 'Take a user out of a team', params: { id: 'int64' }, responses: { 204: null },
    }, teams.removeTeamMember),
    get('/teams/{id}/repos', {
      id: 'orgListTeamRepos', tag: 'organization', summary: 'Repositories a team has access to', params: { id: 'int64' }, query: paging,
      responses: { 200: ['Repository'] },
    }, teams.repos),
    get('/teams/{id}/repos/{org}/{repo}', {
      id: 'orgListTeamRepo', tag: 'organization', summary: 'One repository of a team (404 when the team has no access)', params: { id: 'int64' },
      responses: { 200: 'Repository' },
    }, teams.repo),
    put('/teams/{id}/repos/{org}/{repo}', {
      id: 'orgAddTeamRepository', tag: 'organization', summary: 'Give a team access to a repository', params: { id: 'int64' },
      responses: { 204: null },
    }, teams((m) => m.setRepo(true))),
    del('/teams/{id}/repos/{org}/{repo}', {
      id: 'orgRemoveTeamRepository', tag: 'organization', summary: 'Take a repository away from a team', params: { id: 'int64' },
      responses: { 204: null },
    }, teams((m) => m.setRepo(false))),
    get('/teams/{id}/activities/feeds', {
      id: 'orgListTeamActivityFeeds', tag: 'organization', summary: 'Recent activity in a team\'s repositories', params: { id: 'int64' },
      query: [q.date('date'), ...paging], responses: { 200: ['Activity'] },
    }, teams.feeds),
  ]),
  group({ name: 'the caller, user or organization scope', guards: currentUserOrgs }, [
    get('/user/orgs', {
      id: 'orgListCurrentUserOrgs', tag: 'organization', summary: 'Organizations the caller belongs to', query: paging,
      responses: { 200: ['Organization'] },
    }, orgs.listMine),
    get('/users/{username}/orgs', {
      id: 'orgListUserOrgs', tag: 'organization', summary: 'Organizations a user belongs to, as the caller may see them', query: paging,
      responses: { 200: ['Organization'] },
    }, assignUser, orgs.listOfUser),
    get('/users/{username}/orgs/{org}/permissions', {
      id: 'orgGetUserPermissions', tag: 'organization', summary: 'What a user may do in an organization',
      responses: { 200: 'OrganizationPermissions' },
    }, assignUser, orgs.permissions),
    get('/user/teams', {
      id: 'userListTeams', tag: 'user', summary: 'Teams the caller belongs to, across organizations', query: paging, responses: { 200: ['Team'] },
    }, teams.listMine),
  ]),
  group({ name: 'organization visitors', guards: orgVisitors }, [
    get('/orgs/{org}', { id: 'orgGet', tag: 'organization', summary: 'One organization', responses: { 200: 'Organization' } }, orgs.get),
    get('/orgs/{org}/repos', {
      id: 'orgListRepos', tag: 'organization', summary: 'An organization\'s repositories the caller can see', query: paging,
      responses: { 200: ['Repository'] },
    }, orgs.listRepos),
    get('/orgs/{org}/public_members', {
      id: 'orgListPublicMembers', tag: 'organization', summary: 'Members who show their membership publicly', query: paging,
      responses: { 200: ['User'] },
    }, orgMembership.listPublic),
    get('/orgs/{org}/public_members/{username}', {
      id: 'orgIsPublicMember', tag: 'organization', summary: 'Whether a user shows their membership publicly (204 or 404)',
      responses: { 204: null },
    }, orgMembership.checkPublic),
    get('/orgs/{org}/labels', {
      id: 'orgListLabels', tag: 'organization', summary: 'Labels every repository of the organization can use', query: paging,
      responses: { 200: ['Label'] },
    }, orgLabels.list),
    get('/orgs/{org}/activities/feeds', {
      id: 'orgListActivityFeeds', tag: 'organization', summary: 'Recent activity in an organization\'s repositories',
      query: [q.date('date'), ...paging], responses: { 200: ['Activity'] },
    }, activity.orgFeeds),
  ]),
  group({ name: 'organization owners', guards: orgOwners }, [
    patch('/orgs/{org}', {
      id: 'orgEdit', tag: 'organization', summary: 'Change an organization\'s profile and settings', body: { of: orgs.editSchema, required: true },
      responses: { 200: 'Organization' },
    }, orgs.edit),
    del('/orgs/{org}', { id: 'orgDelete', tag: 'organization', summary: 'Delete an organization (it must own no repositories)', responses: { 204: null } }, orgs.remove),
    post('/orgs/{org}/rename', {
      id: 'renameOrg', tag: 'organization', summary: 'Give an organization a new name', body: { of: orgs.renameSchema, required: true },
      responses: { 204: null },
    }, orgs.rename),
    post('/orgs/{org}/avatar', {
      id: 'orgUpdateAvatar', tag: 'organization', summary: 'Upload an organization\'s avatar (base64)', body: orgs.avatarSchema,
      responses: { 204: null },
    }, orgs.updateAvatar),
    del('/orgs/{org}/avatar', { id: 'orgDeleteAvatar', tag: 'organization', summary: 'Go back to the generated avatar', responses: { 204: null } }, orgs.removeAvatar),
    del('/orgs/{org}/members/{username}', {
      id: 'orgDeleteMember', tag: 'organization', summary: 'Take a user out of the organization and all its teams', responses: { 204: null },
    }, orgMembership.remove),
    get('/orgs/{org}/blocks', {
      id: 'organizationListBlocks', tag: 'organization', summary: 'Users the organization blocks', query: paging, responses: { 200: ['User'] },
    }, blocks((m) => m.org.list)),
    get('/orgs/{org}/blocks/{username}', {
      id: 'organizationCheckUserBlock', tag: 'organization', summary: 'Whether the organization blocks a user (204 or 404)',
      responses: { 204: null },
    }, blocks((m) => m.org.check)),
    put('/orgs/{org}/blocks/{username}', {
      id: 'organizationBlockUser', tag: 'organization', summary: 'Block a user from the organization\'s repositories', query: [q.str('note')],
      responses: { 204: null },
    }, blocks((m) => m.org.block)),
    del('/orgs/{org}/blocks/{username}', {
      id: 'organizationUnblockUser', tag: 'organization', summary: 'Lift an organization\'s block on a user', responses: { 204: null },
    }, blocks((m) => m.org.unblock)),
    post('/orgs/{org}/labels', {
      id: 'orgCreateLabel', tag: 'organization', summary: 'Add a label for all of the organization\'s repositories', body: orgLabels.createSchema,
      responses: { 201: 'Label' },
    }, orgLabels.create),
    patch('/orgs/{org}/labels/{id}', {
      id: 'orgEditLabel', tag: 'organization', summary: 'Change an organization label', params: { id: 'int64' }, body: orgLabels.editSchema,
      responses: { 200: 'Label' },
    }, orgLabels.edit),
    del('/orgs/{org}/labels/{id}', {
      id: 'orgDeleteLabel', tag: 'organization', summary: 'Remove an organization label', params: { id: 'int64' }, responses: { 204: null },
    }, orgLabels.remove),
    post('/orgs/{org}/teams', {
      id: 'orgCreateTeam', tag: 'organization', summary: 'Add a team to the organization', body: teams.createSchema, responses: { 201: 'Team' },
    }, teams.create),
  ]),
  group({ name: 'organization visitors, signed in', guards: orgSignedVisitors }, [
    post('/orgs/{org}/repos', {
      id: 'createOrgRepo', tag: 'organization', summary: 'Make a repository owned by the organization', body: repos.createSchema,
      responses: { 201: 'Repository' },
    }, orgs.createRepo),
    post('/org/{org}/repos', {
      id: 'createOrgRepoDeprecated', tag: 'organization', summary: 'Make a repository owned by the organization (older path)', deprecated: true,
      body: repos.createSchema, responses: { 201: 'Repository' },
    }, orgs.createRepo),
    get('/orgs/{org}/members', {
      id: 'orgListMembers', tag: 'organization', summary: 'Members of an organization', query: paging, responses: { 200: ['User'] },
    }, orgMembership.list),
    get('/orgs/{org}/members/{username}', {
      id: 'orgIsMember', tag: 'organization', summary: 'Whether a user is a member (204, or 404 / 302 when the caller cannot tell)',
      responses: { 204: null },
    }, orgMembership.check),
    get('/orgs/{org}/labels/{id}', {
      id: 'orgGetLabel', tag: 'organization', summary: 'One organization label', params: { id: 'int64' }, namesToo: ['id'], responses: { 200: 'Label' },
    }, orgLabels.get),
  ]),
  group({ name: 'organization members', guards: orgMembers }, [
    // Gitea's reqOrgMembership: the organization's teams are listed to its members only (403 to others).
    get('/orgs/{org}/teams', {
      id: 'orgListTeams', tag: 'organization', summary: 'Teams of an organization', query: paging, responses: { 200: ['Team'] },
    }, teams.listOfOrg),
    get('/orgs/{org}/teams/search', {
      id: 'teamSearch', tag: 'organization', summary: 'Find an organization\'s teams by name',
      query: [q.str('q'), q.bool('include_desc'), ...paging],
      responses: { 200: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/definitions/Team' } }, ok: { type: 'boolean' } } } },
    }, teams.search),
    put('/orgs/{org}/public_members/{username}', {
      id: 'orgPublicizeMember', tag: 'organization', summary: 'Show one\'s membership on the organization\'s page', responses: { 204: null },
    }, orgMembership.publicize),
    del('/orgs/{org}/public_members/{username}', {
      id: 'orgConcealMember', tag: 'organization', summary: 'Hide one\'s membership from the organization\'s page', responses: { 204: null },
    }, orgMembership.conceal),
  ]),
];
