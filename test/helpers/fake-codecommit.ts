import { signature } from '../../src/lib/sigv4';
import type { ApiHandler, ApiReply, ApiRequest } from './fake-forge';
import type { Story, StoryPull, StoryUser } from './migrate-story';

// AWS CodeCommit's JSON API (AWS JSON 1.1: POST /, the action in X-Amz-Target) over a story's
// pull requests, answering as its API reference shapes it (epoch-second dates, ARNs for
// authors, token paging). Every request's SigV4 signature is checked against the secret it
// knows (a bad one is refused as AWS does); the first ListPullRequests is throttled once.

const ACCOUNT = '123456789012';
const arn = (u: StoryUser) => `arn:aws:iam::${ACCOUNT}:user/${u.login}`;
const epoch = (iso: string | null) => (iso ? Date.parse(iso) / 1000 : undefined);

export type CodecommitFakeState = { throttled: number; badSignatures: number; signedActions: string[] };

function refuse(type: string, message: string, status = 400): ApiReply {
  return { status, headers: { 'x-amzn-errortype': `${type}:`, 'content-type': 'application/x-amz-json-1.1' }, body: { __type: type, message } };
}

/** The request's signature, recomputed over the headers it says it signed. */
function signatureValid(req: ApiRequest, keyId: string, secret: string): boolean {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(String(req.headers.authorization ?? ''));
  if (!m || m[1] !== keyId || m[4] !== 'codecommit') return false;
  const signed = m[5]!.split(';');
  if (!signed.includes('host') || !signed.includes('x-amz-date')) return false;
  const headers = Object.fromEntries(signed.map((h) => [h, String(req.headers[h] ?? '')]));
  const s = signature({ method: req.method, url: req.url, headers, body: req.body }, { accessKeyId: keyId, secretAccessKey: secret }, { region: m[3]!, service: 'codecommit' });
  return s.signature === m[6];
}

export function codecommitApi(story: Story, opts: { keyId: string; secret: string; base: () => string }): { api: ApiHandler; state: CodecommitFakeState } {
  const state: CodecommitFakeState = { throttled: 0, badSignatures: 0, signedActions: [] };
  const pullOf = (id: string) => story.pulls.find((p) => String(p.number) === id);
  const pullRequest = (p: StoryPull) => ({
    pullRequestId: String(p.number), title: p.title, description: p.body, lastActivityDate: epoch(p.closed_at ?? p.updated_at),
    creationDate: epoch(p.created_at), pullRequestStatus: p.state === 'open' ? 'OPEN' : 'CLOSED', authorArn: arn(p.user),
    revisionId: `rev-${p.number}`, clientRequestToken: `tok-${p.number}`, approvalRules: [],
    pullRequestTargets: [{
      repositoryName: story.repo, sourceReference: `refs/heads/${p.head}`, destinationReference: `refs/heads/${p.base}`,
      destinationCommit: p.baseSha, sourceCommit: p.headSha, mergeBase: p.baseSha,
      mergeMetadata: p.merged ? { isMerged: true, mergedBy: arn(p.user), mergeCommitId: p.merge_commit_sha, mergeOption: 'THREE_WAY_MERGE' } : { isMerged: false },
    }],
  });
  const comments = (p: StoryPull) => [
    {
      pullRequestId: String(p.number), repositoryName: story.repo, beforeCommitId: p.baseSha, afterCommitId: p.headSha,
      comments: p.comments.map((c) => ({ commentId: `c${c.id}`, content: c.body, authorArn: arn(c.user), creationDate: epoch(c.created_at), lastModifiedDate: epoch(c.updated_at), deleted: false })),
    },
    ...p.reviews.flatMap((r) => r.lines.map((l, i) => ({
      pullRequestId: String(p.number), repositoryName: story.repo, beforeCommitId: p.baseSha, afterCommitId: p.headSha,
      location: { filePath: l.path, filePosition: l.line, relativeFileVersion: 'AFTER' },
      comments: [{ commentId: `l${r.id}-${i}`, content: l.body, authorArn: arn(r.user), creationDate: epoch(l.created_at), lastModifiedDate: epoch(l.created_at), deleted: false }],
    }))),
  ];

  const actions: Record<string, (input: Record<string, string>) => ApiReply> = {
    GetRepository: () => ({ body: { repositoryMetadata: { accountId: ACCOUNT, repositoryId: 'r-1', repositoryName: story.repo, defaultBranch: 'main', cloneUrlHttp: `${opts.base()}v1/repos/${story.repo}`, Arn: `arn:aws:codecommit:us-east-1:${ACCOUNT}:${story.repo}` } } }),
    ListPullRequests: (input) => {
      if (input.repositoryName !== story.repo) return refuse('RepositoryDoesNotExistException', `${input.repositoryName} does not exist`);
      // Two ids a page: the importer must follow nextToken.
      const start = Number(input.nextToken ?? 0);
      const ids = story.pulls.map((p) => String(p.number));
      return { body: { pullRequestIds: ids.slice(start, start + 2), ...(start + 2 < ids.length ? { nextToken: String(start + 2) } : {}) } };
    },
    GetPullRequest: (input) => {
      const p = pullOf(input.pullRequestId!);
      return p ? { body: { pullRequest: pullRequest(p) } } : refuse('PullRequestDoesNotExistException', 'no such pull request');
    },
    GetCommentsForPullRequest: (input) => {
      const p = pullOf(input.pullRequestId!);
      return p ? { body: { commentsForPullRequestData: comments(p) } } : refuse('PullRequestDoesNotExistException', 'no such pull request');
    },
    GetPullRequestApprovalStates: (input) => {
      const p = pullOf(input.pullRequestId!);
      if (!p || input.revisionId !== `rev-${p.number}`) return refuse('InvalidRevisionIdException', 'bad revision');
      return { body: { approvals: p.reviews.filter((r) => r.state === 'APPROVED').map((r) => ({ userArn: arn(r.user), approvalState: 'APPROVE' })) } };
    },
  };

  const api: ApiHandler = (req): ApiReply | undefined => {
    if (req.method !== 'POST' || req.url.pathname !== '/') return undefined;
    const target = String(req.headers['x-amz-target'] ?? '');
    if (!signatureValid(req, opts.keyId, opts.secret)) {
      state.badSignatures++;
      return refuse('InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.', 403);
    }
    const action = target.replace(/^CodeCommit_20150413\./, '');
    state.signedActions.push(action);
    if (action === 'ListPullRequests' && !state.throttled) {
      state.throttled++;
      return refuse('ThrottlingException', 'Rate exceeded');
    }
    const handler = actions[action];
    if (!handler || req.headers['content-type'] !== 'application/x-amz-json-1.1') return refuse('UnknownOperationException', target);
    return handler(JSON.parse(req.body || '{}') as Record<string, string>);
  };
  return { api, state };
}
