import type {
  Downloader, RepoComment, SourceAsset, SourceComment, SourceIssue, SourceLabel, SourceMilestone, SourcePull, SourceReaction, SourceRelease,
  SourceReview, SourceReviewComment, SourceUser,
} from '../downloader';
import { nextLink } from '../rate-limit';
import { isUnder, SourceError, SourceHttp, type HttpOptions } from '../source-http';

// GitHub's REST API v3 (Gitea's github downloader): api.github.com for github.com, <host>/api/v3
// for GitHub Enterprise Server and GitBucket (which speaks the same API, without reactions or
// reviews). Lists are followed through their Link headers; reactions and comments are read only
// where the counts say there are some, and comments come from the repository-wide list (100 a
// request) rather than one request per issue: GitHub's hourly quota goes a long way.

export type GithubSource = {
  apiBase: string; owner: string; repo: string; token: string; username: string; password: string;
  service: 'github' | 'gitbucket';
};

const PAGE = 50;
const LONG_PAGE = 100;

type User = { id: number; login: string } | null | undefined;
type Rollup = { total_count?: number } | undefined;
type Issue = {
  number: number; title: string; body?: string | null; user: User; state: string; locked?: boolean;
  labels?: (string | { name?: string })[]; milestone?: { title: string } | null; created_at: string; updated_at: string;
  closed_at: string | null; comments?: number; reactions?: Rollup; pull_request?: unknown;
};
type Branch = { ref: string; sha: string; repo?: { full_name?: string; owner?: { login: string } } | null };
type Pull = Omit<Issue, 'comments' | 'reactions'> & { merged_at?: string | null; merge_commit_sha?: string | null; head: Branch; base: Branch };
type Comment = { id: number; body?: string; user: User; created_at: string; updated_at: string; reactions?: Rollup };
type Review = { id: number; user: User; state: string; body?: string | null; commit_id?: string; submitted_at?: string };
type ReviewComment = {
  path: string; line?: number | null; original_line?: number | null; position?: number | null; side?: string;
  diff_hunk?: string; body?: string; user: User; commit_id?: string; created_at?: string; updated_at?: string;
};
type Asset = { id: number; name: string; size: number; download_count: number; created_at: string; url: string };
type Release = SourceRelease & { author?: User; assets?: Asset[] };

const REVIEW_STATE: Record<string, string> = { APPROVED: 'APPROVED', CHANGES_REQUESTED: 'REQUEST_CHANGES', COMMENTED: 'COMMENT', DISMISSED: 'COMMENT' };

const user = (u: User): SourceUser => (u ? { id: u.id, login: u.login } : null);
const labelsOf = (list: Issue['labels']) => (list ?? []).flatMap((l) => {
  const name = typeof l === 'string' ? l : l.name;
  return name ? [{ name }] : [];
});

/**
 * `https://api.github.com/` for github.com, `<origin>/api/v3/` for GitHub Enterprise Server;
 * GitBucket's under its context path (`root`), its git addresses' `/git/` left out.
 */
export function githubApiBase(address: string, root: string, service: 'github' | 'gitbucket'): string {
  const url = new URL(address);
  if (service === 'gitbucket') return `${root.replace(/\/git\/$/, '/')}api/v3/`;
  return url.hostname === 'github.com' || url.hostname === 'www.github.com' ? 'https://api.github.com/' : `${url.origin}/api/v3/`;
}

export class GithubDownloader implements Downloader {
  readonly describe: string;
  private readonly http: SourceHttp;

  constructor(private readonly s: GithubSource, opts: HttpOptions) {
    this.http = new SourceHttp(opts, new URL(s.apiBase).host, () => this.auth());
    this.describe = `${s.service} ${this.url('')}`;
    // GitHub lists every comment of a repository at once (GitBucket does not).
    if (s.service === 'github') this.getAllComments = () => this.repoComments();
  }

  getAllComments?: () => AsyncIterable<RepoComment[]>;

  private auth(): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' };
    // `token` rather than `Bearer`: GitHub takes both, GitBucket only this one.
    if (this.s.token) h.authorization = `token ${this.s.token}`;
    else if (this.s.username || this.s.password) h.authorization = `Basic ${Buffer.from(`${this.s.username}:${this.s.password}`).toString('base64')}`;
    return h;
  }

  private get gitbucket(): boolean { return this.s.service === 'gitbucket'; }

  private url(sub: string, query: Record<string, string | number> = {}): string {
    const url = new URL(`repos/${encodeURIComponent(this.s.owner)}/${encodeURIComponent(this.s.repo)}${sub}`, this.s.apiBase);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** A list, page by page: the Link header's next page, or (without one) the next number until a short page. */
  private async *pages<T>(sub: string, query: Record<string, string | number> = {}, size = PAGE): AsyncGenerator<T[]> {
    let url: string | null = this.url(sub, { ...query, per_page: size, page: 1 });
    for (let page = 1; url; page++) {
      const answer: { data: T[]; headers: import('node:http').IncomingHttpHeaders } = await this.http.json<T[]>(url);
      const { headers } = answer;
      const list: T[] = Array.isArray(answer.data) ? answer.data : [];
      if (list.length) yield list;
      const next = nextLink(headers);
      // Only a next page on the API's own host is followed (the credentials go nowhere else).
      if (next) url = isUnder(next, this.s.apiBase) ? next : null;
      else url = headers.link === undefined && list.length >= size ? this.url(sub, { ...query, per_page: size, page: page + 1 }) : null;
    }
  }

  private async all<T>(sub: string, query: Record<string, string | number> = {}): Promise<T[]> {
    const out: T[] = [];
    for await (const page of this.pages<T>(sub, query, LONG_PAGE)) out.push(...page);
    return out;
  }

  pullRefspecs(): string[] { return ['+refs/pull/*/head:refs/pull/*/head']; }

  getLabels(): AsyncIterable<SourceLabel[]> { return this.pages<SourceLabel>('/labels', {}, LONG_PAGE); }

  async *getMilestones(): AsyncIterable<SourceMilestone[]> {
    yield* this.pages<SourceMilestone>('/milestones', { state: 'all' }, LONG_PAGE);
  }

  private async reactions(sub: string): Promise<SourceReaction[]> {
    if (this.gitbucket) return [];
    const list = await this.all<{ user: User; content: string; created_at: string }>(sub);
    return list.map((r) => ({ user: user(r.user), content: r.content, created_at: r.created_at }));
  }

  private issueOf(i: Issue): SourceIssue {
    return {
      number: i.number, title: i.title, body: i.body ?? '', user: user(i.user), state: i.state, is_locked: !!i.locked,
      labels: labelsOf(i.labels), milestone: i.milestone ? { title: i.milestone.title } : null,
      created_at: i.created_at, updated_at: i.updated_at, closed_at: i.closed_at,
      // Whether to ask for comments at all (a pull's list entry has no count: always ask).
      foreign: { comments: i.comments ?? 1 },
    };
  }

  async *getIssues(): AsyncIterable<SourceIssue[]> {
    for await (const page of this.pages<Issue>('/issues', { state: 'all', sort: 'created', direction: 'asc' })) {
      const out: SourceIssue[] = [];
      // The issues list has the pull requests too: they come with getPullRequests.
      for (const i of page.filter((x) => !x.pull_request)) {
        const item = this.issueOf(i);
        item.reactions = (i.reactions?.total_count ?? 0) > 0 ? await this.reactions(`/issues/${i.number}/reactions`) : [];
        out.push(item);
      }
      yield out;
    }
  }

  async getComments(item: SourceIssue): Promise<SourceComment[]> {
    if ((item.foreign as { comments?: number } | undefined)?.comments === 0) return [];
    const out: SourceComment[] = [];
    for (const c of await this.all<Comment>(`/issues/${item.number}/comments`)) out.push(await this.comment(c));
    return out;
  }

  private async comment(c: Comment): Promise<SourceComment> {
    const reactions = (c.reactions?.total_count ?? 0) > 0 ? await this.reactions(`/issues/comments/${c.id}/reactions`) : [];
    return { id: c.id, body: c.body ?? '', user: user(c.user), created_at: c.created_at, updated_at: c.updated_at, reactions };
  }

  /** The repository's comments, oldest first, each with its item's number (from its issue_url). */
  private async *repoComments(): AsyncGenerator<RepoComment[]> {
    for await (const page of this.pages<Comment & { issue_url?: string }>('/issues/comments', { sort: 'created', direction: 'asc' }, LONG_PAGE)) {
      const out: RepoComment[] = [];
      for (const c of page) {
        const issue = Number(/\/issues\/(\d+)$/.exec(c.issue_url ?? '')?.[1] ?? 0);
        if (issue > 0) out.push({ ...(await this.comment(c)), issue });
      }
      yield out;
    }
  }

  private branch(b: Branch): SourcePull['head'] {
    const full = b.repo?.full_name;
    const own = `${this.s.owner}/${this.s.repo}`.toLowerCase();
    return { ref: b.ref, sha: b.sha, fork: full && full.toLowerCase() !== own ? b.repo?.owner?.login ?? full.split('/')[0] : undefined };
  }

  async *getPullRequests(): AsyncIterable<SourcePull[]> {
    for await (const page of this.pages<Pull>('/pulls', { state: 'all', sort: 'created', direction: 'asc' })) {
      const out: SourcePull[] = [];
      for (const p of page) {
        out.push({
          ...this.issueOf(p), merged: !!p.merged_at, merged_at: p.merged_at ?? null, merge_commit_sha: p.merge_commit_sha ?? null,
          head: this.branch(p.head), base: this.branch(p.base), reactions: await this.reactions(`/issues/${p.number}/reactions`),
        });
      }
      yield out;
    }
  }

  private lineComment(c: ReviewComment): SourceReviewComment {
    const line = c.line ?? c.original_line ?? c.position ?? 0;
    return {
      path: c.path, line: c.side === 'LEFT' ? -line : line, diff_hunk: c.diff_hunk, body: c.body, user: user(c.user),
      commit_id: c.commit_id, created_at: c.created_at, updated_at: c.updated_at,
    };
  }

  async getReviews(pull: SourcePull): Promise<SourceReview[]> {
    if (this.gitbucket) return [];
    const out: SourceReview[] = [];
    for (const r of await this.all<Review>(`/pulls/${pull.number}/reviews`)) {
      const state = REVIEW_STATE[r.state];
      if (!state) continue; // pending reviews are their author's alone
      const comments = await this.all<ReviewComment>(`/pulls/${pull.number}/reviews/${r.id}/comments`);
      out.push({
        id: r.id, user: user(r.user), state, body: r.body ?? '', commit_id: r.commit_id, dismissed: r.state === 'DISMISSED',
        submitted_at: r.submitted_at, comments: comments.map((c) => this.lineComment(c)),
      });
    }
    return out;
  }

  async *getReleases(): AsyncIterable<SourceRelease[]> {
    for await (const page of this.pages<Release>('/releases', {}, LONG_PAGE)) {
      yield page.map((r) => ({
        ...r, author: user(r.author),
        assets: (r.assets ?? []).map((a): SourceAsset => ({
          id: a.id, name: a.name, size: a.size, download_count: a.download_count, created_at: a.created_at, url: a.url,
        })),
      }));
    }
  }

  /** Assets are fetched through the API (their browser URL is on another host). */
  isSourceAsset(asset: SourceAsset): boolean { return isUnder(asset.url, this.s.apiBase); }

  downloadAsset(asset: SourceAsset, file: string): Promise<number> {
    return this.http.download(asset.url, file, { accept: 'application/octet-stream' });
  }

  async getTopics(): Promise<string[]> {
    try {
      const body = await this.http.getJson<{ names?: string[] }>(this.url('/topics'));
      return body.names ?? [];
    } catch (err) {
      if (err instanceof SourceError && err.status === 404) return [];
      throw err;
    }
  }
}
