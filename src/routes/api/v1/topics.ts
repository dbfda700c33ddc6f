import type { Request, Response } from 'express';
import * as z from 'zod';
import { toTopicResponse } from '../../../convert/repo-social';
import { repoLanguages } from '../../../services/repo/languages';
import * as topics from '../../../services/repo/topics';
import { repoOf } from '../../context';
import { pageOf, setPaginationHeaders, setTotalCount } from '../../pagination';
import { queryString } from '../../query';
import { named, parseBody } from '../../validate';

/** Gitea answers invalid topics with `{invalidTopics, message}` rather than the usual error body. */
async function replyTopicErrors(res: Response, work: () => Promise<void>): Promise<void> {
  try {
    await work();
    res.status(204).end();
  } catch (err) {
    if (!(err instanceof topics.InvalidTopicsError)) throw err;
    res.status(422).json({ invalidTopics: err.invalidTopics, message: err.message });
  }
}

export function list(req: Request, res: Response): void {
  const page = pageOf(req);
  const result = topics.pageOfTopics(repoOf(req).repo, page);
  setTotalCount(res, result.total);
  res.json({ topics: result.topics });
}

export const replaceSchema = named('RepoTopicOptions', z.object({ topics: z.array(z.string()).nullish() }));

export async function replace(req: Request, res: Response): Promise<void> {
  const body = parseBody(replaceSchema, req.body);
  await replyTopicErrors(res, () => topics.replaceTopics(req.ctx.db, repoOf(req).repo, body.topics ?? []));
}

export async function add(req: Request, res: Response): Promise<void> {
  await replyTopicErrors(res, () => topics.addTopic(req.ctx.db, repoOf(req).repo, String(req.params.topic ?? '')));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await replyTopicErrors(res, () => topics.removeTopic(req.ctx.db, repoOf(req).repo, String(req.params.topic ?? '')));
}

/** GET /topics/search: Gitea wraps the list as `{topics: [...]}` although the reference says a bare array. */
export async function search(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const result = await topics.findTopics(req.ctx.db, queryString(req, 'q') ?? '', page);
  setPaginationHeaders(req, res, result.total, page);
  res.json({ topics: result.topics.map(toTopicResponse) });
}

export async function languages(req: Request, res: Response): Promise<void> {
  res.json(await repoLanguages(req.ctx.config, repoOf(req)));
}
