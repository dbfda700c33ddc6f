// The pages the issue 33 follow-ups touched, against their API twins, on dist/hearth, in one
// run; p50, p95, ratios and server CPU. The twins: a repository's issues page without and with
// a pending transfer the signed-in user may answer (the banner: one more lookup) beside GET
// /repos/{o}/{r} (which names the transfer) and its issues; /explore/repos with its tabs beside
// GET /repos/search; an account's admin edit page (with its rename form) beside GET /users/{u};
// the settings page without and with the banner beside GET /repos/{o}/{r}; a wiki revision's
// diff page beside the page's revisions and content; a team's edit page beside the team, its
// members and its repositories.
// Target: each within 1.5x.
// Usage: node bench/web-gaps.mjs [requests=100]   (build first: npm run build)
import { apiClient, benchInstance, signIn } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 100);
const b = await benchInstance('web-gaps');
try {
  const { api, h } = b;
  // root must change its printed password before using pages: a second site admin signs in instead.
  const password = 'bench-password-1';
  await api('admin/users', { username: 'bench', email: 'bench@example.com', password, must_change_password: false });
  await api('admin/users/bench', { admin: true, login_name: 'bench', source_id: 0 }, 'PATCH');
  await api('admin/users', { username: 'sender', email: 'sender@example.com', password: 'sender-password-1', must_change_password: false });
  const sender = apiClient(h, { Authorization: `Basic ${Buffer.from('sender:sender-password-1').toString('base64')}` });
  for (const name of ['plain', 'parcel']) await sender('user/repos', { name, auto_init: true, default_branch: 'main' });
  // Pending: the sender may not create repositories for bench; bench (and any site admin) may answer.
  await sender('repos/sender/parcel/transfer', { new_owner: 'bench' });
  for (let i = 0; i < 20; i++) await api('user/repos', { name: `repo-${i}`, description: `repository ${i}` });
  // A wiki page written twice (the second revision's diff page), and a team with members and repositories.
  const words = (n) => Buffer.from(`# Home\n\n${'A paragraph of the wiki with **bold** words.\n\n'.repeat(n)}`).toString('base64');
  await sender('repos/sender/plain/wiki/new', { title: 'Home', content_base64: words(40) });
  await sender('repos/sender/plain/wiki/page/Home', { content_base64: words(45), message: 'More words' }, 'PATCH');
  const [revision] = (await sender('repos/sender/plain/wiki/revisions/Home', undefined, 'GET')).commits;
  await api('orgs', { username: 'guild' });
  const team = await api('orgs/guild/teams', { name: 'crew', permission: 'write', units: ['repo.code', 'repo.issues'] });
  for (let i = 0; i < 5; i++) await api('orgs/guild/repos', { name: `tool-${i}` });
  for (let i = 0; i < 5; i++) await api(`teams/${team.id}/repos/guild/tool-${i}`, undefined, 'PUT');
  for (const u of ['bench', 'sender']) await api(`teams/${team.id}/members/${u}`, undefined, 'PUT');

  const cookie = await signIn(h, 'bench', password);
  const token = (await api('users/bench/tokens', { name: 'bench', scopes: ['all'] })).sha1;
  const web = { Cookie: cookie, 'Accept-Encoding': 'br, gzip' };
  const { page, twin } = b;
  const rows = [
    ['repo issues, no transfer', [page('sender/plain/issues')], [twin('repos/sender/plain'), twin('repos/sender/plain/issues')]],
    ['repo issues, transfer banner', [page('sender/parcel/issues')], [twin('repos/sender/parcel'), twin('repos/sender/parcel/issues')]],
    ['explore repositories', [page('explore/repos')], [twin('repos/search?limit=20')]],
    ['admin: edit user (rename)', [page('-/admin/users/sender')], [twin('users/sender')]],
    // GET /branches would be no twin: it reads each branch's commit, the page only the names.
    ['settings, no transfer', [page('sender/plain/settings')], [twin('repos/sender/plain')]],
    ['settings, transfer banner', [page('sender/parcel/settings')], [twin('repos/sender/parcel')]],
    ['wiki revision with its diff', [page(`sender/plain/wiki/commit/${revision.sha}`)], [twin('repos/sender/plain/wiki/revisions/Home'), twin('repos/sender/plain/wiki/page/Home')]],
    ['team edit (5 repos, 2 members)', [page('org/guild/teams/crew/edit')], [twin(`teams/${team.id}`), twin(`teams/${team.id}/members`), twin(`teams/${team.id}/repos`)]],
  ];
  // The pages as measured: the banner shows, the rename form is there.
  const checks = [
    [page('sender/parcel'), 'Accept or reject the transfer'], [page('-/admin/users/sender'), 'Rename user account'],
    [page('sender/parcel/settings'), 'Accept or reject the transfer'], [page(`sender/plain/wiki/commit/${revision.sha}`), '<h2 class="commit-title">More words</h2>'],
    [page('org/guild/teams/crew/edit'), 'aria-label="Remove tool-4"'],
  ];
  await b.expectPages(checks, web);
  console.log(`${N} sequential requests each after a warm-up, ${b.label}, pages signed in with Accept-Encoding: br, API twins plain JSON`);
  await b.compare(rows, { runs: N, pageHeaders: web, twinHeaders: { Authorization: `token ${token}` }, width: 28 });
} finally {
  await b.close();
}
