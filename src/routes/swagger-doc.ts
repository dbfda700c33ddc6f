import type { RequestHandler } from 'express';
import type { ZodType } from 'zod';
import { HEARTH_VERSION } from '../lib/version';
import { basicAuthOnly, assignUser, selfOrAdmin, signedIn, siteAdmin } from './middleware/guards';
import { assignOrg, reqOrgMember, reqOrgOwner } from './middleware/org-guards';
import {
  assignRepo, notArchived, reqCodeReader, reqCodeWriter, reqRepoAdmin, reqRepoOwner, reqRepoReader, reqRepoWriter,
} from './middleware/repo-guards';
import { buildDefinitions, inlineSchema, nameOf, type Schema } from './swagger-definitions';
import { isDeferred } from './lazy';
import type { ApiRoute, BodySchema, BodySpec, JsonSchema, PathParamType, ResponseShape } from './table';

// The project's swagger (Swagger 2.0), built from the route table on the first request for it:
// each row's path, query and body parameters, its answers, and the errors its guards can give.

/** The errors each guard can answer with (a scope guard is told by its categories). */
const GUARD_ERRORS = new Map<RequestHandler, number[]>([
  [signedIn, [401]], [basicAuthOnly, [401]], [siteAdmin, [401, 403]], [selfOrAdmin, [401, 403]],
  [assignUser, [404]], [assignRepo, [404]], [assignOrg, [404]],
  [reqRepoReader, [403]], [reqRepoWriter, [403]], [reqRepoAdmin, [403]], [reqRepoOwner, [403]],
  [reqCodeReader, [403]], [reqCodeWriter, [403]], [reqOrgOwner, [401, 403]], [reqOrgMember, [401, 403]],
  [notArchived, [423]],
]);

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted: the work goes on in the background', 204: 'Done; no body',
  205: 'Done; reset the view', 302: 'Found elsewhere (see Location)',
  401: 'Sign-in needed', 403: 'Not allowed: a missing permission or token scope',
  404: 'Not found, or not visible to the caller', 409: 'In conflict with what exists', 422: 'The body or a parameter is not valid',
  423: 'The repository is archived',
};

const ERROR_REF = { $ref: '#/definitions/APIError' };

const isZod = (v: unknown): v is ZodType => typeof v === 'object' && v !== null && '_zod' in v;

function pathParameter(name: string, type: PathParamType | undefined): Schema {
  const base = { name, in: 'path', required: true };
  if (Array.isArray(type)) return { ...base, type: 'string', enum: type };
  if (type === 'int64') return { ...base, type: 'integer', format: 'int64' };
  if (type === 'integer') return { ...base, type: 'integer' };
  return { ...base, type: 'string' };
}

function bodySchema(of: BodySchema | string | JsonSchema): Schema {
  if (typeof of === 'string') return { $ref: `#/definitions/${of}` };
  if (isDeferred(of)) throw new Error('a body schema not loaded yet: build from loadedRoutes()');
  if (!isZod(of)) return { ...of };
  const name = nameOf(of);
  return name ? { $ref: `#/definitions/${name}` } : inlineSchema(of);
}

function bodyParameter(spec: BodySpec): Schema {
  const { of, param, required } = typeof spec === 'object' && 'of' in spec ? spec : { of: spec, param: undefined, required: undefined };
  return { name: param ?? 'body', in: 'body', ...(required ? { required: true } : {}), schema: bodySchema(of) };
}

function parameters(r: ApiRoute): Schema[] {
  const out: Schema[] = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => pathParameter(m[1]!, r.params?.[m[1]!]));
  for (const p of r.query ?? []) out.push({ ...p, in: 'query' });
  if (r.body) out.push(bodyParameter(r.body));
  for (const f of r.form ?? []) out.push({ name: f.name, in: 'formData', type: f.type, ...(f.required ? { required: true } : {}) });
  return out;
}

function responseSchema(shape: ResponseShape): Schema | undefined {
  if (shape === null) return undefined;
  if (typeof shape === 'string') return { $ref: `#/definitions/${shape}` };
  if (Array.isArray(shape)) return { type: 'array', items: { $ref: `#/definitions/${shape[0]}` } };
  return { ...(shape as Schema) };
}

/** Success answers from the row; errors from its guards, its path and its body. */
function responses(r: ApiRoute): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [status, shape] of Object.entries(r.responses ?? { 200: null })) {
    const schema = responseSchema(shape);
    out[status] = { description: STATUS_TEXT[Number(status)] ?? 'OK', ...(schema ? { schema } : {}) };
  }
  const errors = new Set<number>();
  for (const guard of r.chain) {
    if ((guard as { scopeCategories?: unknown }).scopeCategories) errors.add(403);
    for (const status of GUARD_ERRORS.get(guard) ?? []) errors.add(status);
  }
  if (r.path.includes('{')) errors.add(404);
  if (r.body || r.form || r.query?.length) errors.add(422);
  for (const status of [...errors].sort()) out[String(status)] ??= { description: STATUS_TEXT[status]!, schema: ERROR_REF };
  return out;
}

function operation(r: ApiRoute): Schema {
  const consumes = r.consumes ?? (r.form ? ['multipart/form-data'] : undefined);
  return {
    tags: [r.tag], operationId: r.operationId, summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    ...(r.deprecated ? { deprecated: true } : {}),
    ...(r.extension ? { 'x-hearth-extension': true } : {}),
    ...(consumes ? { consumes } : {}),
    produces: r.produces ?? ['application/json'],
    parameters: parameters(r),
    responses: responses(r),
  };
}

export function buildSwagger(routes: readonly ApiRoute[], rootUrl: string) {
  const url = new URL(rootUrl);
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of routes) (paths[r.path] ??= {})[r.method] = operation(r);
  return {
    swagger: '2.0',
    info: {
      title: 'Hearth API',
      description: 'The API of hearth, a git forge that answers as Gitea does: the same paths, operation ids, '
        + 'parameters and shapes. What hearth adds is marked `x-hearth-extension`.',
      version: HEARTH_VERSION,
    },
    host: url.host,
    basePath: `${url.pathname.replace(/\/$/, '')}/api/v1`,
    schemes: [url.protocol.replace(':', '')],
    consumes: ['application/json', 'text/plain'],
    produces: ['application/json', 'text/html'],
    securityDefinitions: {
      BasicAuth: { type: 'basic' },
      AuthorizationHeaderToken: { type: 'apiKey', name: 'Authorization', in: 'header' },
      Token: { type: 'apiKey', name: 'token', in: 'query' },
      AccessToken: { type: 'apiKey', name: 'access_token', in: 'query' },
      SudoHeader: { type: 'apiKey', name: 'Sudo', in: 'header' },
      SudoParam: { type: 'apiKey', name: 'sudo', in: 'query' },
    },
    security: [{ BasicAuth: [] }, { AuthorizationHeaderToken: [] }, { Token: [] }, { AccessToken: [] }],
    paths,
    definitions: buildDefinitions(),
  };
}
