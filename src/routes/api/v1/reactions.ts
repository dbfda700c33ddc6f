import type { Request, Response } from 'express';
import * as z from 'zod';
import { ghostUser } from '../../../convert/issue';
import { toApiReaction } from '../../../convert/reaction';
import * as svc from '../../../services/issue/reactions';
import { doerOf, repoOf } from '../../context';
import { pageOf, setTotalCount } from '../../pagination';
import { named, parseBody } from '../../validate';

// /repos/{owner}/{repo}/issues/{index}/reactions and /issues/comments/{id}/reactions.

export const optionSchema = named('EditReactionOption', z.object({ content: z.string().default('') }));

const intParam = (req: Request, name: string) => {
  const v = String(req.params[name] ?? '');
  return /^\d+$/.test(v) ? Number(v) : -1;
};

type Kind = 'issue' | 'comment';
const target = (req: Request, kind: Kind) => kind === 'issue'
  ? svc.issueReactionTarget(req.ctx.db, repoOf(req), req.ctx.doer, intParam(req, 'index'))
  : svc.commentReactionTarget(req.ctx.db, repoOf(req), req.ctx.doer, intParam(req, 'id'));

function handlers(kind: Kind) {
  return {
    async list(req: Request, res: Response): Promise<void> {
      // Issue reactions page only when asked to (Gitea's FindReactions); comment ones never do.
      const paged = kind === 'issue' && req.query.page !== undefined ? pageOf(req) : undefined;
      const { items, total } = await svc.listTargetReactions(req.ctx.db, await target(req, kind), paged);
      if (kind === 'issue') setTotalCount(res, total);
      const { config, doer } = req.ctx;
      res.json(items.map(({ reaction, user }) => toApiReaction(config, reaction, user ?? ghostUser(), doer)));
    },
    async add(req: Request, res: Response): Promise<void> {
      const { content } = parseBody(optionSchema, req.body);
      const doer = doerOf(req);
      const { reaction, created } = await svc.addReaction(req.ctx.h, await target(req, kind), doer, content);
      res.status(created ? 201 : 200).json(toApiReaction(req.ctx.config, reaction, doer, doer));
    },
    async remove(req: Request, res: Response): Promise<void> {
      const { content } = parseBody(optionSchema, req.body);
      await svc.removeReaction(req.ctx.db, await target(req, kind), doerOf(req), content);
      res.status(200).end();
    },
  };
}

export const issue = handlers('issue');
export const comment = handlers('comment');
