// The organization and site administration pages against their API twins, on dist/hearth, in
// one run: server time (loopback request to last byte, sequential, after a warm-up) of each
// page beside the API requests returning the same data; p50, p95, ratios and server CPU. The
// twins: the admin users page (50) beside GET /admin/users?limit=50; an organization's home
// beside the organization, its repositories and its public members; the admin dashboard beside
// the cron tasks and the counts of users, organizations and repositories; the audit log page
// (its 50 newest entries) beside GET /admin/audit-logs?limit=50.
// Target (issue 33): each page within 1.5x of its twin.
// Usage: node bench/web-org-admin.mjs [requests=100]   (build first: npm run build)
import { benchInstance } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 100);
const b = await benchInstance('web-org-admin');
try {
  const { api } = b;
  // The pages as a second site admin sees them.
  const { password, pageHeaders: web, twinHeaders } = await b.session();
  await api('admin/users/bench', { admin: true, login_name: 'bench', source_id: 0 }, 'PATCH');
  for (let i = 0; i < 40; i++) await api('admin/users', { username: `user${i}`, email: `user${i}@example.com`, password, must_change_password: false });
  await api('orgs', { username: 'acme', full_name: 'Acme', description: 'The benchmark organization' });
  for (let i = 0; i < 20; i++) await api('orgs/acme/repos', { name: `repo${i}`, description: `Repository ${i}` });
  for (let i = 0; i < 5; i++) await api('orgs/acme/teams', { name: `team${i}`, permission: 'read', units: ['repo.code'] });
  const { page, twin } = b;
  const rows = [
    ['admin users (50)', [page('-/admin/users')], [twin('admin/users?limit=50')]],
    ['organization home', [page('acme')], [twin('orgs/acme'), twin('orgs/acme/repos?limit=20'), twin('orgs/acme/public_members')]],
    ['admin dashboard', [page('-/admin')], [twin('admin/cron?limit=50'), twin('admin/users?limit=1'), twin('orgs?limit=1'), twin('repos/search?limit=1')]],
    ['audit log (50)', [page('-/admin/audit-logs')], [twin('admin/audit-logs?limit=50')]],
  ];
  await b.expectPages([[page('-/admin/users'), 'user39'], [page('acme'), 'repo19'], [page('-/admin'), 'Scheduled tasks'], [page('-/admin/audit-logs'), 'Export as CSV']], web);
  console.log(`${N} sequential requests each after a warm-up, ${b.label}, pages signed in as a site admin with Accept-Encoding: br, API twins plain JSON`);
  await b.compare(rows, { runs: N, pageHeaders: web, twinHeaders });
} finally {
  await b.close();
}
