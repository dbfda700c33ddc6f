import type { Request, Response } from 'express';
import { issueApiUrl } from '../../../convert/issue';
import { toApiUser } from '../../../convert/user';
import { isoTime } from '../../../lib/time';
import { checkIssueSubscription, listIssueSubscribers, setIssueSubscription } from '../../../services/issue/issue-subscriptions';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { indexOf } from './issues';

const setter = (watch: boolean) => async (req: Request, res: Response): Promise<void> => {
  const changed = await setIssueSubscription(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), String(req.params.user), watch);
  res.status(changed ? 201 : 200).end();
};

/** PUT .../issues/{index}/subscriptions/{user} */
export const subscribe = setter(true);
/** DELETE .../issues/{index}/subscriptions/{user} */
export const unsubscribe = setter(false);

/** GET .../issues/{index}/subscriptions */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { users, total } = await listIssueSubscribers(req.ctx.db, repoOf(req), req.ctx.doer, indexOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
}

/** GET .../issues/{index}/subscriptions/check: WatchInfo, as Gitea builds it. */
export async function check(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { issue, watching } = await checkIssueSubscription(req.ctx.db, access, doerOf(req), indexOf(req));
  const root = req.ctx.config.server.root_url;
  res.json({
    subscribed: watching,
    ignored: !watching,
    reason: null,
    created_at: isoTime(issue.created_unix),
    url: `${issueApiUrl(req.ctx.config, access.owner, access.repo, issue)}/subscriptions`,
    repository_url: `${root}api/v1/repos/${encodeURIComponent(access.owner.name)}/${encodeURIComponent(access.repo.name)}`,
  });
}
