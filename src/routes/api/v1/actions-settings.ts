import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiSecret, toApiVariable } from '../../../convert/actions-settings';
import { deleteSecret, listSecrets, putSecret } from '../../../services/actions/secrets';
import { createVariable, deleteVariable, getVariable, listVariables, updateVariable } from '../../../services/actions/variables';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { named, parseBody } from '../../validate';
import { actionsScopes, type ScopeOf } from './actions-scope';

// .../actions/secrets and .../actions/variables at repository, organization and user level.

const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);
// Go's binding:"Required" refuses the zero value, so an empty string is as missing.
const required = z.string().min(1, 'Required');
export const secretSchema = named('CreateOrUpdateSecretOption', z.object({ data: required, description: opt(z.string()) }));
export const createVariableSchema = named('CreateVariableOption', z.object({ value: required, description: opt(z.string()) }));
export const updateVariableSchema = named('UpdateVariableOption', z.object({ value: required, description: opt(z.string()), name: opt(z.string()) }));

const secretName = (req: Request) => String(req.params.secretname ?? '');
const variableName = (req: Request) => String(req.params.variablename ?? '');

function secretRoutes(scopeOf: ScopeOf) {
  return {
    async list(req: Request, res: Response): Promise<void> {
      const page = pageOf(req);
      const { rows, total } = await listSecrets(req.ctx.db, scopeOf(req), page);
      setPaginationHeaders(req, res, total, page);
      res.json(rows.map(toApiSecret));
    },
    /** 201 when created, 204 when an existing secret was replaced. */
    async put(req: Request, res: Response): Promise<void> {
      const body = parseBody(secretSchema, req.body);
      const created = await putSecret(req.ctx.db, req.ctx.secret, scopeOf(req), secretName(req), body);
      res.status(created ? 201 : 204).end();
    },
    async remove(req: Request, res: Response): Promise<void> {
      await deleteSecret(req.ctx.db, scopeOf(req), secretName(req));
      res.status(204).end();
    },
  };
}

function variableRoutes(scopeOf: ScopeOf) {
  return {
    async list(req: Request, res: Response): Promise<void> {
      const page = pageOf(req);
      const { rows, total } = await listVariables(req.ctx.db, scopeOf(req), page);
      setPaginationHeaders(req, res, total, page);
      res.json(rows.map(toApiVariable));
    },
    async get(req: Request, res: Response): Promise<void> {
      res.json(toApiVariable(await getVariable(req.ctx.db, scopeOf(req), variableName(req))));
    },
    async create(req: Request, res: Response): Promise<void> {
      await createVariable(req.ctx.db, scopeOf(req), variableName(req), parseBody(createVariableSchema, req.body));
      res.status(201).end();
    },
    async update(req: Request, res: Response): Promise<void> {
      await updateVariable(req.ctx.db, scopeOf(req), variableName(req), parseBody(updateVariableSchema, req.body));
      res.status(204).end();
    },
    async remove(req: Request, res: Response): Promise<void> {
      await deleteVariable(req.ctx.db, scopeOf(req), variableName(req));
      res.status(204).end();
    },
  };
}

export const secrets = {
  repo: secretRoutes(actionsScopes.repo),
  org: secretRoutes(actionsScopes.org),
  user: secretRoutes(actionsScopes.user),
};
export const variables = {
  repo: variableRoutes(actionsScopes.repo),
  org: variableRoutes(actionsScopes.org),
  user: variableRoutes(actionsScopes.user),
};
