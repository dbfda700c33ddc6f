import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { siteAdmins, siteAdminsOnUser } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';
import { AUDIT_DESCRIPTION, AUDIT_FILTERS, AUDIT_QUERY } from './audit-log-query';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const admin = lazyModule(() => import('./admin-users'));
const adminBadges = lazyModule(() => import('./admin-badges'));
const adminUnadopted = lazyModule(() => import('./admin-unadopted'));
const auditLogs = lazyModule(() => import('./audit-logs'));
const cron = lazyModule(() => import('./cron'));
const emails = lazyModule(() => import('./emails'));
const keys = lazyModule(() => import('./keys'));
const orgs = lazyModule(() => import('./orgs'));
const repos = lazyModule(() => import('./repos'));

// Site administration (`/admin`): users, e-mails, unadopted repositories, badges, cron and the audit log.

export const adminRoutes: RouteGroup[] = [
  group({ name: 'site admins', guards: siteAdmins }, [
    get('/admin/users', {
      id: 'adminSearchUsers', tag: 'admin', summary: 'Find accounts by name, login source or e-mail, with their admin-only fields',
      query: [q.int('source_id', { format: 'int64' }), q.str('login_name'), ...paging], responses: { 200: ['User'] },
    }, admin.list),
    post('/admin/users', {
      id: 'adminCreateUser', tag: 'admin', summary: 'Make a new account, as a site administrator', body: admin.createSchema,
      responses: { 201: 'User' },
    }, admin.create),
    get('/admin/emails', {
      id: 'adminGetAllEmails', tag: 'admin', summary: 'Every e-mail address registered on the instance', query: paging,
      responses: { 200: ['Email'] },
    }, emails.searchAll),
    get('/admin/emails/search', {
      id: 'adminSearchEmails', tag: 'admin', summary: 'Find e-mail addresses across all accounts', query: [q.str('q'), ...paging],
      responses: { 200: ['Email'] },
    }, emails.searchAll),
    get('/admin/unadopted', {
      id: 'adminUnadoptedList', tag: 'admin', summary: 'Repository directories on disk that no repository row owns',
      query: [q.int('page'), q.int('limit'), q.str('pattern')], responses: { 200: { type: 'array', items: { type: 'string' } } },
    }, adminUnadopted.listUnadoptedRepos),
    post('/admin/unadopted/{owner}/{repo}', {
      id: 'adminAdoptRepository', tag: 'admin', summary: 'Turn a directory found on disk into a repository of its owner', responses: { 204: null },
    }, adminUnadopted.adopt),
    del('/admin/unadopted/{owner}/{repo}', {
      id: 'adminDeleteUnadoptedRepository', tag: 'admin', summary: 'Remove a directory found on disk that no repository owns',
      responses: { 204: null },
    }, adminUnadopted.removeUnadopted),
    get('/admin/cron', {
      id: 'adminCronList', tag: 'admin', summary: 'The scheduled maintenance tasks, when they last and next run', query: paging,
      responses: { 200: ['Cron'] },
    }, cron.list),
    post('/admin/cron/{task}', { id: 'adminCronRun', tag: 'admin', summary: 'Start a scheduled maintenance task now', responses: { 204: null } }, cron.run),
    get('/admin/audit-logs', {
      id: 'adminListAuditLogs', tag: 'admin', summary: 'The audit log, newest first', extension: true, description: AUDIT_DESCRIPTION,
      query: AUDIT_QUERY, responses: { 200: ['AuditLog'] },
    }, auditLogs.list),
    get('/admin/audit-logs/export', {
      id: 'adminExportAuditLogs', tag: 'admin', summary: 'The audit log as CSV', extension: true, description: AUDIT_DESCRIPTION,
      query: AUDIT_FILTERS, responses: { 200: { type: 'file' } }, produces: ['text/csv'],
    }, auditLogs.exportCsv),
    get('/admin/orgs', {
      id: 'adminGetAllOrgs', tag: 'admin', summary: 'Every organization of the instance', query: paging, responses: { 200: ['Organization'] },
    }, orgs.adminList),
  ]),
  group({ name: 'site admins, on a user', guards: siteAdminsOnUser }, [
    patch('/admin/users/{username}', {
      id: 'adminEditUser', tag: 'admin', summary: 'Change an account\'s settings, as a site administrator', body: admin.editSchema,
      responses: { 200: 'User' },
    }, admin.edit),
    del('/admin/users/{username}', {
      id: 'adminDeleteUser', tag: 'admin', summary: 'Delete an account (optionally with everything it owns)', query: [q.bool('purge')],
      responses: { 204: null },
    }, admin.remove),
    post('/admin/users/{username}/rename', {
      id: 'adminRenameUser', tag: 'admin', summary: 'Give an account a new login name', body: { of: admin.renameSchema, required: true },
      responses: { 204: null },
    }, admin.rename),
    post('/admin/users/{username}/repos', {
      id: 'adminCreateRepo', tag: 'admin', summary: 'Make a repository owned by the given account',
      body: { of: repos.createSchema, param: 'repository', required: true }, responses: { 201: 'Repository' },
    }, repos.createForUser),
    get('/admin/users/{username}/badges', {
      id: 'adminListUserBadges', tag: 'admin', summary: 'Badges shown on an account\'s profile', responses: { 200: ['Badge'] },
    }, adminBadges.listBadges),
    post('/admin/users/{username}/badges', {
      id: 'adminAddUserBadges', tag: 'admin', summary: 'Give an account badges', body: adminBadges.badgeSchema, responses: { 204: null },
    }, adminBadges.addBadges),
    del('/admin/users/{username}/badges', {
      id: 'adminDeleteUserBadges', tag: 'admin', summary: 'Take badges away from an account', body: adminBadges.badgeSchema,
      responses: { 204: null },
    }, adminBadges.removeBadges),
    // Gitea serves this one (its ListUserOrgs) without documenting it: an extension of the description.
    get('/admin/users/{username}/orgs', {
      id: 'adminListUserOrgs', tag: 'admin', summary: 'Organizations an account belongs to, every one of them', extension: true,
      query: paging, responses: { 200: ['Organization'] },
    }, orgs.listOfUser),
    post('/admin/users/{username}/orgs', {
      id: 'adminCreateOrg', tag: 'admin', summary: 'Make an organization owned by the given account',
      body: { of: orgs.createSchema, param: 'organization', required: true }, responses: { 201: 'Organization' },
    }, orgs.adminCreate),
    post('/admin/users/{username}/keys', {
      id: 'adminCreatePublicKey', tag: 'admin', summary: 'Add an SSH key to the given account', body: { of: keys.createSchema, param: 'key' },
      responses: { 201: 'PublicKey' },
    }, keys.createForUser),
    del('/admin/users/{username}/keys/{id}', {
      id: 'adminDeleteUserPublicKey', tag: 'admin', summary: 'Remove one of the given account\'s SSH keys', params: { id: 'int64' },
      responses: { 204: null },
    }, keys.adminRemove),
  ]),
];
