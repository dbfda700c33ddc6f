import { del, describe, get, group, patch, post, type RouteGroup } from '../../table';
import { siteAdmins, siteAdminsOnUser } from './route-chains';
import * as admin from './admin-users';
import * as adminBadges from './admin-badges';
import * as adminUnadopted from './admin-unadopted';
import * as auditLogs from './audit-logs';
import * as cron from './cron';
import * as emails from './emails';
import * as keys from './keys';
import * as orgs from './orgs';
import * as repos from './repos';

// Site administration (`/admin`): users, e-mails, unadopted repositories, badges, cron and the audit log.

export const adminRoutes: RouteGroup[] = [
  group({ name: 'site admins', guards: siteAdmins }, [
    get('/admin/users', ['admin', 'adminSearchUsers', 'Search users according filter conditions'], admin.list),
    post('/admin/users', ['admin', 'adminCreateUser', 'Create a user'], admin.create),
    get('/admin/emails', ['admin', 'adminGetAllEmails', 'List all emails'], emails.searchAll),
    get('/admin/emails/search', ['admin', 'adminSearchEmails', 'Search all emails'], emails.searchAll),
    get('/admin/unadopted', ['admin', 'adminUnadoptedList', 'List unadopted repositories'], adminUnadopted.listUnadoptedRepos),
    post('/admin/unadopted/{owner}/{repo}', ['admin', 'adminAdoptRepository', 'Adopt unadopted files as a repository'], adminUnadopted.adopt),
    del('/admin/unadopted/{owner}/{repo}', ['admin', 'adminDeleteUnadoptedRepository', 'Delete unadopted files'], adminUnadopted.removeUnadopted),
    get('/admin/cron', ['admin', 'adminCronList', 'List cron tasks'], cron.list),
    post('/admin/cron/{task}', ['admin', 'adminCronRun', 'Run cron task'], cron.run),
    describe(get('/admin/audit-logs', ['admin', 'adminListAuditLogs', 'List the audit log, newest first (hearth extension)', 'extension'], auditLogs.list), auditLogs.AUDIT_DESCRIPTION),
    describe(get('/admin/audit-logs/export', ['admin', 'adminExportAuditLogs', 'Export the audit log as CSV (hearth extension)', 'extension'], auditLogs.exportCsv), auditLogs.AUDIT_DESCRIPTION),
    get('/admin/orgs', ['admin', 'adminGetAllOrgs', 'List all organizations'], orgs.adminList),
  ]),
  group({ name: 'site admins, on a user', guards: siteAdminsOnUser }, [
    patch('/admin/users/{username}', ['admin', 'adminEditUser', 'Edit an existing user'], admin.edit),
    del('/admin/users/{username}', ['admin', 'adminDeleteUser', 'Delete a user'], admin.remove),
    post('/admin/users/{username}/rename', ['admin', 'adminRenameUser', 'Rename a user'], admin.rename),
    post('/admin/users/{username}/repos', ['admin', 'adminCreateRepo', 'Create a repository on behalf of a user'], repos.createForUser),
    get('/admin/users/{username}/badges', ['admin', 'adminListUserBadges', 'List a user\'s badges'], adminBadges.listBadges),
    post('/admin/users/{username}/badges', ['admin', 'adminAddUserBadges', 'Add a badge to a user'], adminBadges.addBadges),
    del('/admin/users/{username}/badges', ['admin', 'adminDeleteUserBadges', 'Remove a badge from a user'], adminBadges.removeBadges),
    post('/admin/users/{username}/orgs', ['admin', 'adminCreateOrg', 'Create an organization'], orgs.adminCreate),
    post('/admin/users/{username}/keys', ['admin', 'adminCreatePublicKey', 'Add a public key on behalf of a user'], keys.createForUser),
    del('/admin/users/{username}/keys/{id}', ['admin', 'adminDeleteUserPublicKey', 'Delete a user\'s public key'], keys.adminRemove),
  ]),
];
