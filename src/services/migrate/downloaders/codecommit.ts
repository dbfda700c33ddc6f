import { signRequest, type SigV4Credentials } from '../../../lib/sigv4';
import { NullDownloader, type SourceComment, type SourceIssue, type SourcePull, type SourceReview, type SourceUser } from '../downloader';
import { SourceHttp, type HttpOptions } from '../source-http';

// AWS CodeCommit (Gitea's codecommit downloader): its JSON API (AWS JSON 1.1, each call a POST
// naming its action in X-Amz-Target) signed with SigV4 from aws_access_key_id and
// aws_secret_access_key. CodeCommit has pull requests only: their comments (those on a line
// become a review's line comments) and approvals. Authors are the last part of their ARN.

export type CodecommitSource = { endpoint: string; region: string; repo: string; credentials: SigV4Credentials };

type Target = {
  sourceReference?: string; destinationReference?: string; sourceCommit?: string; destinationCommit?: string; mergeBase?: string;
  mergeMetadata?: { isMerged?: boolean; mergedBy?: string; mergeCommitId?: string };
};
type PullRequest = {
  pullRequestId: string; title?: string; description?: string; lastActivityDate?: number; creationDate?: number;
  pullRequestStatus?: string; authorArn?: string; revisionId?: string; pullRequestTargets?: Target[];
};
type Comment = { commentId?: string; content?: string; authorArn?: string; creationDate?: number; lastModifiedDate?: number; deleted?: boolean };
type CommentsData = {
  afterCommitId?: string; location?: { filePath?: string; filePosition?: number; relativeFileVersion?: string }; comments?: Comment[];
};

const iso = (epochSeconds: number | undefined) => (epochSeconds ? new Date(epochSeconds * 1000).toISOString() : undefined);
const author = (arn: string | undefined): SourceUser => (arn ? { id: 0, login: arn.split('/').pop() ?? arn } : null);
const branch = (ref: string | undefined) => (ref ?? '').replace(/^refs\/heads\//, '');

/** The API of a CodeCommit git host: `git-codecommit.<region>.amazonaws.com` -> `codecommit.<region>.amazonaws.com`. */
export function codecommitEndpoint(address: string): { endpoint: string; region: string } {
  const url = new URL(address);
  const m = /^git-codecommit\.([a-z0-9-]+)\.(amazonaws\.com(?:\.cn)?)$/.exec(url.hostname);
  if (m) return { endpoint: `https://codecommit.${m[1]}.${m[2]}/`, region: m[1]! };
  // Any other host (a CodeCommit-compatible endpoint) serves the API at its root.
  return { endpoint: `${url.origin}/`, region: 'us-east-1' };
}

export class CodecommitDownloader extends NullDownloader {
  readonly describe: string;
  private readonly http: SourceHttp;
  private readonly comments = new Map<string, CommentsData[]>();

  constructor(private readonly s: CodecommitSource, opts: HttpOptions) {
    super();
    // Credentials go in each request's own signature, not in standing headers.
    this.http = new SourceHttp(opts, new URL(s.endpoint).host, () => ({}));
    this.describe = `codecommit ${s.endpoint} ${s.repo}`;
  }

  private call<T>(action: string, input: Record<string, unknown>): Promise<T> {
    const url = new URL(this.s.endpoint);
    const body = JSON.stringify(input);
    const headers = signRequest({
      method: 'POST', url, body,
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `CodeCommit_20150413.${action}` },
    }, this.s.credentials, { region: this.s.region, service: 'codecommit' });
    return this.http.getJson<T>(url.toString(), { method: 'POST', headers, body });
  }

  /** Every page of a token-paged call. */
  private async *paged<T extends { nextToken?: string }>(action: string, input: Record<string, unknown>): AsyncGenerator<T> {
    let nextToken: string | undefined;
    do {
      const out: T = await this.call<T>(action, nextToken ? { ...input, nextToken } : input);
      yield out;
      nextToken = out.nextToken || undefined;
    } while (nextToken);
  }

  override async *getPullRequests(): AsyncIterable<SourcePull[]> {
    for await (const page of this.paged<{ pullRequestIds?: string[]; nextToken?: string }>('ListPullRequests', { repositoryName: this.s.repo })) {
      const out: SourcePull[] = [];
      for (const id of page.pullRequestIds ?? []) {
        const { pullRequest: p } = await this.call<{ pullRequest: PullRequest }>('GetPullRequest', { pullRequestId: id });
        const t = p.pullRequestTargets?.[0];
        const number = Number(p.pullRequestId);
        if (!t || !Number.isSafeInteger(number) || number <= 0) continue;
        const merged = !!t.mergeMetadata?.isMerged;
        const closed = p.pullRequestStatus === 'CLOSED';
        out.push({
          number, title: p.title ?? '', body: p.description ?? '', user: author(p.authorArn), state: closed ? 'closed' : 'open',
          created_at: iso(p.creationDate), updated_at: iso(p.lastActivityDate), closed_at: closed ? iso(p.lastActivityDate) : null,
          merged, merged_at: merged ? iso(p.lastActivityDate) : null, merge_commit_sha: merged ? t.mergeMetadata?.mergeCommitId ?? null : null,
          merged_by: merged ? author(t.mergeMetadata?.mergedBy) : null, merge_base: t.mergeBase,
          head: { ref: branch(t.sourceReference), sha: t.sourceCommit }, base: { ref: branch(t.destinationReference), sha: t.destinationCommit },
          foreign: { id: p.pullRequestId, revisionId: p.revisionId },
        });
      }
      yield out;
    }
  }

  private async commentsOf(item: SourceIssue): Promise<CommentsData[]> {
    const id = (item.foreign as { id: string }).id;
    if (!this.comments.has(id)) {
      const all: CommentsData[] = [];
      for await (const page of this.paged<{ commentsForPullRequestData?: CommentsData[]; nextToken?: string }>('GetCommentsForPullRequest', { pullRequestId: id })) {
        all.push(...(page.commentsForPullRequestData ?? []));
      }
      this.comments.set(id, all);
    }
    return this.comments.get(id)!;
  }

  override async getComments(item: SourceIssue): Promise<SourceComment[]> {
    const out: SourceComment[] = [];
    for (const data of await this.commentsOf(item)) {
      if (data.location) continue; // on a line: a review's line comment
      for (const c of data.comments ?? []) {
        if (c.deleted || !c.content) continue;
        out.push({ id: 0, body: c.content, user: author(c.authorArn), created_at: iso(c.creationDate), updated_at: iso(c.lastModifiedDate), reactions: [] });
      }
    }
    return out;
  }

  override async getReviews(pull: SourcePull): Promise<SourceReview[]> {
    const { id, revisionId } = pull.foreign as { id: string; revisionId?: string };
    const reviews: SourceReview[] = [];
    if (revisionId) {
      const states = await this.call<{ approvals?: { userArn?: string; approvalState?: string }[] }>('GetPullRequestApprovalStates', { pullRequestId: id, revisionId });
      for (const a of states.approvals ?? []) {
        if (a.approvalState === 'APPROVE') reviews.push({ id: 0, user: author(a.userArn), state: 'APPROVED', body: '', commit_id: pull.head?.sha, submitted_at: pull.updated_at });
      }
    }
    for (const data of await this.commentsOf(pull)) {
      const loc = data.location;
      if (!loc?.filePath) continue;
      for (const c of data.comments ?? []) {
        if (c.deleted || !c.content) continue;
        const line = (loc.filePosition ?? 0) * (loc.relativeFileVersion === 'BEFORE' ? -1 : 1);
        reviews.push({
          id: 0, user: author(c.authorArn), state: 'COMMENT', body: '', commit_id: data.afterCommitId, submitted_at: iso(c.creationDate),
          comments: [{ path: loc.filePath, line, body: c.content, user: author(c.authorArn), commit_id: data.afterCommitId, created_at: iso(c.creationDate) }],
        });
      }
    }
    return reviews;
  }
}
