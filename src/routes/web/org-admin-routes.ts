import { get, group, post, upload, type WebGroup } from './table';
import { AVATAR } from './settings-profile';
import { hookRoutes } from './webhook-forms';
import type { RequestHandler } from 'express';
import { siteAdminPage } from './admin-layout';
import * as admin from './admin-pages';
import * as audit from './admin-audit';
import * as adminRepos from './admin-repos';
import * as adminUsers from './admin-users';
import * as explore from './explore-pages';
import * as migrate from './migrate-pages';
import * as orgs from './org-pages';
import * as orgMore from './org-settings-more';
import * as orgLabels from './org-labels-page';
import * as teams from './org-team-forms';

// The route groups of the site administration (Gitea's /-/admin, since 1.23: `admin` stays a
// valid user name), each carrying its guard chain once. Spliced into webGroups (index.ts)
// before `/{owner}`.

/** The explore tabs beside /explore/repos: what the site's view guards let anyone see. */
export const exploreRoutes = [get('/explore/users', explore.exploreUsers), get('/explore/organizations', explore.exploreOrgs)];

/**
 * `signedIn`: the table's chain of signed-in pages (index.ts: the header's counts included);
 * site administration adds the admin check (403 otherwise, as Gitea's adminReq).
 */
export const orgAdminGroups = (signedIn: readonly RequestHandler[]): WebGroup[] => {
  const siteAdmins = [...signedIn, siteAdminPage];
  return [
    // The migration form and its progress: signed in; the migrate service checks the owner.
    group('repo-migrate', signedIn, [
      get('/repo/migrate', migrate.migrateForm),
      post('/repo/migrate', migrate.migratePost),
      get('/repo/migrate/:owner/:repo', migrate.migrateProgress),
    ]),
    // Signed in; the services let only the organization's owners (and site admins) through.
    group('org-settings', signedIn, [
      get('/org/create', orgs.createOrgPage),
      post('/org/create', orgs.createOrgPost),
      get('/org/:org/settings', orgs.orgSettingsPage),
      post('/org/:org/settings', orgs.orgSettingsPost),
      upload('/org/:org/settings/avatar', AVATAR, orgs.orgAvatarPost),
      get('/org/:org/settings/avatar/delete', orgs.orgAvatarDeletePage),
      post('/org/:org/settings/avatar/delete', orgs.orgAvatarDelete),
      get('/org/:org/settings/delete', orgs.orgDeletePage),
      post('/org/:org/settings/delete', orgs.orgDeletePost),
      ...hookRoutes('/org/:org/settings/hooks', orgMore.orgHooks),
      get('/org/:org/settings/labels', orgLabels.orgLabels),
      post('/org/:org/settings/labels/new', orgLabels.orgLabelCreate),
      post('/org/:org/settings/labels/:id/edit', orgLabels.orgLabelEdit),
      get('/org/:org/settings/labels/:id/delete', orgLabels.orgLabelDeletePage),
      post('/org/:org/settings/labels/:id/delete', orgLabels.orgLabelDelete),
      get('/org/:org/settings/blocked_users', orgMore.blockedUsers),
      post('/org/:org/settings/blocked_users/:action', orgMore.blockPost),
      get('/org/:org/settings/actions/:kind', orgMore.actionsSettings),
      post('/org/:org/settings/actions/:kind', orgMore.actionsAdd),
      get('/org/:org/settings/actions/:kind/delete', orgMore.actionsDeletePage),
      post('/org/:org/settings/actions/:kind/delete', orgMore.actionsDelete),
      get('/org/:org/teams/new', teams.newTeamPage),
      post('/org/:org/teams/new', teams.newTeamPost),
      get('/org/:org/teams/:team/edit', teams.editTeamPage),
      post('/org/:org/teams/:team/edit', teams.editTeamPost),
      post('/org/:org/teams/:team/members/add', teams.addMemberPost),
      post('/org/:org/teams/:team/members/remove', teams.removeMemberPost),
      post('/org/:org/teams/:team/repos/add', teams.addRepoPost),
      post('/org/:org/teams/:team/repos/add_all', teams.addAllReposPost),
      post('/org/:org/teams/:team/repos/remove', teams.removeRepoPost),
      get('/org/:org/teams/:team/delete', teams.deleteTeamPage),
      post('/org/:org/teams/:team/delete', teams.deleteTeamPost),
    ]),
    group('site-admin', siteAdmins, [
      get('/-/admin', admin.dashboardPage),
      post('/-/admin/cron/:task', admin.cronRunPost),
      get('/-/admin/orgs', admin.orgsPage),
      get('/-/admin/config', admin.configPage),
      get('/-/admin/repos', adminRepos.reposPage),
      get('/-/admin/repos/delete', adminRepos.deleteRepoPage),
      post('/-/admin/repos/delete', adminRepos.deleteRepoPost),
      get('/-/admin/repos/unadopted', adminRepos.unadoptedPage),
      post('/-/admin/repos/unadopted/:action', adminRepos.unadoptedPost),
      ...hookRoutes('/-/admin/hooks', admin.siteHooks),
      get('/-/admin/audit-logs', audit.auditPage),
      get('/-/admin/audit-logs/export', audit.auditExport),
      get('/-/admin/users', adminUsers.usersPage),
      get('/-/admin/users/new', adminUsers.newUserPage),
      get('/-/admin/emails', adminUsers.emailsPage),
      post('/-/admin/users/new', adminUsers.newUserPost),
      get('/-/admin/users/:username', adminUsers.editUserPage),
      post('/-/admin/users/:username', adminUsers.editUserPost),
      post('/-/admin/users/:username/rename', adminUsers.renameUserPost),
      get('/-/admin/users/:username/delete', (req, res) => adminUsers.deleteUserPage(req, res)),
      post('/-/admin/users/:username/delete', adminUsers.deleteUserPost),
    ]),
  ];
};
