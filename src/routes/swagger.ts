import type { Request, Response } from 'express';
import { loadedRoutes, type ApiRoute } from './table';

export const swaggerUiPage = (specUrl: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Hearth API</title>
<link rel="stylesheet" href="swagger/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="swagger/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#swagger-ui' });</script>
</body></html>`;

/**
 * GET /swagger.v1.json: the document is built on its first request (root_url may only be known
 * once the server listens) and kept; its builder, the definitions and the route modules the rows
 * name lazily load with it, never at start.
 */
export function swaggerSpec(routes: readonly ApiRoute[], rootUrl: () => string) {
  let spec: Promise<unknown> | null = null;
  return (_req: Request, res: Response, next: (err?: unknown) => void) => {
    spec ??= Promise.all([import('./swagger-doc'), loadedRoutes(routes)]).then(([m, loaded]) => m.buildSwagger(loaded, rootUrl()));
    spec.then((doc) => res.json(doc), (err: unknown) => { spec = null; next(err); });
  };
}
