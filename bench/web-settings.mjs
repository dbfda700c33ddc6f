// The repository settings and releases pages against their API twins, on dist/hearth, in one
// run: server time (loopback request to last byte, sequential, after a warm-up) of the settings
// general page beside GET /repos/{o}/{r} (and with its /branches), the webhooks page beside GET .../hooks, the releases
// page beside GET .../releases, and the branch protection page beside GET .../branch_protections;
// p50, p95, ratios. Target (issue 33): each page within 1.5x of its twin.
// Usage: node bench/web-settings.mjs [requests=100]   (build first: npm run build)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHearth } from './lib.mjs';
import { apiClient, benchSession, compareRows, rootAuth } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 100);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-web-settings-'));

let h;
try {
  h = await startHearth(path.join(tmp, 'data'));
  const built = h.exe.endsWith('hearth');
  const api = apiClient(h, { Authorization: rootAuth(h) });
  await api('user/repos', { name: 'bench', auto_init: true, default_branch: 'main' });
  // A repository as an admin finds it: a few hooks, releases with notes and assets, protection rules.
  for (let i = 0; i < 5; i++) {
    await api('repos/root/bench/hooks', { type: i % 2 ? 'slack' : 'gitea', active: true, events: ['push', 'issues'], config: { url: `https://hooks.example.com/${i}`, content_type: 'json', channel: '#dev' } });
  }
  for (let i = 0; i < 10; i++) {
    const rel = await api('repos/root/bench/releases', { tag_name: `v1.${i}`, target_commitish: 'main', name: `Release 1.${i}`, body: `Changes in **1.${i}**:\n\n- one fix\n- [a link](https://example.com)\n` });
    const form = new FormData();
    form.append('attachment', new Blob([`asset ${i}`]), `app-1.${i}.tar.gz`);
    const up = await fetch(`${h.base}api/v1/repos/root/bench/releases/${rel.id}/assets`, { method: 'POST', headers: { Authorization: rootAuth(h) }, body: form });
    if (up.status !== 201) throw new Error(`asset: ${up.status}`);
  }
  for (const rule of ['main', 'release/*', 'hotfix/*']) {
    await api('repos/root/bench/branch_protections', { rule_name: rule, required_approvals: 1, enable_status_check: true, status_check_contexts: ['ci/*'] });
  }

  // The pages as an admin collaborator sees them.
  const { pageHeaders: web, twinHeaders } = await benchSession(h, api);
  await api('repos/root/bench/collaborators/bench', { permission: 'admin' }, 'PUT');
  const page = (p) => `${h.base}root/bench/${p}`;
  const twin = (p) => `${h.base}api/v1/repos/root/bench${p}`;
  const rows = [
    // The page's default-branch select lists the branches, which the API returns apart (and
    // slower: it reads each branch's commit). Both rows: the strict one (the repository alone)
    // shows what the page's own rendering costs.
    ['settings: general', [page('settings')], [twin('')]],
    ['settings: general (+branches)', [page('settings')], [twin(''), twin('/branches')]],
    ['settings: webhooks', [page('settings/hooks')], [twin('/hooks')]],
    ['releases', [page('releases')], [twin('/releases?limit=10')]],
    ['settings: branch protection', [page('settings/branches')], [twin('/branch_protections')]],
  ];
  // The pages as measured: signed in, with the admin's forms.
  for (const [p, want] of [[page('settings'), 'Danger zone'], [page('releases'), 'New release']]) {
    const text = await (await fetch(p, { headers: web })).text();
    if (!text.includes(want)) throw new Error(`${p} is not the admin's page: ${text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').slice(0, 1500)}`);
  }
  console.log(`${N} sequential requests each after a warm-up, ${built ? 'dist/hearth' : 'source via tsx'}, pages signed in with Accept-Encoding: br, API twins plain JSON`);
  await compareRows(rows, { pid: h.child.pid, runs: N, pageHeaders: web, twinHeaders, target: 'target <= 1.5x; p95/p50 <= 3x', width: 30 });
} finally {
  // Also when a step failed: the server is this run's.
  h?.child.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}
