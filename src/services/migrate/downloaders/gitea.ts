import type { Downloader, SourceAsset, SourceComment, SourceIssue, SourceLabel, SourceMilestone, SourcePull, SourceReaction, SourceRelease, SourceReview } from '../downloader';
import { isUnder, SourceError, SourceHttp, type HttpOptions } from '../source-http';

// Gitea, Forgejo and Gogs (Gitea's gitea_downloader): their v1 API, `page`/`limit` paging until a
// short page, the token as `Authorization: token`. Gogs lacks reactions and reviews: a 404 or
// 403 there reads as none.

export const PAGE_SIZE = 50;

export type GiteaSource = {
  /** The source's root, e.g. https://gitea.example.com/ (ending with a slash). */
  baseUrl: string;
  owner: string;
  repo: string;
  token: string;
  service: 'gitea' | 'forgejo' | 'gogs';
};

type GiteaReviewComment = {
  path: string; position?: number; original_position?: number; diff_hunk?: string; body?: string;
  user: SourceIssue['user']; commit_id?: string; created_at?: string; updated_at?: string;
};

export class GiteaDownloader implements Downloader {
  readonly describe: string;
  private readonly http: SourceHttp;
  private readonly base: string;

  constructor(private readonly s: GiteaSource, opts: HttpOptions) {
    this.base = s.baseUrl.endsWith('/') ? s.baseUrl : `${s.baseUrl}/`;
    this.http = new SourceHttp(opts, new URL(this.base).host, (): Record<string, string> => (s.token ? { authorization: `token ${s.token}` } : {}));
    this.describe = `${s.service} ${this.repoUrl('')}`;
  }

  /** `api/v1/repos/{owner}/{repo}{sub}` on the source. */
  repoUrl(sub: string, query: Record<string, string | number> = {}): string {
    const url = new URL(`api/v1/repos/${encodeURIComponent(this.s.owner)}/${encodeURIComponent(this.s.repo)}${sub}`, this.base);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    return url.toString();
  }

  pullRefspecs(): string[] { return ['+refs/pull/*/head:refs/pull/*/head']; }

  /** Pages of a list endpoint, one at a time. */
  private async *pages<T>(sub: string, query: Record<string, string | number> = {}): AsyncGenerator<T[]> {
    let previous = '';
    for (let page = 1; ; page++) {
      const items = await this.http.getJson<T[] | null>(this.repoUrl(sub, { ...query, page, limit: PAGE_SIZE }));
      const list = Array.isArray(items) ? items : [];
      // A source that ignores `page` answers the first page again: stop rather than loop.
      const first = list.length ? JSON.stringify(list[0]) : '';
      if (page > 1 && first === previous) return;
      previous = first;
      if (list.length) yield list;
      if (list.length < PAGE_SIZE) return;
    }
  }

  /** Every item of a small paged list; 404/403 (a feature the source lacks) reads as none. */
  private async allOrNone<T>(sub: string): Promise<T[]> {
    const out: T[] = [];
    try {
      for await (const page of this.pages<T>(sub)) out.push(...page);
    } catch (err) {
      if (err instanceof SourceError && (err.status === 404 || err.status === 403)) return [];
      throw err;
    }
    return out;
  }

  getLabels(): AsyncIterable<SourceLabel[]> { return this.pages<SourceLabel>('/labels'); }
  getMilestones(): AsyncIterable<SourceMilestone[]> { return this.pages<SourceMilestone>('/milestones', { state: 'all' }); }

  private async withReactions<T extends SourceIssue>(items: T[]): Promise<T[]> {
    for (const item of items) item.reactions = await this.allOrNone<SourceReaction>(`/issues/${item.number}/reactions`);
    return items;
  }

  async *getIssues(): AsyncIterable<SourceIssue[]> {
    for await (const page of this.pages<SourceIssue & { pull_request?: unknown }>('/issues', { state: 'all', type: 'issues' })) {
      // A source that ignores type=issues still marks its pulls.
      yield await this.withReactions(page.filter((i) => !i.pull_request));
    }
  }

  async getComments(item: SourceIssue): Promise<SourceComment[]> {
    // Gitea's API gives an issue's comments in one list (no paging parameters).
    const list = (await this.http.getJson<SourceComment[] | null>(this.repoUrl(`/issues/${item.number}/comments`))) ?? [];
    for (const c of list) c.reactions = (await this.http.tryJson<SourceReaction[] | null>(this.repoUrl(`/issues/comments/${c.id}/reactions`))) ?? [];
    return list;
  }

  async *getPullRequests(): AsyncIterable<SourcePull[]> {
    type Branch = { ref?: string; sha?: string; repo?: { full_name?: string } | null };
    type Raw = Omit<SourcePull, 'head' | 'base'> & { head?: Branch; base?: Branch };
    const own = `${this.s.owner}/${this.s.repo}`.toLowerCase();
    const branch = (b: Branch | undefined) => {
      const full = b?.repo?.full_name;
      return { ref: b?.ref, sha: b?.sha, fork: full && full.toLowerCase() !== own ? full.split('/')[0] : undefined };
    };
    for await (const page of this.pages<Raw>('/pulls', { state: 'all' })) {
      yield await this.withReactions(page.map((p) => ({ ...p, head: branch(p.head), base: branch(p.base) })));
    }
  }

  async getReviews(pull: SourcePull): Promise<SourceReview[]> {
    const reviews = await this.allOrNone<SourceReview & { comments_count?: number }>(`/pulls/${pull.number}/reviews`);
    for (const r of reviews) {
      if (!r.comments_count) continue;
      const lines = (await this.http.tryJson<GiteaReviewComment[]>(this.repoUrl(`/pulls/${pull.number}/reviews/${r.id}/comments`))) ?? [];
      r.comments = lines.map((c) => ({
        path: c.path, line: c.position ? c.position : -(c.original_position ?? 0), diff_hunk: c.diff_hunk, body: c.body,
        user: c.user, commit_id: c.commit_id, created_at: c.created_at, updated_at: c.updated_at,
      }));
    }
    return reviews;
  }

  async *getReleases(): AsyncIterable<SourceRelease[]> {
    type Raw = Omit<SourceRelease, 'assets'> & { assets?: (Omit<SourceAsset, 'url'> & { browser_download_url: string })[] | null };
    for await (const page of this.pages<Raw>('/releases')) {
      yield page.map((r) => ({ ...r, assets: (r.assets ?? []).map((a) => ({ ...a, url: a.browser_download_url })) }));
    }
  }

  isSourceAsset(asset: SourceAsset): boolean { return isUnder(asset.url, this.base); }

  downloadAsset(asset: SourceAsset, file: string): Promise<number> { return this.http.download(asset.url, file); }

  async getTopics(): Promise<string[]> {
    const body = await this.http.tryJson<{ topics?: string[] | null }>(this.repoUrl('/topics'));
    return body?.topics ?? [];
  }
}
