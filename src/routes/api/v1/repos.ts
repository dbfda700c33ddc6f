import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiRepoTransfer } from '../../../convert/repo-social';
import { toApiRepoWithParent } from '../../../convert/repo-view';
import { InvalidError } from '../../../lib/errors';
import type { RepoSearch } from '../../../models/repo-search';
import { createRepository } from '../../../services/repo/repo-create';
import { repoDetails } from '../../../services/repo/repo-details';
import { deleteRepository, editRepository } from '../../../services/repo/repo-edit';
import { ACCESS } from '../../../services/permissions';
import { accessOf, getVisibleRepoById, searchVisibleRepos } from '../../../services/repo/repos';
import { contextUserOf, doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryBool, queryInt, queryString } from '../../query';
import { named, parseBody } from '../../validate';

export const createSchema = named('CreateRepoOption', z.object({
  name: z.string().min(1).max(100),
  description: z.string().max(2048).optional(),
  private: z.boolean().optional(),
  template: z.boolean().optional(),
  auto_init: z.boolean().optional(),
  readme: z.string().optional(),
  gitignores: z.string().optional(),
  license: z.string().optional(),
  issue_labels: z.string().optional(),
  default_branch: z.string().max(100).optional(),
  object_format_name: z.string().optional(),
  trust_model: z.enum(['', 'default', 'collaborator', 'committer', 'collaboratorcommitter']).optional(),
}));

async function createFor(req: Request, res: Response, ownerOf: (req: Request) => import('../../../db/schema').User) {
  const body = parseBody(createSchema, req.body);
  const doer = doerOf(req);
  const owner = ownerOf(req);
  const repo = await createRepository(req.ctx.h, doer, owner, {
    name: body.name, description: body.description, private: body.private, template: body.template,
    autoInit: body.auto_init, readme: body.readme, gitignores: body.gitignores, license: body.license,
    issueLabels: body.issue_labels, defaultBranch: body.default_branch, objectFormat: body.object_format_name,
  });
  res.status(201).json(toApiRepoWithParent(req.ctx.config, { repo, owner, mode: ACCESS.owner }, req.ctx.doer));
}

export const createForDoer = (req: Request, res: Response) => createFor(req, res, doerOf);
export const createForUser = (req: Request, res: Response) => createFor(req, res, contextUserOf);

export async function get(req: Request, res: Response): Promise<void> {
  const { config, doer } = req.ctx;
  const view = await repoDetails(req.ctx.db, repoOf(req), doer);
  const transfer = view.pending && toApiRepoTransfer(config, view.pending, doer);
  res.json(toApiRepoWithParent(config, { ...view, transfer }, doer));
}

export async function getById(req: Request, res: Response): Promise<void> {
  const id = Number(req.params.id);
  if (!Number.isInteger(id) || id <= 0) throw new InvalidError('[id]: invalid id', 'id');
  const access = await getVisibleRepoById(req.ctx.db, id, req.ctx.doer);
  res.json(toApiRepoWithParent(req.ctx.config, access, req.ctx.doer));
}

// The trackers and wiki settings, as a repository edit takes them and a repository shows them.
export const InternalTracker = named('InternalTracker', z.object({
  enable_time_tracker: z.boolean().default(true),
  allow_only_contributors_to_track_time: z.boolean().default(true),
  enable_issue_dependencies: z.boolean().default(true),
}));
export const ExternalTracker = named('ExternalTracker', z.object({
  external_tracker_url: z.url(), external_tracker_format: z.string().default(''),
  external_tracker_style: z.enum(['numeric', 'alphanumeric', 'regexp']).default('numeric'),
  external_tracker_regexp_pattern: z.string().default(''),
}));
export const ExternalWiki = named('ExternalWiki', z.object({ external_wiki_url: z.url() }));

const bool = z.boolean().optional();
export const editSchema = named('EditRepoOption', z.object({
  name: z.string().min(1).max(100).optional(),
  description: z.string().max(2048).optional(),
  website: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).optional(),
  private: bool, template: bool, archived: bool, default_branch: z.string().optional(),
  has_code: bool, has_issues: bool, has_wiki: bool, has_pull_requests: bool, has_projects: bool,
  has_releases: bool, has_packages: bool, has_actions: bool, ignore_whitespace_conflicts: bool,
  allow_merge_commits: bool, allow_rebase: bool, allow_rebase_explicit: bool, allow_squash_merge: bool,
  allow_fast_forward_only_merge: bool, allow_rebase_update: bool, allow_manual_merge: bool,
  autodetect_manual_merge: bool, default_allow_maintainer_edit: bool, default_delete_branch_after_merge: bool,
  default_merge_style: z.string().optional(), projects_mode: z.string().optional(),
  mirror_interval: z.string().optional(), enable_prune: bool,
  internal_tracker: InternalTracker.optional(),
  external_tracker: ExternalTracker.optional(),
  external_wiki: ExternalWiki.optional(),
}));

export async function edit(req: Request, res: Response): Promise<void> {
  const body = parseBody(editSchema, req.body);
  const access = repoOf(req);
  const repo = await editRepository(req.ctx.h, access, doerOf(req), body);
  res.json(toApiRepoWithParent(req.ctx.config, await accessOf(req.ctx.db, repo, req.ctx.doer), req.ctx.doer));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await deleteRepository(req.ctx.h, repoOf(req), doerOf(req));
  res.status(204).end();
}

const SORTS = ['alpha', 'created', 'updated', 'size', 'id', 'stars', 'forks'] as const;

function sortOf(req: Request): Pick<RepoSearch, 'sort' | 'order'> {
  const raw = queryString(req, 'sort') ?? 'alpha';
  const sort = raw === 'newest' || raw === 'oldest' ? 'created' : raw === 'git_size' || raw === 'lfs_size' ? 'size' : raw;
  if (!(SORTS as readonly string[]).includes(sort)) throw new InvalidError(`Invalid sort: ${raw}`, 'sort');
  const order = queryString(req, 'order') ?? (raw === 'newest' ? 'desc' : 'asc');
  if (order !== 'asc' && order !== 'desc') throw new InvalidError(`Invalid order: ${order}`, 'order');
  return { sort: sort as RepoSearch['sort'], order };
}

async function reply(req: Request, res: Response, q: RepoSearch, wrap: boolean): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await searchVisibleRepos(req.ctx.db, { ...q, offset: page.offset, limit: page.limit });
  const data = views.map((v) => toApiRepoWithParent(req.ctx.config, v, req.ctx.doer));
  setPaginationHeaders(req, res, total, page);
  res.json(wrap ? { ok: true, data } : data);
}

const base = (req: Request) => ({ viewer: req.ctx.doer, publicOnly: !!req.ctx.scopes?.publicOnly, offset: 0, limit: 0 });

/** GET /repos/search: `{ok, data}` with Gitea's filters. */
export async function search(req: Request, res: Response): Promise<void> {
  const mode = queryString(req, 'mode');
  if (mode && !['source', 'fork', 'mirror', 'collaborative'].includes(mode)) throw new InvalidError(`Invalid search mode: "${mode}"`, 'mode');
  const uid = queryInt(req, 'uid');
  const exclusive = queryBool(req, 'exclusive');
  const includePrivate = queryBool(req, 'private') ?? true;
  await reply(req, res, {
    ...base(req), ...sortOf(req),
    keyword: queryString(req, 'q')?.trim(),
    topicOnly: queryBool(req, 'topic'),
    includeDescription: queryBool(req, 'includeDesc'),
    ownerId: uid && uid > 0 ? uid : undefined,
    collaborate: uid && uid > 0 ? (mode === 'collaborative' ? 'only' : !exclusive) : undefined,
    publicMembershipsOnly: !req.ctx.doer || !includePrivate,
    starredBy: queryInt(req, 'starredBy'),
    isPrivate: queryBool(req, 'is_private') ?? (includePrivate ? undefined : false),
    template: queryBool(req, 'template'),
    archived: queryBool(req, 'archived'),
    fork: mode === 'fork' ? true : mode === 'source' ? false : undefined,
    // Gitea's modes: sources and collaborations are no mirrors.
    mirror: mode === 'mirror' ? true : mode === 'source' || mode === 'collaborative' ? false : undefined,
  }, true);
}

/** GET /user/repos: what the caller owns or collaborates on. */
export async function listMine(req: Request, res: Response): Promise<void> {
  await reply(req, res, { ...base(req), sort: 'id', order: 'asc', ownerId: doerOf(req).id, collaborate: true }, false);
}

/** GET /users/{username}/repos: what the user owns and the caller may see. */
export async function listOfUser(req: Request, res: Response): Promise<void> {
  await reply(req, res, { ...base(req), sort: 'id', order: 'asc', ownerId: contextUserOf(req).id }, false);
}
