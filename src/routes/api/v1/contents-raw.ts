import type { Request, Response } from 'express';
import type { RawFile } from '../../../services/repo/contents-raw';
import { sendBlob } from '../../blob-send';

/** The API's raw and media answers: the blob as the web's raw route sends it, with its object type. */
export async function sendRawFile(req: Request, res: Response, file: RawFile): Promise<void> {
  res.setHeader('X-Gitea-Object-Type', file.type);
  await sendBlob(req, res, file);
}
