import type { Request, Response } from 'express';
import { listIssueTemplates, readIssueConfig } from '../../../services/issue/issue-templates';
import { repoOf } from '../../context';

export async function templates(req: Request, res: Response): Promise<void> {
  const { templates: list, errors } = await listIssueTemplates(req.ctx.config, repoOf(req));
  if (errors.size) res.setHeader('X-Gitea-Warning', `error occurs when parsing issue template: count=${errors.size}`);
  res.json(list);
}

export async function config(req: Request, res: Response): Promise<void> {
  res.json((await readIssueConfig(req.ctx.config, repoOf(req))).config);
}

export async function validateConfig(req: Request, res: Response): Promise<void> {
  const { error } = await readIssueConfig(req.ctx.config, repoOf(req));
  res.json({ valid: error === null, message: error ?? '' });
}
