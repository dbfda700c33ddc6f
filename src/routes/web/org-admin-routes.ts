import { get, group, post, type WebGroup } from './table';
import { signedInViewing } from './guards';
import { siteAdminPage } from './admin-layout';
import * as admin from './admin-pages';
import * as adminUsers from './admin-users';

// The route groups of the site administration (Gitea's /-/admin, since 1.23: `admin` stays a
// valid user name), each carrying its guard chain once. Spliced into webGroups (index.ts)
// before `/{owner}`.

/** Signed in (else to the sign-in page), then a site admin (else 403, as Gitea's adminReq). */
const siteAdmins = [...signedInViewing, siteAdminPage];

export const adminGroups: WebGroup[] = [
  group('site-admin', siteAdmins, [
    get('/-/admin', admin.dashboardPage),
    post('/-/admin/cron/:task', admin.cronRunPost),
    get('/-/admin/orgs', admin.orgsPage),
    get('/-/admin/config', admin.configPage),
    get('/-/admin/users', adminUsers.usersPage),
    get('/-/admin/users/new', adminUsers.newUserPage),
    post('/-/admin/users/new', adminUsers.newUserPost),
    get('/-/admin/users/:username', adminUsers.editUserPage),
    post('/-/admin/users/:username', adminUsers.editUserPost),
    get('/-/admin/users/:username/delete', (req, res) => adminUsers.deleteUserPage(req, res)),
    post('/-/admin/users/:username/delete', adminUsers.deleteUserPost),
  ]),
];
