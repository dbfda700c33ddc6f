import type { Request, Response } from 'express';
import { HEARTH_VERSION } from '../lib/version';
import type { ApiRoute } from './table';

/** The project's own description of what it serves, generated from the route table. */
export function buildSwagger(routes: readonly ApiRoute[], rootUrl: string) {
  const url = new URL(rootUrl);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const params = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
      name: m[1], in: 'path', required: true, type: 'string',
    }));
    (paths[r.path] ??= {})[r.method] = {
      tags: [r.tag], operationId: r.operationId, summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      ...(r.extension ? { 'x-hearth-extension': true } : {}),
      produces: ['application/json'], parameters: params,
      responses: { default: { description: 'see the Gitea API reference for this operation' } },
    };
  }
  return {
    swagger: '2.0',
    info: { title: 'Hearth API', description: 'A Gitea-compatible API.', version: HEARTH_VERSION },
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
  };
}

export const swaggerUiPage = (specUrl: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Hearth API</title>
<link rel="stylesheet" href="swagger/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="swagger/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#swagger-ui' });</script>
</body></html>`;

export type SwaggerHandlers = { spec: (req: Request, res: Response) => void };
