import type { ApiHandler, ApiReply, ApiRequest } from './fake-forge';
import { ALICE, CAROL, type Story, type StoryIssue, type StoryPull } from './migrate-story';

// OneDev's REST API (under /api, basic auth) over a story, with the endpoints and fields Gitea's
// OneDev downloader reads: projects found by a query, offset/count lists, an issue's fields
// (its Type), milestones, comments and changes, pull requests with their merge preview and
// reviews, and users by id. Issues are 1..60 and pull requests 1..3 (numbered apart, as OneDev
// does); their heads are refs/pull/<n>/head.

const PROJECT_ID = 7;
const TYPE: Record<string, string> = { bug: 'Bug', feature: 'New Feature', docs: 'Improvement' };

export function onedevApi(story: Story, opts: { username: string; password: string }): ApiHandler {
  const users = [ALICE, CAROL];
  const offsetOf = (p: StoryPull) => p.number - story.issues.length;
  const slice = <T>(req: ApiRequest, list: T[]): ApiReply => {
    const offset = Number(req.url.searchParams.get('offset') ?? 0);
    const count = Math.min(100, Number(req.url.searchParams.get('count') ?? 100));
    return { body: list.slice(offset, offset + count) };
  };
  const issue = (i: StoryIssue) => ({
    id: 1000 + i.number, number: i.number, state: i.state === 'open' ? 'Open' : 'Closed', title: i.title, description: i.body,
    submitterId: i.user.id, submitDate: i.created_at, projectId: PROJECT_ID, uuid: `u-${i.number}`, voteCount: 0, commentCount: i.comments.length,
  });
  const pull = (p: StoryPull) => ({
    id: 2000 + p.number, number: offsetOf(p), title: p.title, description: p.body, submitterId: p.user.id, submitDate: p.created_at,
    targetProjectId: PROJECT_ID, targetBranch: p.base, sourceProjectId: PROJECT_ID, sourceBranch: p.head, baseCommitHash: p.baseSha,
    closeInfo: p.state === 'closed' ? { date: p.closed_at, status: p.merged ? 'MERGED' : 'DISCARDED', user: p.user.id } : null,
  });
  const byIssueId = (id: string) => story.issues.find((i) => 1000 + i.number === Number(id));
  const byPullId = (id: string) => story.pulls.find((p) => 2000 + p.number === Number(id));

  const route = (req: ApiRequest): ApiReply | undefined => {
    const path = req.url.pathname;
    const query = req.url.searchParams.get('query') ?? '';
    let m: RegExpExecArray | null;
    if (path === '/api/projects') return { body: query === `"Name" is "${story.repo}"` ? [{ id: PROJECT_ID, name: story.repo, description: 'the story' }] : [] };
    if (path === `/api/projects/${PROJECT_ID}/milestones`) {
      return slice(req, story.milestones.map((x) => ({ id: 40 + x.id, name: x.title, description: x.description, dueDate: x.due_on ?? x.closed_at, closed: x.state === 'closed' })));
    }
    if (path === '/api/issues') return slice(req, query === `"Project" is "${story.repo}"` ? story.issues.map(issue) : []);
    if ((m = /^\/api\/issues\/(\d+)\/fields$/.exec(path))) {
      const i = byIssueId(m[1]!);
      return i && { body: [{ name: 'Priority', value: 'Normal' }, ...(i.labels[0] ? [{ name: 'Type', value: TYPE[i.labels[0]] }] : [])] };
    }
    if ((m = /^\/api\/issues\/(\d+)\/milestones$/.exec(path))) {
      const i = byIssueId(m[1]!);
      const ms = story.milestones.find((x) => x.title === i?.milestone);
      return i && { body: ms ? [{ id: 40 + ms.id, name: ms.title }] : [] };
    }
    if ((m = /^\/api\/(issues|pull-requests)\/(\d+)\/comments$/.exec(path))) {
      const item = m[1] === 'issues' ? byIssueId(m[2]!) : byPullId(m[2]!);
      return item && { body: item.comments.map((c) => ({ id: c.id, date: c.created_at, userId: c.user.id, content: c.body })) };
    }
    if ((m = /^\/api\/(issues|pull-requests)\/(\d+)\/changes$/.exec(path))) {
      // A change without a comment (a field changed): not a comment.
      return { body: [{ id: 1, date: story.issues[0]!.created_at, userId: ALICE.id, data: { oldState: 'Open', newState: 'Open' } }] };
    }
    if (path === '/api/pull-requests') return slice(req, query === `"Target Project" is "${story.repo}"` ? story.pulls.map(pull) : []);
    if ((m = /^\/api\/pull-requests\/(\d+)\/merge-preview$/.exec(path))) {
      const p = byPullId(m[1]!);
      return p && { body: { targetHeadCommitHash: p.baseSha, headCommitHash: p.headSha, mergeStrategy: 'CREATE_MERGE_COMMIT', mergeCommitHash: p.merge_commit_sha ?? undefined } };
    }
    if ((m = /^\/api\/pull-requests\/(\d+)\/reviews$/.exec(path))) {
      const p = byPullId(m[1]!);
      return p && { body: p.reviews.map((r) => ({ id: r.id, userId: r.user.id, result: { commit: p.headSha, approved: r.state === 'APPROVED', comment: r.body } })) };
    }
    if ((m = /^\/api\/users\/(\d+)$/.exec(path))) {
      const u = users.find((x) => x.id === Number(m![1]));
      return u && { body: { id: u.id, name: u.login, fullName: u.login.toUpperCase(), email: `${u.login}@example.com` } };
    }
    return undefined;
  };

  const want = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
  return (req): ApiReply => {
    if (req.headers.authorization !== want) return { status: 401, body: { message: 'Unauthorized' } };
    return route(req) ?? { status: 404, body: { message: 'Not Found' } };
  };
}
