// The organization and site administration pages against their API twins, on dist/hearth, in
// one run: server time (loopback request to last byte, sequential, after a warm-up) of the admin
// users page, an organization's home, the admin dashboard and the audit log page, each beside
// the API requests returning the same data; p50, p95, ratios. Target (issue 33): each page
// within 1.5x of its twin.
// Usage: node bench/web-org-admin.mjs [requests=100]   (build first: npm run build)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHearth } from './lib.mjs';
import { apiClient, benchSession, compareRows, rootAuth } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 100);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-web-org-admin-'));

let h;
try {
  h = await startHearth(path.join(tmp, 'data'));
  const built = h.exe.endsWith('hearth');
  const api = apiClient(h, { Authorization: rootAuth(h) });
  // The pages as a second site admin sees them.
  const { password, pageHeaders: web, twinHeaders } = await benchSession(h, api);
  await api('admin/users/bench', { admin: true, login_name: 'bench', source_id: 0 }, 'PATCH');
  for (let i = 0; i < 40; i++) await api('admin/users', { username: `user${i}`, email: `user${i}@example.com`, password, must_change_password: false });
  await api('orgs', { username: 'acme', full_name: 'Acme', description: 'The benchmark organization' });
  for (let i = 0; i < 20; i++) await api('orgs/acme/repos', { name: `repo${i}`, description: `Repository ${i}` });
  for (let i = 0; i < 5; i++) await api('orgs/acme/teams', { name: `team${i}`, permission: 'read', units: ['repo.code'] });
  const page = (p) => `${h.base}${p}`;
  const twin = (p) => `${h.base}api/v1/${p}`;
  const rows = [
    ['admin users (50)', [page('-/admin/users')], [twin('admin/users?limit=50')]],
    ['organization home', [page('acme')], [twin('orgs/acme'), twin('orgs/acme/repos?limit=20'), twin('orgs/acme/public_members')]],
    ['admin dashboard', [page('-/admin')], [twin('admin/cron?limit=50'), twin('admin/users?limit=1'), twin('orgs?limit=1'), twin('repos/search?limit=1')]],
    ['audit log (50)', [page('-/admin/audit-logs')], [twin('admin/audit-logs?limit=50')]],
  ];
  for (const [, [p]] of rows) {
    const res = await fetch(p, { headers: web });
    if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
  }
  console.log(`${N} sequential requests each after a warm-up, ${built ? 'dist/hearth' : 'source via tsx'}, pages signed in as a site admin with Accept-Encoding: br, API twins plain JSON`);
  await compareRows(rows, { pid: h.child.pid, runs: N, pageHeaders: web, twinHeaders });
} finally {
  h?.child.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}
