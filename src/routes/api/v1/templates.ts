import type { Request, Response } from 'express';
import { toApiGitignoreInfo, toApiLabelTemplate, toApiLicenseEntry, toApiLicenseInfo } from '../../../convert/templates';
import * as templates from '../../../services/templates';

// Misc endpoints: public and without a token scope, as Gitea's "Misc (public accessible)" group.

const nameOf = (req: Request) => String(req.params.name ?? '');

export function gitignoreList(_req: Request, res: Response): void {
  res.json(templates.listGitignoreNames());
}

export function gitignoreInfo(req: Request, res: Response): void {
  res.json(toApiGitignoreInfo(templates.getGitignoreText(nameOf(req))));
}

export function licenseList(req: Request, res: Response): void {
  res.json(templates.listLicenseNames().map((name) => toApiLicenseEntry(req.ctx.config, name)));
}

export function licenseInfo(req: Request, res: Response): void {
  res.json(toApiLicenseInfo(req.ctx.config, templates.getLicenseText(nameOf(req))));
}

export function labelTemplateList(_req: Request, res: Response): void {
  res.json(templates.listLabelTemplateNames());
}

export function labelTemplateInfo(req: Request, res: Response): void {
  res.json(templates.getLabelTemplate(nameOf(req)).map(toApiLabelTemplate));
}
