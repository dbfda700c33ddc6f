import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_edit_test.go. Gitea edits its fixture repo1 and
// puts it back; here user2's own repositories stand for repo1 (public), repo15 (empty) and
// repo16 (private), and the kit's org3/repo3 for the organization's.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The edit options that describe a repository as it is (Gitea's getRepoEditOptionFromRepo). */
function optionsOf(r: Json): Json {
  return {
    name: r.name, description: r.description, website: r.website, private: r.private,
    has_issues: r.has_issues, internal_tracker: r.internal_tracker ?? undefined, external_tracker: r.external_tracker ?? undefined,
    has_wiki: r.has_wiki, external_wiki: r.external_wiki ?? undefined, default_branch: r.default_branch,
    has_pull_requests: r.has_pull_requests, ignore_whitespace_conflicts: r.ignore_whitespace_conflicts,
    allow_merge_commits: r.allow_merge_commits, allow_rebase: r.allow_rebase, allow_rebase_explicit: r.allow_rebase_explicit,
    allow_squash_merge: r.allow_squash_merge, archived: r.archived,
  };
}

/** Every option changed (Gitea's getNewRepoEditOption). */
function changed(o: Json): Json {
  return {
    name: `${o.name}renamed`, description: 'new description', website: 'http://wwww.newwebsite.com', private: !o.private,
    default_branch: 'master', has_issues: !o.has_issues, has_wiki: !o.has_wiki, has_pull_requests: !o.has_pull_requests,
    ignore_whitespace_conflicts: !o.ignore_whitespace_conflicts, allow_merge_commits: !o.allow_merge_commits,
    allow_rebase: !o.allow_rebase, allow_rebase_explicit: !o.allow_rebase_explicit, allow_squash_merge: !o.allow_squash_merge,
    archived: !o.archived,
  };
}

const patch = (full: string, json: Json, auth: Awaited<ReturnType<GiteaFixtures['tokenAuth']>>, status = 200) =>
  g.call(`repos/${full}`, { method: 'PATCH', auth, json }, status);

it('TestAPIRepoEdit', async () => {
  const o3 = await g.org3();
  expect(o3.org.username).toBe('org3');
  await repo(g, 'user2', 'edit1');
  await g.call('user/repos', { method: 'POST', auth: await g.basic('user2'), json: { name: 'edit15' } }, 201);
  await repo(g, 'user2', 'edit16', { private: true });
  const token2 = await g.tokenAuth('user2', 'write:repository');
  const token4 = await g.tokenAuth('user4', 'write:repository');
  const read = (full: string) => g.call(`repos/${full}`, { auth: token2 });

  // Everything about edit1 changed, name included.
  const orig1 = optionsOf(await read('user2/edit1'));
  const opts = changed(orig1);
  const edited = await patch('user2/edit1', opts, token2);
  expect(edited).toMatchObject({ name: opts.name, description: opts.description, website: opts.website, archived: opts.archived });
  const after = optionsOf(await read(`user2/${opts.name}`));
  for (const k of ['name', 'description', 'website', 'archived', 'private', 'has_wiki']) expect(after[k], k).toBe(opts[k]);
  const full = `user2/${opts.name}`;

  // Internal tracker and wiki.
  Object.assign(opts, { has_issues: true, external_tracker: undefined, has_wiki: true, external_wiki: undefined,
    internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: false, enable_issue_dependencies: false } });
  await patch(full, opts, token2);
  let now = await read(full);
  expect(now.has_issues).toBe(true);
  expect(now.external_tracker ?? null).toBeNull();
  expect(now.internal_tracker).toEqual(opts.internal_tracker);
  expect(now.has_wiki).toBe(true);
  expect(now.external_wiki ?? null).toBeNull();

  // External tracker and wiki.
  opts.external_tracker = { external_tracker_url: 'http://www.somewebsite.com', external_tracker_format: 'http://www.somewebsite.com/{user}/{repo}?issue={index}', external_tracker_style: 'alphanumeric' };
  opts.external_wiki = { external_wiki_url: 'http://www.somewebsite.com' };
  await patch(full, opts, token2);
  now = await read(full);
  expect(now.has_issues).toBe(true);
  expect(now.external_tracker).toMatchObject(opts.external_tracker);
  expect(now.has_wiki).toBe(true);
  expect(now.external_wiki).toEqual(opts.external_wiki);

  opts.external_tracker.external_tracker_style = 'regexp';
  opts.external_tracker.external_tracker_regexp_pattern = '(\\d+)';
  await patch(full, opts, token2);
  expect((await read(full)).external_tracker).toEqual(opts.external_tracker);

  // Invalid external tracker and wiki addresses and formats.
  opts.external_tracker.external_tracker_url = 'htp://www.somewebsite.com';
  await patch(full, opts, token2, 422);
  opts.external_tracker.external_tracker_url = 'http://www.somewebsite.com';
  opts.external_tracker.external_tracker_format = 'http://www.somewebsite.com/{user/{repo}?issue={index}';
  await patch(full, opts, token2, 422);
  opts.external_tracker.external_tracker_format = 'http://www.somewebsite.com/{user}/{repo}?issue={index}';
  opts.external_wiki.external_wiki_url = 'htp://www.somewebsite.com';
  await patch(full, opts, token2, 422);
  expect((await read(full)).external_wiki).toEqual({ external_wiki_url: 'http://www.somewebsite.com' });

  // Issue and wiki options left out are left alone.
  await patch(full, { ...opts, description: 'small change', has_issues: undefined, external_tracker: undefined, has_wiki: undefined, external_wiki: undefined }, token2);
  now = await read(full);
  expect(now.description).toBe('small change');
  expect(now.has_issues).toBe(true);
  expect(now.external_tracker).not.toBeNull();
  expect(now.has_wiki).toBe(true);
  expect(now.external_wiki).not.toBeNull();

  // Back as it was.
  await patch(full, orig1, token2);
  expect((await read('user2/edit1')).description).toBe(orig1.description);

  // A repository that does not exist.
  await patch('user2/repodoesnotexist', { name: 'repodoesnotexist' }, token2, 404);

  // The private edit16: hidden from user4 and from anonymous callers, edited by its owner.
  const orig16 = optionsOf(await read('user2/edit16'));
  await patch('user2/edit16', changed(orig16), token4, 404);
  await patch('user2/edit16', changed(orig16), token2);
  await patch(`user2/${changed(orig16).name}`, orig16, token2);

  // Public and private again.
  expect((await read('user2/edit16')).private).toBe(true);
  await patch('user2/edit16', { private: false }, token2);
  expect((await read('user2/edit16')).private).toBe(false);
  await patch('user2/edit16', { private: true }, token2);

  // The empty edit15 is archived and unarchived.
  expect((await read('user2/edit15')).archived).toBe(false);
  await patch('user2/edit15', { archived: true }, token2);
  expect((await read('user2/edit15')).archived).toBe(true);
  await patch('user2/edit15', { archived: false }, token2);

  // org3/repo3, which user2 may administer.
  const orig3 = optionsOf(await read('org3/repo3'));
  await patch('org3/repo3', changed(orig3), token2);
  await patch(`org3/${changed(orig3).name}`, orig3, token2);

  // user4 is no collaborator on the public edit1.
  await patch('user2/edit1', changed(orig1), token4, 403);
});

// Anonymous edits of private repositories: 404, as Gitea finds the repository before it asks
// for a token (the repository guard chains run in that order).
it('TestAPIRepoEdit/AnonymousPrivate', async () => {
  await g.org3();
  await repo(g, 'user2', 'edit16', { private: true });
  await g.call('repos/user2/edit16', { method: 'PATCH', json: { description: 'x' } }, 404);
  await g.call('repos/org3/repo3', { method: 'PATCH', json: { description: 'x' } }, 404);
});
