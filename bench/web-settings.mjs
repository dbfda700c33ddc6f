// The repository settings and releases pages against their API twins, on dist/hearth, in one
// run: server time (loopback request to last byte, sequential, after a warm-up) of each page
// beside the API requests returning the same data, read by the same user (the owner; then an
// admin collaborator for two of them); p50, p95, ratios and server CPU. The twins:
// - settings general: GET /repos/{o}/{r} (name, description, website, visibility, template,
//   units, merge styles, default branch, trackers: all of the page's forms), and a second row
//   adding GET .../branches, whose names fill the page's default-branch select;
// - webhooks: GET .../hooks; releases: GET .../releases?limit=10 (the page's ten, with assets;
//   the page renders each one's notes, the API returns them as text: the rendered notes come
//   from the markdown cache, keyed by the text, once a page showed them); one release's page:
//   GET .../releases/tags/{tag};
// - branch protection: GET .../branch_protections.
// Target (issue 33): each page within 1.5x of its twin.
// Usage: node bench/web-settings.mjs [requests=100]   (build first: npm run build)
import { benchInstance, rootAuth } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 100);
const b = await benchInstance('web-settings');
try {
  const { api, h } = b;
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

  // Page and twin read by one viewer each time: the owner (root, whose token the twins always
  // used), then an admin collaborator with a token of its own (its access is looked up on both sides).
  const owner = await b.sessionOf('root');
  const collaborator = await b.sessionOf('bench');
  await api('repos/root/bench/collaborators/bench', { permission: 'admin' }, 'PUT');
  const page = (p) => b.page(`root/bench/${p}`);
  const twin = (p) => b.twin(`repos/root/bench${p}`);
  const rows = [
    // The strict row (the repository alone) shows what the page's own rendering costs; GET
    // /branches reads each branch's commit, which the page, showing names only, does not.
    ['settings: general', [page('settings')], [twin('')]],
    ['settings: general (+branches)', [page('settings')], [twin(''), twin('/branches')]],
    ['settings: webhooks', [page('settings/hooks')], [twin('/hooks')]],
    ['releases', [page('releases')], [twin('/releases?limit=10')]],
    ['release (one, with assets)', [page('releases/tag/v1.5')], [twin('/releases/tags/v1.5')]],
    ['settings: branch protection', [page('settings/branches')], [twin('/branch_protections')]],
  ];
  // The pages as measured: signed in, with the admin's forms.
  for (const who of [owner, collaborator]) {
    await b.expectPages([[page('settings'), 'Danger zone'], [page('releases'), 'New release'], [page('releases'), 'app-1.9.tar.gz'], [page('releases/tag/v1.5'), 'app-1.5.tar.gz']], who.pageHeaders);
  }
  console.log(`${N} sequential requests each after a warm-up, ${b.label}, pages signed in with Accept-Encoding: br, API twins plain JSON`);
  console.log('as the owner (page signed in as root; twins with root\'s token):');
  await b.compare(rows, { runs: N, pageHeaders: owner.pageHeaders, twinHeaders: owner.twinHeaders, width: 30 });
  console.log('as an admin collaborator (page and twins as bench):');
  await b.compare(rows.filter(([name]) => ['settings: general', 'releases', 'release (one, with assets)'].includes(name)).map(([name, ...rest]) => [`${name} (collab.)`, ...rest]),
    { runs: N, pageHeaders: collaborator.pageHeaders, twinHeaders: collaborator.twinHeaders, width: 30 });
} finally {
  await b.close();
}
