import type { Request, RequestHandler, Response } from 'express';
import * as z from 'zod';
import { toApiRepoWithParent } from '../../../convert/repo-view';
import { forkRepository, listForks } from '../../../services/repo/forks';
import { generateRepository } from '../../../services/repo/generate';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { named, parseBody } from '../../validate';

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { repos, total } = await listForks(req.ctx.db, repoOf(req), req.ctx.doer, page, !!req.ctx.scopes?.publicOnly);
  setPaginationHeaders(req, res, total, page);
  res.json(repos.map((r) => toApiRepoWithParent(req.ctx.config, r, req.ctx.doer)));
}

export const forkSchema = named('CreateForkOption', z.object({ organization: z.string().nullish(), name: z.string().nullish() }));

/** POST /repos/{owner}/{repo}/forks: 202 with the fork, as Gitea (which notes it should be 201). */
export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(forkSchema, req.body);
  const fork = await forkRepository(req.ctx.h, doerOf(req), repoOf(req), {
    organization: body.organization ?? undefined, name: body.name ?? undefined,
  });
  res.status(202).json(toApiRepoWithParent(req.ctx.config, fork, req.ctx.doer));
}

/** The generate route names its repository {template_owner}/{template_repo}: let assignRepo find it. */
export const templateAsRepo: RequestHandler = (req, _res, next) => {
  req.params.owner = String(req.params.template_owner ?? '');
  req.params.repo = String(req.params.template_repo ?? '');
  next();
};

const bool = z.boolean().optional();
export const generateSchema = named('GenerateRepoOption', z.object({
  owner: z.string().min(1),
  name: z.string().min(1).max(100),
  description: z.string().max(2048).optional(),
  private: bool, default_branch: z.string().max(100).optional(),
  git_content: bool, topics: bool, git_hooks: bool, webhooks: bool, avatar: bool, labels: bool, protected_branch: bool,
}));

export async function generate(req: Request, res: Response): Promise<void> {
  const b = parseBody(generateSchema, req.body);
  const repo = await generateRepository(req.ctx.h, doerOf(req), repoOf(req), {
    owner: b.owner, name: b.name, description: b.description, private: b.private, defaultBranch: b.default_branch,
    gitContent: b.git_content, topics: b.topics, gitHooks: b.git_hooks, webhooks: b.webhooks, avatar: b.avatar,
    labels: b.labels, protectedBranch: b.protected_branch,
  });
  res.status(201).json(toApiRepoWithParent(req.ctx.config, repo, req.ctx.doer));
}
