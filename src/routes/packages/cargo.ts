import express, { type Request, type Response } from 'express';
import { Readable } from 'node:stream';
import { BadRequestError } from '../../lib/errors';
import { CARGO, cargoConfig, cargoIndexFile, cargoOwners, publishCargo, searchCargo, yankCargo } from '../../services/packages/cargo/cargo';
import { parseCargoPublish } from '../../services/packages/cargo/metadata';
import { getFileOfVersion, getVersion, incrementDownloadCount } from '../../services/packages/queries';
import { storeTypedBlob } from '../../services/packages/stored-upload';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import type { PackageRegistry } from './index';

// Gitea's Cargo registry (routers/api/packages/cargo): the sparse index at config.json,
// 1/{crate}, 2/{crate}, 3/{c}/{crate}, {ab}/{cd}/{crate}; the web API under api/v1/crates.
// Errors are cargo's {"errors": [{"detail": message}]}.

const MAX_JSON = 10 * 1024 * 1024;

/** Pulls the publish body apart: u32 LE length + JSON, u32 LE length + the .crate bytes (streamed on). */
async function splitPublishBody(req: Request): Promise<{ json: unknown; crateSize: number; crate: Readable }> {
  const it = (req as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let buf = Buffer.alloc(0);
  const need = async (n: number) => {
    while (buf.length < n) {
      const r = await it.next();
      if (r.done) throw new BadRequestError('unexpected end of the publish body');
      buf = Buffer.concat([buf, r.value]);
    }
  };
  await need(4);
  const jsonSize = buf.readUInt32LE(0);
  if (jsonSize > MAX_JSON) throw new BadRequestError('the publish metadata is too large');
  await need(8 + jsonSize);
  let json: unknown;
  try { json = JSON.parse(buf.subarray(4, 4 + jsonSize).toString('utf8')); } catch { throw new BadRequestError('invalid publish metadata'); }
  const crateSize = buf.readUInt32LE(4 + jsonSize);
  const head = buf.subarray(8 + jsonSize);
  async function* rest() {
    if (head.length) yield head;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { json, crateSize, crate: Readable.from(rest()) };
}

async function publish(req: Request, res: Response): Promise<void> {
  const { doer } = req.ctx;
  const body = await splitPublishBody(req);
  const crate = parseCargoPublish(body.json);
  const blob = await storeTypedBlob(req.ctx.h, doer, CARGO, body.crate);
  await publishCargo(req.ctx.h, { owner: packageOwner(req), doer: doer!, crate, blob, declaredSize: body.crateSize });
  res.json({ ok: true });
}

async function indexFile(req: Request, res: Response): Promise<void> {
  const body = await cargoIndexFile(req.ctx.db, packageOwner(req), String(req.params.package));
  res.type('text/plain; charset=utf-8').send(body);
}

async function download(req: Request, res: Response): Promise<void> {
  const { db } = req.ctx;
  const name = String(req.params.package);
  const version = String(req.params.version);
  const v = await getVersion(db, packageOwner(req), CARGO, name, version);
  const { file, blob } = await getFileOfVersion(db, v.version, `${name}-${version}.crate`.toLowerCase());
  if (req.method === 'GET') await incrementDownloadCount(db, v.version);
  await sendPackageBlob(req, res, { blob, filename: file.name, lastModified: file.created_unix });
}

const yank = (yanked: boolean) => async (req: Request, res: Response): Promise<void> => {
  await yankCargo(req.ctx.db, packageOwner(req), String(req.params.package), String(req.params.version), yanked);
  res.json({ ok: true });
};

async function search(req: Request, res: Response): Promise<void> {
  const int = (v: unknown, d: number) => { const n = Number.parseInt(String(v ?? ''), 10); return Number.isFinite(n) && n > 0 ? n : d; };
  const q = req.query as Record<string, unknown>;
  res.json(await searchCargo(req.ctx.db, packageOwner(req), String(q.q ?? '').trim(), int(q.page, 1), Math.min(int(q.per_page, 30), 50)));
}

const router = express.Router();
router.get('/config.json', (req, res) => { res.json(cargoConfig(req.ctx.config, packageOwner(req))); });
router.get('/api/v1/crates', search);
router.put('/api/v1/crates/new', reqPackageAccess('write'), publish);
router.get('/api/v1/crates/:package/:version/download', download);
router.head('/api/v1/crates/:package/:version/download', download);
router.delete('/api/v1/crates/:package/:version/yank', reqPackageAccess('write'), yank(true));
router.put('/api/v1/crates/:package/:version/unyank', reqPackageAccess('write'), yank(false));
router.get('/api/v1/crates/:package/owners', (req, res) => { res.json(cargoOwners(packageOwner(req))); });
router.get('/1/:package', indexFile);
router.get('/2/:package', indexFile);
router.get('/3/:a/:package', indexFile);
router.get('/:a/:b/:package', indexFile);

const replyError = (_req: Request, res: Response, status: number, message: string) => {
  res.status(status).json({ errors: [{ detail: message }] });
};

export const cargoRegistry: PackageRegistry = { router, replyError };
