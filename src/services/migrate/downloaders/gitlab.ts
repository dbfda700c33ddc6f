import type { IncomingHttpHeaders } from 'node:http';
import type {
  Downloader, SourceAsset, SourceComment, SourceIssue, SourceLabel, SourceMilestone, SourcePull, SourceReaction, SourceRelease,
  SourceReview, SourceUser,
} from '../downloader';
import { isUnder, SourceHttp, type HttpOptions } from '../source-http';

// GitLab's REST API v4 (Gitea's gitlab downloader), gitlab.com or self-managed: the project by
// its full path, `page`/`per_page` paging that follows X-Next-Page, the token as PRIVATE-TOKEN.
// GitLab numbers merge requests apart from issues; as Gitea, a merge request becomes number
// iid + the largest issue number, and its head (refs/merge-requests/<iid>/head) is fetched under
// refs/migrate/ so the uploader can keep it as refs/pull/<number>/head. Award emoji become
// reactions; approvals become approving reviews, and diff notes line comments of a review.

export type GitlabSource = { origin: string; projectPath: string; token: string };

const PAGE = 50;
const LONG_PAGE = 100;

type User = { id: number; username: string } | null | undefined;
type Issue = {
  iid: number; title: string; description?: string | null; author: User; state: string; discussion_locked?: boolean | null;
  labels?: string[]; milestone?: { title: string } | null; created_at: string; updated_at: string; closed_at?: string | null;
  due_date?: string | null; user_notes_count?: number; upvotes?: number; downvotes?: number;
};
type MergeRequest = Issue & {
  source_branch: string; target_branch: string; sha?: string; merge_commit_sha?: string | null; squash_commit_sha?: string | null;
  merged_at?: string | null; merged_by?: User; merge_user?: User; source_project_id?: number; target_project_id?: number;
  diff_refs?: { base_sha?: string; head_sha?: string; start_sha?: string } | null;
};
type Note = {
  id: number; body: string; author: User; created_at: string; updated_at: string; system: boolean; type?: string | null;
  position?: { new_path?: string; old_path?: string; new_line?: number | null; old_line?: number | null; head_sha?: string } | null;
};
type Award = { id: number; name: string; user: User; created_at: string };
type Release = {
  tag_name: string; name?: string; description?: string | null; created_at: string; released_at?: string; author?: User;
  upcoming_release?: boolean; commit?: { id?: string }; assets?: { links?: { id: number; name: string; url: string; direct_asset_url?: string }[] };
};

// GitLab's emoji names for the reactions the two forges share.
const REACTION: Record<string, string> = {
  thumbsup: '+1', thumbsdown: '-1', laughing: 'laugh', smile: 'laugh', tada: 'hooray', confused: 'confused', heart: 'heart', rocket: 'rocket', eyes: 'eyes',
};

const user = (u: User): SourceUser => (u ? { id: u.id, login: u.username } : null);
const stateOf = (s: string) => (s === 'opened' ? 'open' : 'closed');
const dueOn = (d: string | null | undefined) => (d ? `${d}T00:00:00Z` : null);

export class GitlabDownloader implements Downloader {
  readonly describe: string;
  private readonly http: SourceHttp;
  private readonly api: string;
  private project: { id: number; topics: string[] } | null = null;
  private issueOffset: number | null = null;
  /** A merge request's notes, read once for its comments and its line comments. */
  private readonly mrNotes = new Map<number, Note[]>();

  constructor(private readonly s: GitlabSource, opts: HttpOptions) {
    this.api = `${s.origin}/api/v4/`;
    this.http = new SourceHttp(opts, new URL(s.origin).host, (): Record<string, string> => (s.token ? { 'private-token': s.token } : {}));
    this.describe = `gitlab ${s.origin}/${s.projectPath}`;
  }

  private async projectUrl(sub: string, query: Record<string, string | number> = {}): Promise<string> {
    if (!this.project) {
      const p = await this.http.getJson<{ id: number; topics?: string[]; tag_list?: string[] }>(`${this.api}projects/${encodeURIComponent(this.s.projectPath)}`);
      this.project = { id: p.id, topics: p.topics ?? p.tag_list ?? [] };
    }
    const url = new URL(`projects/${this.project.id}${sub}`, this.api);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Pages through X-Next-Page (empty on the last page); a source without it stops at a short page. */
  private async *pages<T>(sub: string, query: Record<string, string | number> = {}, size = PAGE): AsyncGenerator<T[]> {
    for (let page: number | null = 1; page;) {
      const answer: { data: T[]; headers: IncomingHttpHeaders } = await this.http.json<T[]>(await this.projectUrl(sub, { ...query, per_page: size, page }));
      const list: T[] = Array.isArray(answer.data) ? answer.data : [];
      const next: string | string[] | undefined = answer.headers['x-next-page'];
      // An empty page ends the list, whatever X-Next-Page says (GitLab has sent one past the end).
      if (!list.length) return;
      yield list;
      if (next !== undefined) page = /^\d+$/.test(String(next)) && Number(next) > page ? Number(next) : null;
      else page = list.length >= size ? page + 1 : null;
    }
  }

  private async all<T>(sub: string, query: Record<string, string | number> = {}): Promise<T[]> {
    const out: T[] = [];
    for await (const page of this.pages<T>(sub, query, LONG_PAGE)) out.push(...page);
    return out;
  }

  pullRefspecs(): string[] { return ['+refs/merge-requests/*/head:refs/migrate/merge-requests/*']; }

  async *getLabels(): AsyncIterable<SourceLabel[]> {
    for await (const page of this.pages<{ name: string; color: string; description?: string | null }>('/labels', {}, LONG_PAGE)) {
      yield page.map((l) => ({ name: l.name, color: l.color, description: l.description ?? '' }));
    }
  }

  async *getMilestones(): AsyncIterable<SourceMilestone[]> {
    type M = { title: string; description?: string | null; state: string; due_date?: string | null; created_at: string; updated_at: string };
    for await (const page of this.pages<M>('/milestones', {}, LONG_PAGE)) {
      yield page.map((m) => ({
        title: m.title, description: m.description ?? '', state: m.state === 'closed' ? 'closed' : 'open', due_on: dueOn(m.due_date),
        // GitLab keeps no closing time: the last update is the nearest.
        closed_at: m.state === 'closed' ? m.updated_at : null, created_at: m.created_at, updated_at: m.updated_at,
      }));
    }
  }

  private async awards(sub: string): Promise<SourceReaction[]> {
    const list = await this.all<Award>(sub);
    return list.map((a) => ({ user: user(a.user), content: REACTION[a.name] ?? a.name, created_at: a.created_at }));
  }

  private issueOf(i: Issue, number: number, kind: 'issues' | 'merge_requests'): SourceIssue {
    return {
      number, title: i.title, body: i.description ?? '', user: user(i.author), state: stateOf(i.state), is_locked: !!i.discussion_locked,
      labels: (i.labels ?? []).map((name) => ({ name })), milestone: i.milestone ? { title: i.milestone.title } : null,
      created_at: i.created_at, updated_at: i.updated_at, closed_at: i.closed_at ?? null, due_date: dueOn(i.due_date),
      foreign: { kind, iid: i.iid, notes: i.user_notes_count ?? 1 },
    };
  }

  async *getIssues(): AsyncIterable<SourceIssue[]> {
    for await (const page of this.pages<Issue>('/issues', { state: 'all', sort: 'asc', order_by: 'created_at' })) {
      const out: SourceIssue[] = [];
      for (const i of page) {
        const item = this.issueOf(i, i.iid, 'issues');
        // upvotes/downvotes count only thumbs: any other emoji is found only by asking.
        item.reactions = await this.awards(`/issues/${i.iid}/award_emoji`);
        out.push(item);
      }
      yield out;
    }
  }

  async getComments(item: SourceIssue): Promise<SourceComment[]> {
    const f = item.foreign as { kind: string; iid: number; notes: number };
    if (!f.notes) return [];
    const notes = await this.notes(f.kind, f.iid);
    // System notes (label changes, mentions) and diff notes (line comments of reviews) are not comments.
    return notes.filter((n) => !n.system && n.type !== 'DiffNote').map((n) => ({
      id: n.id, body: n.body, user: user(n.author), created_at: n.created_at, updated_at: n.updated_at, reactions: [],
    }));
  }

  private async notes(kind: string, iid: number): Promise<Note[]> {
    const cached = kind === 'merge_requests' ? this.mrNotes.get(iid) : undefined;
    if (cached) return cached;
    const notes = await this.all<Note>(`/${kind}/${iid}/notes`, { sort: 'asc', order_by: 'created_at' });
    if (kind === 'merge_requests') this.mrNotes.set(iid, notes);
    return notes;
  }

  /** The largest issue number: merge requests are numbered after it. */
  private async offset(): Promise<number> {
    if (this.issueOffset === null) {
      const [last] = await this.http.getJson<Issue[]>(await this.projectUrl('/issues', { state: 'all', order_by: 'created_at', sort: 'desc', per_page: 1 }));
      this.issueOffset = last?.iid ?? 0;
    }
    return this.issueOffset;
  }

  async *getPullRequests(): AsyncIterable<SourcePull[]> {
    const offset = await this.offset();
    for await (const page of this.pages<MergeRequest>('/merge_requests', { state: 'all', sort: 'asc', order_by: 'created_at' })) {
      const out: SourcePull[] = [];
      for (const mr of page) {
        const merged = mr.state === 'merged';
        const fork = mr.source_project_id && mr.target_project_id && mr.source_project_id !== mr.target_project_id ? `fork-${mr.source_project_id}` : undefined;
        out.push({
          ...this.issueOf(mr, mr.iid + offset, 'merge_requests'), merged, merged_at: merged ? mr.merged_at ?? mr.updated_at : null,
          merge_commit_sha: merged ? mr.merge_commit_sha ?? mr.squash_commit_sha ?? null : null, merged_by: user(mr.merged_by ?? mr.merge_user),
          closed_at: mr.closed_at ?? (merged ? mr.merged_at ?? null : null),
          head: { ref: mr.source_branch, sha: mr.diff_refs?.head_sha ?? mr.sha, fork },
          base: { ref: mr.target_branch, sha: mr.diff_refs?.base_sha }, merge_base: mr.diff_refs?.start_sha,
          reactions: await this.awards(`/merge_requests/${mr.iid}/award_emoji`),
        });
      }
      yield out;
    }
  }

  async getReviews(pull: SourcePull): Promise<SourceReview[]> {
    const iid = (pull.foreign as { iid: number }).iid;
    const approvals = await this.http.tryJson<{ approved_by?: { user: User }[] }>(await this.projectUrl(`/merge_requests/${iid}/approvals`));
    const reviews: SourceReview[] = (approvals?.approved_by ?? []).map((a, i) => ({
      id: i + 1, user: user(a.user), state: 'APPROVED', body: '', commit_id: pull.head?.sha, submitted_at: pull.updated_at,
    }));
    const notes = await this.notes('merge_requests', iid);
    this.mrNotes.delete(iid);
    for (const n of notes.filter((x) => x.type === 'DiffNote' && x.position)) {
      const p = n.position!;
      const line = p.new_line ? p.new_line : -(p.old_line ?? 0);
      reviews.push({
        id: n.id, user: user(n.author), state: 'COMMENT', body: '', commit_id: p.head_sha, submitted_at: n.created_at,
        comments: [{ path: p.new_path ?? p.old_path ?? '', line, body: n.body, user: user(n.author), commit_id: p.head_sha, created_at: n.created_at, updated_at: n.updated_at }],
      });
    }
    return reviews;
  }

  async *getReleases(): AsyncIterable<SourceRelease[]> {
    for await (const page of this.pages<Release>('/releases', {}, LONG_PAGE)) {
      yield page.map((r, i): SourceRelease => ({
        id: i + 1, tag_name: r.tag_name, target_commitish: r.commit?.id ?? '', name: r.name ?? r.tag_name, body: r.description ?? '',
        draft: !!r.upcoming_release, prerelease: false, created_at: r.created_at, published_at: r.released_at ?? r.created_at, author: user(r.author),
        assets: (r.assets?.links ?? []).map((l) => ({ id: l.id, name: l.name, url: l.direct_asset_url || l.url })),
      }));
    }
  }

  /** Only links into the GitLab instance itself are downloaded (a link may point anywhere). */
  isSourceAsset(asset: SourceAsset): boolean { return isUnder(asset.url, `${this.s.origin}/`); }

  downloadAsset(asset: SourceAsset, file: string): Promise<number> { return this.http.download(asset.url, file); }

  async getTopics(): Promise<string[]> {
    await this.projectUrl('');
    return this.project!.topics;
  }
}
