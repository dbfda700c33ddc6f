import type { Request, Response } from 'express';
import { checkHealth } from '../services/health';

export async function healthz(req: Request, res: Response): Promise<void> {
  const health = await checkHealth(req.ctx.db, req.ctx.config.server.app_name);
  res.status(health.status === 'pass' ? 200 : 500)
    .type('application/health+json')
    .setHeader('Cache-Control', 'no-store')
    .send(JSON.stringify(health));
}
