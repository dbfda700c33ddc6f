import type { Request, Response } from 'express';
import { toApiUser } from '../../../convert/user';
import type { User } from '../../../db/schema';
import { NotFoundError } from '../../../lib/errors';
import { blockUser, isBlocking, listBlocked, unblockUser } from '../../../services/user/blocks';
import { doerOf, orgOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';

// The same four handlers serve /user/blocks (the caller blocks) and /orgs/{org}/blocks.

type Blocker = (req: Request) => User;
const username = (req: Request) => String(req.params.username ?? '');

function handlers(blockerOf: Blocker) {
  return {
    async list(req: Request, res: Response): Promise<void> {
      const page = pageOf(req);
      const blocker = blockerOf(req);
      const { users, total } = await listBlocked(req.ctx.db, blocker, page);
      setPaginationHeaders(req, res, total, page);
      // As Gitea, the users are shown as the blocker would see them.
      res.json(users.map((u) => toApiUser(req.ctx.config, u, blocker)));
    },
    async check(req: Request, res: Response): Promise<void> {
      if (!(await isBlocking(req.ctx.db, blockerOf(req), username(req)))) throw new NotFoundError();
      res.status(204).end();
    },
    async block(req: Request, res: Response): Promise<void> {
      await blockUser(req.ctx.db, doerOf(req), blockerOf(req), username(req), queryString(req, 'note') ?? '');
      res.status(204).end();
    },
    async unblock(req: Request, res: Response): Promise<void> {
      await unblockUser(req.ctx.db, doerOf(req), blockerOf(req), username(req));
      res.status(204).end();
    },
  };
}

export const user = handlers(doerOf);
export const org = handlers((req) => orgOf(req).org);
