import type { Request, RequestHandler, Response } from 'express';
import * as z from 'zod';
import { toApiAttachment } from '../../../convert/issue';
import { NotFoundError } from '../../../lib/errors';
import { uploadTmpDir } from '../../../services/issue/attachment-files';
import * as svc from '../../../services/issue/attachments';
import { doerOf, repoOf } from '../../context';
import { queryString } from '../../query';
import { receiveFile } from '../../upload';
import { named, parseBody } from '../../validate';

// /repos/{owner}/{repo}/issues/{index}/assets and /issues/comments/{id}/assets.

/** Gitea's mustEnableAttachments: the routes do not exist when [attachment] enabled is off. */
export const attachmentsEnabled: RequestHandler = (req, _res, next) => {
  if (!req.ctx.config.attachment.enabled) throw new NotFoundError();
  next();
};

const intParam = (req: Request, name: string) => {
  const v = String(req.params[name] ?? '');
  return /^\d+$/.test(v) ? Number(v) : -1;
};

type Kind = 'issue' | 'comment';
const target = (req: Request, kind: Kind, write: boolean) => kind === 'issue'
  ? svc.issueTarget(req.ctx.db, repoOf(req), req.ctx.doer, intParam(req, 'index'), write)
  : svc.commentTarget(req.ctx.db, repoOf(req), req.ctx.doer, intParam(req, 'id'), write);

export const editSchema = named('EditAttachmentOptions', z.object({ name: z.string().optional() }));

function handlers(kind: Kind) {
  return {
    async list(req: Request, res: Response): Promise<void> {
      const list = await svc.listAttachments(req.ctx.db, await target(req, kind, false));
      res.json(list.map((a) => toApiAttachment(req.ctx.config, a)));
    },
    async get(req: Request, res: Response): Promise<void> {
      const a = await svc.getAttachment(req.ctx.db, await target(req, kind, false), intParam(req, 'attachment_id'));
      res.json(toApiAttachment(req.ctx.config, a));
    },
    async create(req: Request, res: Response): Promise<void> {
      const { config } = req.ctx;
      // Who may upload is settled before the body is read, as Gitea answers 404/403 first.
      const t = await target(req, kind, true);
      const file = await receiveFile(req, res, { field: 'attachment', tmpDir: uploadTmpDir(req.ctx.h), maxBytes: config.attachment.max_size * 1024 * 1024 });
      const a = await svc.storeAttachment(req.ctx.h, t, doerOf(req), file, queryString(req, 'name'));
      res.status(201).json(toApiAttachment(config, a));
    },
    async edit(req: Request, res: Response): Promise<void> {
      const body = parseBody(editSchema, req.body);
      const a = await svc.editAttachment(req.ctx.h, await target(req, kind, true), intParam(req, 'attachment_id'), body.name ?? '');
      res.status(201).json(toApiAttachment(req.ctx.config, a));
    },
    async remove(req: Request, res: Response): Promise<void> {
      await svc.deleteAttachment(req.ctx.h, await target(req, kind, true), intParam(req, 'attachment_id'));
      res.status(204).end();
    },
  };
}

export const issue = handlers('issue');
export const comment = handlers('comment');
