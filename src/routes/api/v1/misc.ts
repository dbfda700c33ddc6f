import type { Request, Response } from 'express';
import { toApiSettings } from '../../../convert/settings';
import { serverVersion } from '../../../lib/version';

export function getVersion(_req: Request, res: Response): void {
  res.json({ version: serverVersion() });
}

type SettingsArea = keyof ReturnType<typeof toApiSettings>;

export const getSettings = (area: SettingsArea) => (req: Request, res: Response): void => {
  res.json(toApiSettings(req.ctx.config)[area]);
};
