import type { Request } from 'express';
import { BadRequestError, PayloadTooLargeError } from '../../lib/errors';

// Small request bodies (a JSON document, a form field) read whole, with a cap: 413 past it.

export async function readSmallBody(req: Request, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) throw new PayloadTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A JSON body read with a cap; 400 when it is not JSON. */
export async function readJson(req: Request, cap: number): Promise<unknown> {
  const text = (await readSmallBody(req, cap)).toString('utf8');
  try { return JSON.parse(text); } catch { throw new BadRequestError('invalid JSON body'); }
}
