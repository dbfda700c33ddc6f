import type { Request, Response } from 'express';
import * as z from 'zod';
import { mergeUpstream } from '../../../services/repo/merge-upstream';
import { doerOf, repoOf } from '../../context';
import { named, parseBody } from '../../validate';

// POST /repos/{owner}/{repo}/merge-upstream: syncs a fork's branch with its parent.

export const schema = named('MergeUpstreamRequest', z.object({ branch: z.string().nullish(), ff_only: z.boolean().nullish() }));

/** 200 with MergeUpstreamResponse: merge_type is 'up-to-date', 'fast-forward' or 'merge'. */
export async function merge(req: Request, res: Response): Promise<void> {
  const body = parseBody(schema, req.body);
  const type = await mergeUpstream(req.ctx.h, repoOf(req), doerOf(req), {
    branch: body.branch ?? '', ffOnly: body.ff_only ?? false,
  });
  res.json({ merge_type: type });
}
