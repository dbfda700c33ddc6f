import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiIssue } from '../../../convert/issue';
import { addLink, listLinkedIssues, removeLink, type LinkKind } from '../../../services/issue/issue-dependencies';
import type { IssueView } from '../../../services/issue/issue-views';
import { doerOf, repoOf } from '../../context';
import { pageOf } from '../../pagination';
import { named, parseBody } from '../../validate';
import { indexOf, withoutNulls } from './issues';

/** IssueMeta: `repo` is the repository's name. */
export const metaSchema = named('IssueMeta', z.object({ index: z.number().int(), owner: z.string().optional(), repo: z.string().optional() }));

const render = (req: Request, views: IssueView[]) => views.map((v) => toApiIssue(req.ctx.config, v, req.ctx.doer));

const lister = (kind: LinkKind) => async (req: Request, res: Response): Promise<void> => {
  const views = await listLinkedIssues(req.ctx.db, repoOf(req), req.ctx.doer, indexOf(req), kind, pageOf(req));
  res.json(render(req, views));
};

const adder = (kind: LinkKind) => async (req: Request, res: Response): Promise<void> => {
  const meta = parseBody(metaSchema, withoutNulls(req.body));
  const view = await addLink(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), kind, meta);
  res.status(201).json(render(req, [view])[0]);
};

const remover = (kind: LinkKind) => async (req: Request, res: Response): Promise<void> => {
  const meta = parseBody(metaSchema, withoutNulls(req.body));
  const view = await removeLink(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), kind, meta);
  // Gitea's handlers answer a removal 201 too (their description says 200).
  res.status(201).json(render(req, [view])[0]);
};

/** GET/POST/DELETE .../issues/{index}/dependencies */
export const listDependencies = lister('dependencies');
export const addDependency = adder('dependencies');
export const removeDependency = remover('dependencies');
/** GET/POST/DELETE .../issues/{index}/blocks */
export const listBlocks = lister('blocks');
export const addBlock = adder('blocks');
export const removeBlock = remover('blocks');
