import { InvalidError } from '../../../lib/errors';
import {
  NullDownloader, type SourceComment, type SourceIssue, type SourceLabel, type SourceMilestone, type SourcePull, type SourceReview, type SourceUser,
} from '../downloader';
import { SourceHttp, type HttpOptions } from '../source-http';

// OneDev (Gitea's onedev downloader): its REST API under /api with basic auth, lists read by
// offset/count until an empty page, the project found by name. OneDev's issue types are its
// labels (a fixed set, as Gitea gives them); milestones, issues with comments, pull requests with
// reviews. Pull requests are numbered after the largest issue number (OneDev numbers them
// apart); their heads (refs/pull/<n>/head on OneDev) come under refs/migrate/ and are kept
// under the new numbers. OneDev has no reactions, releases or topics.

export type OnedevSource = { origin: string; project: string; username: string; password: string };

const PAGE = 50;
const LABELS: SourceLabel[] = [
  { name: 'Bug', color: 'f64e60' }, { name: 'Build Failure', color: 'f64e60' }, { name: 'Discussion', color: '8950fc' },
  { name: 'Improvement', color: '1bc5bd' }, { name: 'New Feature', color: '1bc5bd' }, { name: 'Support Request', color: '8950fc' },
];

type Issue = { id: number; number: number; state: string; title: string; description?: string | null; submitterId: number; submitDate: string };
type Pull = Omit<Issue, 'state'> & {
  targetBranch: string; sourceBranch: string; baseCommitHash?: string; closeInfo?: { date?: string; status?: string } | null;
};
type Change = { date: string; userId: number; data?: { content?: unknown; comment?: unknown } };

/** `https://host/projects/<name>` or `https://host/<name>`: the server and the project's name. */
export function onedevProject(address: string): { origin: string; project: string } {
  const url = new URL(address);
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 2 && parts[0] === 'projects') return { origin: url.origin, project: parts[1]!.replace(/\.git$/, '') };
  if (parts.length === 1) return { origin: url.origin, project: parts[0]!.replace(/\.git$/, '') };
  throw new InvalidError('Invalid Url: expected https://host/projects/<name>', 'clone_addr');
}

export class OnedevDownloader extends NullDownloader {
  readonly describe: string;
  private readonly http: SourceHttp;
  private projectId = 0;
  private maxIssue: number | null = null;
  private readonly users = new Map<number, SourceUser>();
  private readonly milestoneNames = new Map<number, string>();

  constructor(private readonly s: OnedevSource, opts: HttpOptions) {
    super();
    const auth: Record<string, string> = s.username || s.password ? { authorization: `Basic ${Buffer.from(`${s.username}:${s.password}`).toString('base64')}` } : {};
    this.http = new SourceHttp(opts, new URL(s.origin).host, () => auth);
    this.describe = `onedev ${s.origin}/projects/${s.project}`;
  }

  private url(path: string, query: Record<string, string | number> = {}): string {
    const url = new URL(path, `${this.s.origin}/`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    return url.toString();
  }

  private async *pages<T>(path: string, query: Record<string, string | number> = {}): AsyncGenerator<T[]> {
    for (let offset = 0; ; offset += PAGE) {
      const list = await this.http.getJson<T[] | null>(this.url(path, { ...query, offset, count: PAGE }));
      if (!Array.isArray(list) || !list.length) return;
      yield list;
      if (list.length < PAGE) return;
    }
  }

  private async project(): Promise<number> {
    if (!this.projectId) {
      const found = await this.http.getJson<{ id: number; name: string }[]>(this.url('api/projects', { query: `"Name" is "${this.s.project}"`, offset: 0, count: 1 }));
      if (!found?.length) throw new InvalidError(`Project ${this.s.project} not found on the source`, 'clone_addr');
      this.projectId = found[0]!.id;
    }
    return this.projectId;
  }

  private async user(id: number): Promise<SourceUser> {
    if (!this.users.has(id)) {
      const u = await this.http.tryJson<{ id: number; name: string }>(this.url(`api/users/${id}`));
      this.users.set(id, u?.name ? { id: u.id, login: u.name } : { id: 0, login: `User ${id}` });
    }
    return this.users.get(id);
  }

  override pullRefspecs(): string[] { return ['+refs/pull/*/head:refs/migrate/pull/*']; }

  override async *getLabels(): AsyncIterable<SourceLabel[]> { yield LABELS; }

  override async *getMilestones(): AsyncIterable<SourceMilestone[]> {
    type M = { id: number; name: string; description?: string | null; dueDate?: string | null; closed: boolean };
    for await (const page of this.pages<M>(`api/projects/${await this.project()}/milestones`)) {
      for (const m of page) this.milestoneNames.set(m.id, m.name);
      // OneDev keeps no closing time: the due date stands in (as Gitea).
      yield page.map((m) => ({ title: m.name, description: m.description ?? '', state: m.closed ? 'closed' : 'open', due_on: m.dueDate ?? null, closed_at: m.closed ? m.dueDate ?? null : null }));
    }
  }

  private issueQuery() { return { query: `"Project" is "${this.s.project}"` }; }

  override async *getIssues(): AsyncIterable<SourceIssue[]> {
    await this.project();
    for await (const page of this.pages<Issue>('api/issues', this.issueQuery())) {
      const out: SourceIssue[] = [];
      for (const i of page) {
        const fields = (await this.http.getJson<{ name: string; value: string }[]>(this.url(`api/issues/${i.id}/fields`))) ?? [];
        const type = fields.find((f) => f.name === 'Type')?.value;
        const milestones = (await this.http.getJson<{ id: number; name: string }[]>(this.url(`api/issues/${i.id}/milestones`))) ?? [];
        const state = i.state.toLowerCase() === 'released' ? 'closed' : i.state.toLowerCase();
        this.maxIssue = Math.max(this.maxIssue ?? 0, i.number);
        out.push({
          number: i.number, title: i.title, body: i.description ?? '', user: await this.user(i.submitterId), state,
          labels: type ? [{ name: type }] : [], milestone: milestones[0] ? { title: this.milestoneNames.get(milestones[0].id) ?? milestones[0].name } : null,
          created_at: i.submitDate, updated_at: i.submitDate, reactions: [], foreign: { kind: 'issues', id: i.id },
        });
      }
      yield out;
    }
  }

  /** Comments, and the changes that carry a comment (a state changed with a note). */
  override async getComments(item: SourceIssue): Promise<SourceComment[]> {
    const { kind, id } = item.foreign as { kind: string; id: number };
    const comments = (await this.http.getJson<{ date: string; userId: number; content?: string }[]>(this.url(`api/${kind}/${id}/comments`))) ?? [];
    // Changes are optional here (a OneDev without the endpoint answers 404): only their comments count.
    const changes = (await this.http.tryJson<Change[]>(this.url(`api/${kind}/${id}/changes`))) ?? [];
    const out: SourceComment[] = [];
    for (const c of comments) if (c.content) out.push({ id: 0, body: c.content, user: await this.user(c.userId), created_at: c.date, updated_at: c.date });
    for (const ch of changes) {
      const text = ch.data?.content ?? ch.data?.comment;
      if (typeof text === 'string' && text) out.push({ id: 0, body: text, user: await this.user(ch.userId), created_at: ch.date, updated_at: ch.date });
    }
    return out.sort((a, b) => Date.parse(a.created_at ?? '') - Date.parse(b.created_at ?? ''));
  }

  /** The largest issue number, read from the list when the issues were not imported. */
  private async offset(): Promise<number> {
    if (this.maxIssue === null) {
      let max = 0;
      for await (const page of this.pages<Issue>('api/issues', this.issueQuery())) for (const i of page) max = Math.max(max, i.number);
      this.maxIssue = max;
    }
    return this.maxIssue;
  }

  override async *getPullRequests(): AsyncIterable<SourcePull[]> {
    const offset = await this.offset();
    for await (const page of this.pages<Pull>('api/pull-requests', { query: `"Target Project" is "${this.s.project}"` })) {
      const out: SourcePull[] = [];
      for (const p of page) {
        type Preview = { targetHeadCommitHash?: string; headCommitHash?: string; mergeCommitHash?: string };
        const preview = (await this.http.tryJson<Preview>(this.url(`api/pull-requests/${p.id}/merge-preview`))) ?? {};
        const closed = !!p.closeInfo;
        const merged = p.closeInfo?.status === 'MERGED';
        out.push({
          number: p.number + offset, title: p.title, body: p.description ?? '', user: await this.user(p.submitterId), state: closed ? 'closed' : 'open',
          created_at: p.submitDate, updated_at: p.closeInfo?.date ?? p.submitDate, closed_at: closed ? p.closeInfo?.date ?? null : null,
          merged, merged_at: merged ? p.closeInfo?.date ?? null : null, merge_commit_sha: merged ? preview.mergeCommitHash ?? null : null,
          head: { ref: p.sourceBranch, sha: preview.headCommitHash }, base: { ref: p.targetBranch, sha: preview.targetHeadCommitHash },
          merge_base: p.baseCommitHash, reactions: [], foreign: { kind: 'pull-requests', id: p.id },
        });
      }
      yield out;
    }
  }

  override async getReviews(pull: SourcePull): Promise<SourceReview[]> {
    const { id } = pull.foreign as { id: number };
    type R = { id: number; userId: number; result?: { commit?: string; approved?: boolean; comment?: string } | null };
    const list = (await this.http.getJson<R[]>(this.url(`api/pull-requests/${id}/reviews`))) ?? [];
    const out: SourceReview[] = [];
    for (const r of list) {
      // A review without a result is still pending: not migrated.
      if (!r.result) continue;
      const state = r.result.approved ? 'APPROVED' : r.result.comment ? 'COMMENT' : '';
      if (state) out.push({ id: r.id, user: await this.user(r.userId), state, body: r.result.comment ?? '', commit_id: r.result.commit, submitted_at: pull.updated_at });
    }
    return out;
  }
}
