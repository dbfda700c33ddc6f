import type { Request, Response } from 'express';
import { NotFoundError } from '../../../lib/errors';
import { publicSigningKey } from '../../../services/signing/instance-key';

// Gitea's SigningKeyGPG / SigningKeySSH: the instance key serves every repository too; 404 when
// signing is off or the key is of the other format.

const serve = (expected: 'openpgp' | 'ssh') => async (req: Request, res: Response): Promise<void> => {
  const { content, format } = await publicSigningKey(req.ctx.config);
  if (!format) throw new NotFoundError('no signing key');
  if (format !== expected) throw new NotFoundError(`signing key format is ${format}`);
  res.type('text/plain').send(content);
};

export const signingKeyGpg = serve('openpgp');
export const signingKeySsh = serve('ssh');
