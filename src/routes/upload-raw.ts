import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Request } from 'express';
import { BadRequestError, PayloadTooLargeError } from '../lib/errors';
import type { ReceivedFile } from './upload';

// A request body taken as the file itself (Gitea 1.25 accepts release assets sent raw, with
// `?name=`): spooled to disk, the size limit enforced while receiving.

const tooLarge = () => new PayloadTooLargeError('attachment size exceeds the limit');

/** Spools the body to a file under `tmpDir`; 413 once it passes `maxBytes` (the rest is drained). */
export function receiveRawBody(req: Request, opts: { tmpDir: string; maxBytes: number }): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      req.resume();
      reject(tooLarge());
      return;
    }
    fs.mkdirSync(opts.tmpDir, { recursive: true });
    const tmpPath = path.join(opts.tmpDir, `raw-${crypto.randomUUID()}`);
    const out = fs.createWriteStream(tmpPath);
    let size = 0;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(out);
      out.destroy();
      fs.rmSync(tmpPath, { force: true });
      // Reading the rest lets the answer reach the client instead of a reset connection.
      req.resume();
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > opts.maxBytes) fail(tooLarge());
    });
    req.on('error', fail);
    req.on('aborted', () => fail(new BadRequestError('request aborted')));
    out.on('error', fail);
    out.on('finish', () => {
      if (!failed) resolve({ tmpPath, originalName: '', size });
    });
    req.pipe(out);
  });
}
