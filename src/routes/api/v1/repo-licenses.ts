import type { Request, Response } from 'express';
import { licensesOf } from '../../../convert/repo';
import { repoOf } from '../../context';

/** GET /repos/{owner}/{repo}/licenses: the SPDX identifiers detected at the default branch. */
export function list(req: Request, res: Response): void {
  res.json(licensesOf(repoOf(req).repo));
}
