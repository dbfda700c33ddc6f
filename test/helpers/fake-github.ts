import type { ApiHandler, ApiReply, ApiRequest } from './fake-forge';
import { pageOf } from './fake-forge';
import { GithubShapes } from './github-shapes';
import type { Story } from './migrate-story';

// GitHub's REST API v3 as GitHub Enterprise Server serves it (under /api/v3/), over a story:
// token auth, per_page/page paging with Link headers, the X-RateLimit-* headers on every
// answer, a window that runs out once (a request before its reset is refused with 403, as
// GitHub does), and one secondary-limit 429 with Retry-After. `gitbucket` drops what GitBucket
// lacks: reactions, reviews, topics and Link headers.

export type GithubFakeState = {
  /** Requests that arrived while the window was used up (the importer should have waited). */
  early: number; secondaryLimited: number; exhaustedAt: number;
};

export function githubApi(story: Story, opts: { token: string; base: () => string; gitbucket?: boolean; exhaustAfter?: number; resetInMs?: number }): { api: ApiHandler; state: GithubFakeState } {
  const state: GithubFakeState = { early: 0, secondaryLimited: 0, exhaustedAt: 0 };
  let used = 0;
  let resetAt = 0;
  const shapes = () => new GithubShapes(`${opts.base()}api/v3/`, `${opts.base()}${story.owner}/${story.repo}`, story);
  const limitHeaders = (remaining: number): Record<string, string> => ({
    'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-used': String(used),
    'x-ratelimit-reset': String(Math.ceil((resetAt || Date.now() + 3_600_000) / 1000)), 'x-ratelimit-resource': 'core',
  });

  const paged = (req: ApiRequest, items: unknown[]): ApiReply => {
    const p = pageOf(items, req.url);
    const link = (n: number) => { const u = new URL(req.url); u.searchParams.set('page', String(n)); return u.toString(); };
    const parts = [];
    if (p.more) parts.push(`<${link(p.page + 1)}>; rel="next"`, `<${link(p.last)}>; rel="last"`);
    if (p.page > 1) parts.push(`<${link(1)}>; rel="first"`, `<${link(p.page - 1)}>; rel="prev"`);
    return { body: p.slice, headers: parts.length && !opts.gitbucket ? { link: parts.join(', ') } : {} };
  };

  const route = (req: ApiRequest): ApiReply | undefined => {
    const s = shapes();
    const prefix = `/api/v3/repos/${story.owner}/${story.repo}`;
    if (!req.url.pathname.startsWith(prefix)) return undefined;
    const sub = req.url.pathname.slice(prefix.length);
    const all = [...story.issues, ...story.pulls];
    const byNumber = (n: string) => all.find((i) => i.number === Number(n));
    const pullOf = (n: string) => story.pulls.find((p) => p.number === Number(n));
    let m: RegExpExecArray | null;
    if (sub === '/labels') return paged(req, story.labels.map((l) => s.label(l.name)));
    if (sub === '/milestones') return paged(req, story.milestones.map((x) => s.milestone(x.title)));
    if (sub === '/issues') return paged(req, all.map((i) => s.issue(i, story.pulls.includes(i as never))));
    if (sub === '/pulls') return paged(req, story.pulls.map((p) => s.pull(p)));
    if (sub === '/releases') return paged(req, [s.release()]);
    if (sub === '/topics') return opts.gitbucket ? undefined : { body: s.topics() };
    if (sub === '/issues/comments' && !opts.gitbucket) {
      const every = all.flatMap((i) => i.comments.map((c) => ({ n: i.number, c }))).sort((a, b) => Date.parse(a.c.created_at) - Date.parse(b.c.created_at));
      return paged(req, every.map(({ n, c }) => s.comment(n, c)));
    }
    if ((m = /^\/issues\/(\d+)\/comments$/.exec(sub))) return paged(req, (byNumber(m[1]!)?.comments ?? []).map((c) => s.comment(Number(m![1]), c)));
    if ((m = /^\/issues\/(\d+)\/reactions$/.exec(sub)) && !opts.gitbucket) return paged(req, s.reactions(byNumber(m[1]!)?.reactions ?? []));
    if ((m = /^\/issues\/comments\/(\d+)\/reactions$/.exec(sub)) && !opts.gitbucket) {
      const c = all.flatMap((i) => i.comments).find((x) => x.id === Number(m![1]));
      return c ? paged(req, s.reactions(c.reactions)) : undefined;
    }
    if ((m = /^\/pulls\/(\d+)\/reviews$/.exec(sub)) && !opts.gitbucket) {
      const p = pullOf(m[1]!);
      return p && paged(req, p.reviews.map((r) => s.review(p, r)));
    }
    if ((m = /^\/pulls\/(\d+)\/reviews\/(\d+)\/comments$/.exec(sub)) && !opts.gitbucket) {
      const p = pullOf(m[1]!);
      const r = p?.reviews.find((x) => x.id === Number(m![2]));
      return p && r && paged(req, r.lines.map((_, i) => s.reviewComment(p, r, i)));
    }
    if (sub === `/releases/assets/${story.release.asset.id}` && req.headers.accept === 'application/octet-stream') {
      return { status: 302, headers: { location: `${opts.base()}storage/${story.release.asset.name}` } };
    }
    return undefined;
  };

  const api: ApiHandler = (req): ApiReply => {
    if (req.url.pathname === `/storage/${story.release.asset.name}`) return { raw: story.release.asset.bytes, headers: { 'content-type': 'application/octet-stream' } };
    if (req.headers.authorization !== `token ${opts.token}`) return { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } };
    if (resetAt && Date.now() < resetAt) {
      state.early++;
      return { status: 403, headers: limitHeaders(0), body: { message: 'API rate limit exceeded', documentation_url: 'https://docs.github.com/rest' } };
    }
    resetAt = 0;
    used++;
    // The second page of issues is refused once by a secondary limit.
    if (req.url.pathname.endsWith('/issues') && req.url.searchParams.get('page') === '2' && !state.secondaryLimited) {
      state.secondaryLimited++;
      return { status: 429, headers: { 'retry-after': '1', ...limitHeaders(4000) }, body: { message: 'You have exceeded a secondary rate limit' } };
    }
    let remaining = 4000;
    if (used === (opts.exhaustAfter ?? 5)) {
      remaining = 0;
      resetAt = Date.now() + (opts.resetInMs ?? 1000);
      state.exhaustedAt = Date.now();
    }
    const reply = route(req);
    if (!reply) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    return { ...reply, headers: { ...limitHeaders(remaining), ...reply.headers } };
  };
  return { api, state };
}
