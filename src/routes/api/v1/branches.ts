import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiBranch, toApiBranchProtection } from '../../../convert/branch';
import { createBranch, deleteBranch, getBranch, listBranches, renameBranch } from '../../../services/repo/branches';
import {
  createBranchProtection, deleteBranchProtection, editBranchProtection, getBranchProtection, listBranchProtections,
  setBranchProtectionPriorities,
} from '../../../services/repo/protected-branches';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { pathParam } from '../../table';
import { named, parseBody } from '../../validate';

const branchParam = (req: Request) => pathParam(req, 'branch');

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const access = repoOf(req);
  const { items, total } = await listBranches(req.ctx.h, access, req.ctx.doer, page);
  setPaginationHeaders(req, res, total, page);
  res.json(items.map((b) => toApiBranch(req.ctx.config, access, b)));
}

export async function get(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const branch = await getBranch(req.ctx.h, access, req.ctx.doer, branchParam(req));
  res.json(toApiBranch(req.ctx.config, access, branch));
}

export const createSchema = named('CreateBranchRepoOption', z.object({
  new_branch_name: z.string().min(1).max(100),
  old_branch_name: z.string().max(100).nullish(),
  old_ref_name: z.string().nullish(),
}));

export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(createSchema, req.body);
  const access = repoOf(req);
  const branch = await createBranch(req.ctx.h, access, doerOf(req), {
    name: body.new_branch_name, oldBranch: body.old_branch_name ?? undefined, oldRef: body.old_ref_name ?? undefined,
  });
  res.status(201).json(toApiBranch(req.ctx.config, access, branch));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await deleteBranch(req.ctx.h, repoOf(req), doerOf(req), branchParam(req));
  res.status(204).end();
}

export const renameSchema = named('RenameBranchRepoOption', z.object({ name: z.string().min(1).max(100) }));

export async function rename(req: Request, res: Response): Promise<void> {
  const body = parseBody(renameSchema, req.body);
  await renameBranch(req.ctx.h, repoOf(req), doerOf(req), branchParam(req), body.name);
  res.status(204).end();
}

// Branch protections

const bool = z.boolean().nullish();
const names = z.array(z.string()).nullish();
const protectionFields = {
  priority: z.number().int().nullish(),
  enable_push: bool, enable_push_whitelist: bool, push_whitelist_usernames: names, push_whitelist_teams: names,
  push_whitelist_deploy_keys: bool,
  enable_force_push: bool, enable_force_push_allowlist: bool, force_push_allowlist_usernames: names,
  force_push_allowlist_teams: names, force_push_allowlist_deploy_keys: bool,
  enable_merge_whitelist: bool, merge_whitelist_usernames: names, merge_whitelist_teams: names,
  enable_status_check: bool, status_check_contexts: names,
  required_approvals: z.number().int().nullish(), enable_approvals_whitelist: bool,
  approvals_whitelist_username: names, approvals_whitelist_teams: names,
  block_on_rejected_reviews: bool, block_on_official_review_requests: bool, block_on_outdated_branch: bool,
  dismiss_stale_approvals: bool, ignore_stale_approvals: bool, require_signed_commits: bool,
  protected_file_patterns: z.string().nullish(), unprotected_file_patterns: z.string().nullish(),
  block_admin_merge_override: bool,
};
export const createProtectionSchema = named('CreateBranchProtectionOption', z.object({ rule_name: z.string().nullish(), branch_name: z.string().nullish(), ...protectionFields }));
export const editProtectionSchema = named('EditBranchProtectionOption', z.object(protectionFields));
export const prioritySchema = named('UpdateBranchProtectionPriories', z.object({ ids: z.array(z.number().int()).nullish() }));

export async function listProtections(req: Request, res: Response): Promise<void> {
  res.json((await listBranchProtections(req.ctx.db, repoOf(req))).map(toApiBranchProtection));
}

export async function getProtection(req: Request, res: Response): Promise<void> {
  res.json(toApiBranchProtection(await getBranchProtection(req.ctx.db, repoOf(req), String(req.params.name))));
}

export async function createProtection(req: Request, res: Response): Promise<void> {
  const body = parseBody(createProtectionSchema, req.body);
  res.status(201).json(toApiBranchProtection(await createBranchProtection(req.ctx.db, repoOf(req), body)));
}

export async function editProtection(req: Request, res: Response): Promise<void> {
  const body = parseBody(editProtectionSchema, req.body);
  res.json(toApiBranchProtection(await editBranchProtection(req.ctx.db, repoOf(req), String(req.params.name), body)));
}

export async function removeProtection(req: Request, res: Response): Promise<void> {
  await deleteBranchProtection(req.ctx.db, repoOf(req), String(req.params.name));
  res.status(204).end();
}

export async function setPriorities(req: Request, res: Response): Promise<void> {
  const body = parseBody(prioritySchema, req.body);
  await setBranchProtectionPriorities(req.ctx.db, repoOf(req), body.ids ?? []);
  res.status(204).end();
}
