import { InvalidError } from '../../../lib/errors';
import { fastXmlParser } from '../../../lib/lazy-require';
import {
  NullDownloader, type SourceComment, type SourceIssue, type SourceLabel, type SourceMilestone, type SourcePull, type SourceUser,
} from '../downloader';
import { SourceHttp, type HttpOptions } from '../source-http';

// Codebase (Gitea's codebase downloader): its XML API (api3.codebasehq.com for accounts on
// codebasehq.com, the same host otherwise) with basic auth (`account/user` and the API key).
// Ticket types are the labels, milestones, tickets with their notes (the first note is the
// ticket's text), merge requests with their comments (a "merging" action marks one merged),
// numbered after the last ticket. Codebase has no reactions, reviews, releases or topics.

export type CodebaseSource = { api: string; project: string; repo: string; username: string; password: string };

const TICKETS_PAGE = 20; // the tickets list's fixed page size
const LISTS = new Set(['ticketing-milestone', 'ticketing-type', 'ticket', 'ticket-note', 'merge-request', 'comment', 'commit', 'user']);

type X = Record<string, unknown>;
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number => Number(text(v)) || 0;
const obj = (v: unknown): X => (v && typeof v === 'object' && !Array.isArray(v) ? (v as X) : {});
const arr = (v: unknown): X[] => (Array.isArray(v) ? (v as X[]) : []);
/** The `item` elements under a document's `root` (which may share their name: milestones). */
const items = (doc: X, root: string, item: string): X[] => {
  const r = doc[root];
  return arr(obj(Array.isArray(r) ? r[0] : r)[item]);
};

/** `https://<account>.codebasehq.com/<project>/<repo>.git`: where its API is, and the two names. */
export function codebaseSource(address: string): { api: string; project: string; repo: string } {
  const url = new URL(address);
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length !== 2) throw new InvalidError('Invalid Url: expected https://<account>.codebasehq.com/<project>/<repository>', 'clone_addr');
  const api = /(^|\.)codebasehq\.com$/.test(url.hostname) ? 'https://api3.codebasehq.com/' : `${url.origin}/`;
  return { api, project: parts[0]!, repo: parts[1]!.replace(/\.git$/, '') };
}

export class CodebaseDownloader extends NullDownloader {
  readonly describe: string;
  private readonly http: SourceHttp;
  private users: Map<number, SourceUser> | null = null;
  private maxTicket: number | null = null;

  constructor(private readonly s: CodebaseSource, opts: HttpOptions) {
    super();
    const auth: Record<string, string> = { accept: 'application/xml' };
    if (s.username || s.password) auth.authorization = `Basic ${Buffer.from(`${s.username}:${s.password}`).toString('base64')}`;
    this.http = new SourceHttp(opts, new URL(s.api).host, () => auth);
    this.describe = `codebase ${s.api}${s.project}/${s.repo}`;
  }

  private async xml(path: string, query: Record<string, string | number> = {}): Promise<X> {
    const url = new URL(path, this.s.api);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const body = await this.http.text(url.toString(), { headers: { accept: 'application/xml' } });
    const { XMLParser } = fastXmlParser();
    return new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (name) => LISTS.has(name) }).parse(body) as X;
  }

  private async user(id: number): Promise<SourceUser> {
    if (!this.users) {
      this.users = new Map();
      const list = items(await this.xml('users').catch((): X => ({})), 'users', 'user');
      for (const u of list) this.users.set(num(u.id), { id: num(u.id), login: text(u.username) });
    }
    return this.users.get(id) ?? { id: 0, login: `User ${id}` };
  }

  override async *getLabels(): AsyncIterable<SourceLabel[]> {
    const types = items(await this.xml(`${this.s.project}/tickets/types`), 'ticketing-types', 'ticketing-type');
    yield types.map((t) => ({ name: text(t.name), color: 'ffffff' }));
  }

  override async *getMilestones(): AsyncIterable<SourceMilestone[]> {
    const list = items(await this.xml(`${this.s.project}/milestones`), 'ticketing-milestone', 'ticketing-milestone');
    yield list.map((m) => {
      const deadline = text(m.deadline) ? `${text(m.deadline)}T00:00:00Z` : null;
      const closed = text(m.status) !== 'active';
      // Codebase keeps no closing time: the deadline stands in (as Gitea).
      return { title: text(m.name), description: text(m.description), state: closed ? 'closed' : 'open', due_on: deadline, closed_at: closed ? deadline : null };
    });
  }

  private async notes(ticket: number): Promise<SourceComment[]> {
    const list = items(await this.xml(`${this.s.project}/tickets/${ticket}/notes`), 'ticket-notes', 'ticket-note');
    const out: SourceComment[] = [];
    for (const n of list) {
      if (!text(n.content)) continue;
      out.push({ id: num(n.id), body: text(n.content), user: await this.user(num(n['user-id'])), created_at: text(n['created-at']), updated_at: text(n['updated-at']), reactions: [] });
    }
    return out;
  }

  private async *ticketPages(): AsyncGenerator<X[]> {
    let previous = '';
    for (let page = 1; ; page++) {
      const list = items(await this.xml(`${this.s.project}/tickets`, { page }).catch((err): X => {
        // Past the last page Codebase answers 404.
        if (page > 1 && (err as { status?: number }).status === 404) return {};
        throw err;
      }), 'tickets', 'ticket');
      const first = text(list[0]?.['ticket-id']);
      if (!list.length || first === previous) return;
      previous = first;
      yield list;
      if (list.length < TICKETS_PAGE) return;
    }
  }

  override async *getIssues(): AsyncIterable<SourceIssue[]> {
    for await (const page of this.ticketPages()) {
      const out: SourceIssue[] = [];
      for (const t of page) {
        const number = num(t['ticket-id']);
        const [first, ...rest] = await this.notes(number);
        this.maxTicket = Math.max(this.maxTicket ?? 0, number);
        const type = text(obj(t.type).name);
        const milestone = text(obj(t.milestone).name);
        out.push({
          number, title: text(t.summary), body: first?.body ?? '', user: await this.user(num(t['reporter-id'])),
          state: text(obj(t.status)['treat-as-closed']) === 'true' ? 'closed' : 'open',
          labels: type ? [{ name: type }] : [], milestone: milestone ? { title: milestone } : null,
          created_at: text(t['created-at']), updated_at: text(t['updated-at']), reactions: [], foreign: rest,
        });
      }
      yield out;
    }
  }

  /** A ticket's notes after the first, read with the ticket; a merge request's comments likewise. */
  override async getComments(item: SourceIssue): Promise<SourceComment[]> {
    return Array.isArray(item.foreign) ? (item.foreign as SourceComment[]) : [];
  }

  private async headCommit(ref: string): Promise<string | undefined> {
    if (!ref) return undefined;
    const commits = await this.xml(`${this.s.project}/${this.s.repo}/commits/${encodeURIComponent(ref)}`).catch((): X => ({}));
    return text(items(commits, 'commits', 'commit')[0]?.ref) || undefined;
  }

  override async *getPullRequests(): AsyncIterable<SourcePull[]> {
    if (this.maxTicket === null) {
      this.maxTicket = 0;
      for await (const page of this.ticketPages()) for (const t of page) this.maxTicket = Math.max(this.maxTicket, num(t['ticket-id']));
    }
    const list = items(await this.xml(`${this.s.project}/${this.s.repo}/merge_requests`), 'merge-requests', 'merge-request');
    const out: SourcePull[] = [];
    for (const [i, summary] of list.entries()) {
      const mr = obj(arr((await this.xml(`${this.s.project}/${this.s.repo}/merge_requests/${num(summary.id)}`))['merge-request'])[0]);
      let merged = false;
      let mergedAt: string | null = null;
      const comments: SourceComment[] = [];
      for (const c of arr(obj(mr.comments).comment)) {
        if (!text(c.content)) {
          if (text(c.action) === 'merging') { merged = true; mergedAt = text(c['created-at']); }
          continue;
        }
        comments.push({ id: num(c.id), body: text(c.content), user: await this.user(num(c['user-id'])), created_at: text(c['created-at']), updated_at: text(c['created-at']), reactions: [] });
      }
      const [first, ...rest] = comments;
      const closed = text(mr.status) !== 'new';
      out.push({
        number: this.maxTicket + i + 1, title: text(mr.subject), body: first?.body ?? '', user: await this.user(num(mr['user-id'])),
        state: closed ? 'closed' : 'open', created_at: text(mr['created-at']), updated_at: text(mr['updated-at']),
        closed_at: closed ? text(mr['updated-at']) : null, merged, merged_at: mergedAt,
        head: { ref: text(mr['source-ref']), sha: await this.headCommit(text(mr['source-ref'])) },
        base: { ref: text(mr['target-ref']), sha: await this.headCommit(text(mr['target-ref'])) }, reactions: [], foreign: rest,
      });
    }
    if (out.length) yield out;
  }
}
