import type { Request, RequestHandler, Response } from 'express';
import * as z from 'zod';
import { toApiGitHook, toApiHook } from '../../../convert/webhook';
import { ForbiddenError } from '../../../lib/errors';
import { repoDirOf } from '../../../services/repo/commits';
import { deleteGitHook, editGitHook, getGitHook, listGitHooks } from '../../../services/webhook/git-hooks';
import { createHook, deleteHook, editHook, getHook, listHooks, type HookScope, type HookView } from '../../../services/webhook/hooks';
import { doerOf, orgOf, repoOf } from '../../context';
import { pageOf, setTotalCount } from '../../pagination';
import { queryString } from '../../query';
import { named, parseBody } from '../../validate';

// Gitea's CreateHookOption / EditHookOption (the Go binding requires type and config); a JSON
// null is Go's zero value, so it counts as not given.
const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);
const config = () => z.record(z.string(), z.string());
const options = {
  events: opt(z.array(z.string())),
  branch_filter: opt(z.string()),
  authorization_header: opt(z.string()),
  active: opt(z.boolean()),
};
export const createSchema = named('CreateHookOption', z.object({ type: z.string(), config: named('CreateHookOptionConfig', config()), ...options }));
export const editSchema = named('EditHookOption', z.object({ config: opt(config()), ...options }));
export const gitHookSchema = named('EditGitHookOption', z.object({ content: opt(z.string()) }));

const hookId = (req: Request) => Number(req.params.id);
const show = (v: HookView) => toApiHook(v.hook, v.authorization);

/** The five handlers of one kind of hook owner; `scopeOf` says whose hooks the request manages. */
function hookRoutes(scopeOf: (req: Request) => HookScope) {
  return {
    async list(req: Request, res: Response): Promise<void> {
      const page = pageOf(req);
      const { hooks, total } = await listHooks(req.ctx.db, req.ctx.secret, scopeOf(req), page, queryString(req, 'type'));
      setTotalCount(res, total);
      res.json(hooks.map(show));
    },
    async create(req: Request, res: Response): Promise<void> {
      const created = await createHook(req.ctx.db, req.ctx.secret, scopeOf(req), parseBody(createSchema, req.body));
      res.status(201).json(show(created));
    },
    async get(req: Request, res: Response): Promise<void> {
      res.json(show(await getHook(req.ctx.db, req.ctx.secret, scopeOf(req), hookId(req))));
    },
    async edit(req: Request, res: Response): Promise<void> {
      const edited = await editHook(req.ctx.db, req.ctx.secret, scopeOf(req), hookId(req), parseBody(editSchema, req.body));
      res.json(show(edited));
    },
    async remove(req: Request, res: Response): Promise<void> {
      await deleteHook(req.ctx.db, scopeOf(req), hookId(req));
      res.status(204).end();
    },
  };
}

/** Whose hooks a request manages, by the kind of path. */
export const scopes = {
  repo: (req: Request): HookScope => ({ repoId: repoOf(req).repo.id }),
  org: (req: Request): HookScope => ({ ownerId: orgOf(req).org.id }),
  /** The signed-in user's own hooks. */
  user: (req: Request): HookScope => ({ ownerId: doerOf(req).id }),
  /** The site's default and system hooks (list: `type` system, default or all). */
  admin: (): HookScope => ({ site: true }),
};

/** /repos/{owner}/{repo}/hooks */
export const repo = hookRoutes(scopes.repo);
/** /orgs/{org}/hooks */
export const org = hookRoutes(scopes.org);
/** /user/hooks */
export const user = hookRoutes(scopes.user);
/** /admin/hooks */
export const admin = hookRoutes(scopes.admin);

/**
 * Gitea's reqGitHook: git hooks are disabled unless `[security] disable_git_hooks = false`, and
 * then only site admins and users allowed git hooks may use them.
 */
export const reqGitHook: RequestHandler = (req, _res, next) => {
  const doer = doerOf(req);
  const allowed = !req.ctx.config.security.disable_git_hooks && (doer.is_admin === 1 || doer.allow_git_hook === 1);
  if (!allowed) throw new ForbiddenError('must be allowed to edit Git hooks');
  next();
};

const dirOf = (req: Request) => repoDirOf(req.ctx.config, repoOf(req));
const gitHookName = (req: Request) => String(req.params.id ?? '');

/** GET /repos/{owner}/{repo}/hooks/git */
export function listGit(req: Request, res: Response): void {
  res.json(listGitHooks(dirOf(req)).map(toApiGitHook));
}

/** GET /repos/{owner}/{repo}/hooks/git/{id}: `id` is the hook's name (pre-receive, update, post-receive). */
export function getGit(req: Request, res: Response): void {
  res.json(toApiGitHook(getGitHook(dirOf(req), gitHookName(req))));
}

/** PATCH /repos/{owner}/{repo}/hooks/git/{id} */
export function editGit(req: Request, res: Response): void {
  const { content } = parseBody(gitHookSchema, req.body);
  res.json(toApiGitHook(editGitHook(dirOf(req), gitHookName(req), content ?? '')));
}

/** DELETE /repos/{owner}/{repo}/hooks/git/{id} */
export function removeGit(req: Request, res: Response): void {
  deleteGitHook(dirOf(req), gitHookName(req));
  res.status(204).end();
}
