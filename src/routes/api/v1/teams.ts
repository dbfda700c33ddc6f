import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiActivity } from '../../../convert/activity';
import { toApiRepoWithParent } from '../../../convert/repo-view';
import { toApiTeams } from '../../../convert/team';
import { toApiUser } from '../../../convert/user';
import {
  getRepoOfTeam, getTeamOfRepo, listReposOfTeam, listTeamsOfRepo, setRepoTeam, setTeamRepo, teamActivity,
} from '../../../services/org/team-repos';
import { addMember, getMember, listMembers, removeMember } from '../../../services/org/team-members';
import { createTeam, deleteTeam, editTeam, getTeam, listMyTeams, listTeams, type TeamView } from '../../../services/org/teams';
import { doerOf, orgOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders, setTotalCount } from '../../pagination';
import { queryBool, queryString } from '../../query';
import { extension, named, parseBody } from '../../validate';

// Optional fields of Gitea's options are pointers: null counts as not given.
const opt = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const level = z.union([z.literal(''), z.enum(['read', 'write', 'admin'])]).transform((v) => v || undefined);
const fields = {
  description: opt(z.string().max(255)),
  includes_all_repositories: opt(z.boolean()),
  can_create_org_repo: opt(z.boolean()),
  permission: opt(level),
  units: opt(z.array(z.string())),
  units_map: opt(z.record(z.string(), z.string())),
  visibility: opt(extension(z.enum(['public', 'limited', 'private']))),
};
export const createSchema = named('CreateTeamOption', z.object({ name: z.string(), ...fields }));
// Gitea's binding does not require the name here (empty keeps it), though its description says so.
export const editSchema = named('EditTeamOption', z.object({ name: z.string().optional(), ...fields }));

const teamId = (req: Request) => Number(req.params.id);
const param = (req: Request, name: string) => String(req.params[name] ?? '');

const teamsJson = (req: Request, v: TeamView) => toApiTeams(req.ctx.config, v.teams, v.units, v.orgs);

/** GET /orgs/{org}/teams */
export async function listOfOrg(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const view = await listTeams(req.ctx.db, orgOf(req), doerOf(req), page);
  setPaginationHeaders(req, res, view.total, page);
  res.json(teamsJson(req, view));
}

/** GET /orgs/{org}/teams/search: `{ok, data}`; the description is searched unless include_desc=false. */
export async function search(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const view = await listTeams(req.ctx.db, orgOf(req), doerOf(req), page, {
    keyword: queryString(req, 'q')?.trim(), includeDesc: queryBool(req, 'include_desc') ?? true,
  });
  setPaginationHeaders(req, res, view.total, page);
  res.json({ ok: true, data: teamsJson(req, view) });
}

/** POST /orgs/{org}/teams */
export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(createSchema, req.body);
  res.status(201).json(teamsJson(req, await createTeam(req.ctx.db, orgOf(req).org, body))[0]);
}

/** GET /user/teams */
export async function listMine(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const view = await listMyTeams(req.ctx.db, doerOf(req), page);
  setPaginationHeaders(req, res, view.total, page);
  res.json(teamsJson(req, view));
}

/** GET /teams/{id} */
export async function get(req: Request, res: Response): Promise<void> {
  res.json(teamsJson(req, await getTeam(req.ctx.db, teamId(req), doerOf(req)))[0]);
}

/** PATCH /teams/{id} */
export async function edit(req: Request, res: Response): Promise<void> {
  const body = parseBody(editSchema, req.body);
  res.json(teamsJson(req, await editTeam(req.ctx.db, teamId(req), doerOf(req), body))[0]);
}

/** DELETE /teams/{id} */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteTeam(req.ctx.db, teamId(req), doerOf(req));
  res.status(204).end();
}

/** GET /teams/{id}/members */
export async function members(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { users, total } = await listMembers(req.ctx.db, teamId(req), doerOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
}

/** GET /teams/{id}/members/{username} */
export async function member(req: Request, res: Response): Promise<void> {
  const user = await getMember(req.ctx.db, teamId(req), doerOf(req), param(req, 'username'));
  res.json(toApiUser(req.ctx.config, user, req.ctx.doer));
}

/** PUT /teams/{id}/members/{username} */
export async function addTeamMember(req: Request, res: Response): Promise<void> {
  await addMember(req.ctx.db, teamId(req), doerOf(req), param(req, 'username'));
  res.status(204).end();
}

/** DELETE /teams/{id}/members/{username} */
export async function removeTeamMember(req: Request, res: Response): Promise<void> {
  await removeMember(req.ctx.db, teamId(req), doerOf(req), param(req, 'username'));
  res.status(204).end();
}

/** GET /teams/{id}/repos */
export async function repos(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { repos: list, total } = await listReposOfTeam(req.ctx.db, teamId(req), doerOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(list.map((r) => toApiRepoWithParent(req.ctx.config, r, req.ctx.doer)));
}

/** GET /teams/{id}/repos/{org}/{repo} */
export async function repo(req: Request, res: Response): Promise<void> {
  const access = await getRepoOfTeam(req.ctx.db, teamId(req), doerOf(req), param(req, 'org'), param(req, 'repo'));
  res.json(toApiRepoWithParent(req.ctx.config, access, req.ctx.doer));
}

/** PUT|DELETE /teams/{id}/repos/{org}/{repo} */
export const setRepo = (add: boolean) => async (req: Request, res: Response): Promise<void> => {
  await setTeamRepo(req.ctx.db, teamId(req), doerOf(req), param(req, 'org'), param(req, 'repo'), add);
  res.status(204).end();
};

/** GET /teams/{id}/activities/feeds: X-Total-Count only, as Gitea's feeds. */
export async function feeds(req: Request, res: Response): Promise<void> {
  const { offset, limit } = pageOf(req);
  const feed = await teamActivity(req.ctx.db, teamId(req), doerOf(req), { date: queryString(req, 'date'), offset, limit });
  setTotalCount(res, feed.total);
  res.json(feed.items.map((item) => toApiActivity(req.ctx.config, item, req.ctx.doer)));
}

/** GET /repos/{owner}/{repo}/teams */
export async function ofRepo(req: Request, res: Response): Promise<void> {
  res.json(teamsJson(req, await listTeamsOfRepo(req.ctx.db, repoOf(req), doerOf(req))));
}

/** GET /repos/{owner}/{repo}/teams/{team} */
export async function checkOfRepo(req: Request, res: Response): Promise<void> {
  res.json(teamsJson(req, await getTeamOfRepo(req.ctx.db, repoOf(req), doerOf(req), param(req, 'team')))[0]);
}

/** PUT|DELETE /repos/{owner}/{repo}/teams/{team} */
export const setOfRepo = (add: boolean) => async (req: Request, res: Response): Promise<void> => {
  await setRepoTeam(req.ctx.db, repoOf(req), doerOf(req), param(req, 'team'), add);
  res.status(204).end();
};
