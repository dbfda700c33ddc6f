import type { ApiHandler, ApiReply, ApiRequest } from './fake-forge';
import { pageOf } from './fake-forge';
import type { Story, StoryIssue, StoryPull, StoryReaction, StoryUser } from './migrate-story';

// GitLab's REST API v4 over a story, in the shapes its API documentation gives (issues, notes,
// award emoji, merge requests, approvals, releases with asset links): PRIVATE-TOKEN auth, the
// project by its URL-encoded path, page/per_page paging with X-Page, X-Next-Page,
// X-Total(-Pages) and Link headers, RateLimit-* headers, and one 429 with Retry-After. Merge
// requests have their own iids (1..3); their heads are refs/merge-requests/<iid>/head.

const PROJECT_ID = 4242;
const EMOJI: Record<string, string> = { '+1': 'thumbsup', '-1': 'thumbsdown', laugh: 'laughing', hooray: 'tada', heart: 'heart', rocket: 'rocket', eyes: 'eyes', confused: 'confused' };

export type GitlabFakeState = { limited: number };

export function gitlabApi(story: Story, opts: { token: string; base: () => string }): { api: ApiHandler; state: GitlabFakeState } {
  const state: GitlabFakeState = { limited: 0 };
  const web = () => `${opts.base()}${story.owner}/${story.repo}`;
  const user = (u: StoryUser) => ({ id: u.id, username: u.login, name: u.login.toUpperCase(), state: 'active', locked: false, avatar_url: null, web_url: `${opts.base()}${u.login}` });
  const milestone = (title: string | null) => {
    const m = story.milestones.find((x) => x.title === title);
    return m && {
      id: 300 + m.id, iid: m.id, project_id: PROJECT_ID, title: m.title, description: m.description, state: m.state === 'open' ? 'active' : 'closed',
      created_at: m.created_at, updated_at: m.closed_at ?? m.created_at, due_date: m.due_on?.slice(0, 10) ?? null, start_date: null, expired: false,
      web_url: `${web()}/-/milestones/${m.id}`,
    };
  };
  const iidOf = (p: StoryPull) => p.number - story.issues.length;
  const issue = (i: StoryIssue) => ({
    id: 5000 + i.number, iid: i.number, project_id: PROJECT_ID, title: i.title, description: i.body, state: i.state === 'open' ? 'opened' : 'closed',
    created_at: i.created_at, updated_at: i.updated_at, closed_at: i.closed_at, closed_by: i.closed_at ? user(i.user) : null, labels: i.labels,
    milestone: milestone(i.milestone) ?? null, assignees: [], author: user(i.user), type: 'ISSUE', assignee: null, user_notes_count: i.comments.length,
    merge_requests_count: 0, upvotes: i.reactions.filter((r) => r.content === '+1').length, downvotes: 0, due_date: null, confidential: false,
    discussion_locked: null, issue_type: 'issue', web_url: `${web()}/-/issues/${i.number}`, has_tasks: false,
  });
  const mr = (p: StoryPull) => ({
    id: 6000 + p.number, iid: iidOf(p), project_id: PROJECT_ID, title: p.title, description: p.body,
    state: p.merged ? 'merged' : p.state === 'open' ? 'opened' : 'closed', created_at: p.created_at, updated_at: p.updated_at,
    merged_by: p.merged ? user(p.user) : null, merge_user: p.merged ? user(p.user) : null, merged_at: p.merged_at,
    closed_by: p.state === 'closed' && !p.merged ? user(p.user) : null, closed_at: p.merged ? null : p.closed_at,
    target_branch: p.base, source_branch: p.head, user_notes_count: p.comments.length, upvotes: 0, downvotes: 0, author: user(p.user),
    assignees: [], assignee: null, reviewers: [], source_project_id: PROJECT_ID, target_project_id: PROJECT_ID, labels: p.labels, draft: false,
    work_in_progress: false, milestone: milestone(p.milestone) ?? null, merge_when_pipeline_succeeds: false, merge_status: 'can_be_merged',
    detailed_merge_status: 'mergeable', sha: p.headSha, merge_commit_sha: p.merge_commit_sha, squash_commit_sha: null, discussion_locked: null,
    should_remove_source_branch: null, force_remove_source_branch: true, reference: `!${iidOf(p)}`, web_url: `${web()}/-/merge_requests/${iidOf(p)}`, squash: false,
  });
  const awards = (list: StoryReaction[], type: string, awardable: number) => list.map((r, i) => ({
    id: 700 + i, name: EMOJI[r.content] ?? r.content, user: user(r.user), created_at: r.created_at, updated_at: r.created_at, awardable_id: awardable, awardable_type: type,
  }));
  const note = (n: { id: number; user: StoryUser; body: string; created_at: string; updated_at: string }, noteable: string, iid: number) => ({
    id: n.id, type: null, body: n.body, attachment: null, author: user(n.user), created_at: n.created_at, updated_at: n.updated_at, system: false,
    noteable_id: iid, noteable_type: noteable, noteable_iid: iid, resolvable: false, confidential: false, internal: false,
  });
  const mrNotes = (p: StoryPull) => [
    ...p.comments.map((c) => note(c, 'MergeRequest', iidOf(p))),
    // A system note, as GitLab writes on every change: not a comment.
    { ...note({ id: 9900 + p.number, user: p.user, body: 'added 1 commit', created_at: p.created_at, updated_at: p.created_at }, 'MergeRequest', iidOf(p)), system: true },
    ...p.reviews.flatMap((r) => r.lines.map((l, i) => ({
      ...note({ id: r.id * 10 + i, user: r.user, body: l.body, created_at: l.created_at, updated_at: l.created_at }, 'MergeRequest', iidOf(p)),
      type: 'DiffNote', resolvable: true, resolved: false,
      position: { base_sha: p.baseSha, start_sha: p.baseSha, head_sha: p.headSha, old_path: l.path, new_path: l.path, position_type: 'text', old_line: null, new_line: l.line },
    }))),
  ];
  const release = () => {
    const r = story.release;
    const asset = `${web()}/-/releases/${r.tag}/downloads/${r.asset.name}`;
    return {
      tag_name: r.tag, description: r.body, name: r.name, created_at: r.created_at, released_at: r.created_at, upcoming_release: false,
      author: user(r.author), commit: { id: story.shas.main, short_id: story.shas.main.slice(0, 8), title: 'Merge feat' }, milestones: [],
      commit_path: `/${story.owner}/${story.repo}/-/commit/${story.shas.main}`, tag_path: `/${story.owner}/${story.repo}/-/tags/${r.tag}`,
      assets: { count: 1, sources: [], links: [{ id: r.asset.id, name: r.asset.name, url: asset, direct_asset_url: asset, link_type: 'other' }] },
      evidences: [], _links: { self: `${web()}/-/releases/${r.tag}` },
    };
  };

  const paged = (req: ApiRequest, items: unknown[]): ApiReply => {
    const p = pageOf(items, req.url, 'per_page', 'page', 20, 100);
    const link = (n: number) => { const u = new URL(req.url); u.searchParams.set('page', String(n)); return u.toString(); };
    const links = [`<${link(1)}>; rel="first"`, `<${link(p.last)}>; rel="last"`];
    if (p.more) links.unshift(`<${link(p.page + 1)}>; rel="next"`);
    return {
      body: p.slice,
      headers: {
        'x-page': String(p.page), 'x-per-page': String(p.size), 'x-next-page': p.more ? String(p.page + 1) : '', 'x-prev-page': p.page > 1 ? String(p.page - 1) : '',
        'x-total': String(items.length), 'x-total-pages': String(p.last), link: links.join(', '),
      },
    };
  };

  const route = (req: ApiRequest): ApiReply | undefined => {
    const path = req.url.pathname;
    if (path === `/api/v4/projects/${encodeURIComponent(`${story.owner}/${story.repo}`)}` || path === `/api/v4/projects/${PROJECT_ID}`) {
      return { body: { id: PROJECT_ID, name: story.repo, path: story.repo, path_with_namespace: `${story.owner}/${story.repo}`, default_branch: 'main', tag_list: story.topics, topics: story.topics, web_url: web(), http_url_to_repo: `${web()}.git` } };
    }
    const prefix = `/api/v4/projects/${PROJECT_ID}`;
    if (!path.startsWith(prefix)) return undefined;
    const sub = path.slice(prefix.length);
    const q = req.url.searchParams;
    const pull = (iid: string) => story.pulls.find((p) => iidOf(p) === Number(iid));
    let m: RegExpExecArray | null;
    if (sub === '/labels') return paged(req, story.labels.map((l, i) => ({ id: i + 1, name: l.name, color: `#${l.color}`, text_color: '#FFFFFF', description: l.description || null, open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0, subscribed: false, priority: null, is_project_label: true })));
    if (sub === '/milestones') return paged(req, story.milestones.map((x) => milestone(x.title)));
    if (sub === '/issues') {
      const list = story.issues.map(issue);
      return paged(req, q.get('sort') === 'desc' ? [...list].reverse() : list);
    }
    if ((m = /^\/issues\/(\d+)\/award_emoji$/.exec(sub))) return paged(req, awards(story.issues[Number(m[1]) - 1]?.reactions ?? [], 'Issue', Number(m[1])));
    if ((m = /^\/issues\/(\d+)\/notes$/.exec(sub))) {
      const i = story.issues[Number(m[1]) - 1];
      return i && paged(req, i.comments.map((c) => note(c, 'Issue', i.number)));
    }
    if (sub === '/merge_requests') return paged(req, story.pulls.map(mr));
    if ((m = /^\/merge_requests\/(\d+)\/award_emoji$/.exec(sub))) return paged(req, awards(pull(m[1]!)?.reactions ?? [], 'MergeRequest', Number(m[1])));
    if ((m = /^\/merge_requests\/(\d+)\/notes$/.exec(sub))) { const p = pull(m[1]!); return p && paged(req, mrNotes(p)); }
    if ((m = /^\/merge_requests\/(\d+)\/approvals$/.exec(sub))) {
      const p = pull(m[1]!);
      const approved = (p?.reviews ?? []).filter((r) => r.state === 'APPROVED').map((r) => ({ user: user(r.user) }));
      return p && { body: { id: 6000 + p.number, iid: iidOf(p), project_id: PROJECT_ID, title: p.title, state: 'opened', approved: approved.length > 0, approvals_required: 0, approvals_left: 0, approved_by: approved } };
    }
    if (sub === '/releases') return paged(req, [release()]);
    return undefined;
  };

  const api: ApiHandler = (req): ApiReply => {
    if (req.url.pathname === `/${story.owner}/${story.repo}/-/releases/${story.release.tag}/downloads/${story.release.asset.name}`) {
      return { raw: story.release.asset.bytes, headers: { 'content-type': 'application/octet-stream' } };
    }
    if (req.headers['private-token'] !== opts.token) return { status: 401, body: { message: '401 Unauthorized' } };
    const limit = { 'ratelimit-limit': '600', 'ratelimit-observed': '1', 'ratelimit-remaining': '599', 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60) };
    if (req.url.pathname.endsWith('/issues') && req.url.searchParams.get('page') === '2' && !state.limited) {
      state.limited++;
      return { status: 429, headers: { ...limit, 'ratelimit-remaining': '0', 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1), 'retry-after': '1' }, body: { message: 'Retry later' } };
    }
    const reply = route(req);
    if (!reply) return { status: 404, body: { message: '404 Not Found' } };
    return { ...reply, headers: { ...limit, ...reply.headers } };
  };
  return { api, state };
}
