import express, { type Request, type Response } from 'express';
import { BadRequestError } from '../../lib/errors';
import { incrementDownloadCount } from '../../services/packages/queries';
import {
  gemFile, gemInfo, gemSpecsIndex, gemVersionsIndex, pushGem, quickGemspec, RUBYGEMS, yankGem,
} from '../../services/packages/rubygems/rubygems';
import { packageOwner, reqPackageAccess } from './access';
import { readSmallBody } from './read-body';
import { sendPackageBlob } from './send-blob';
import { storeUpload } from './upload-stream';
import type { PackageRegistry } from './index';

// Gitea's RubyGems registry (routers/api/packages/rubygems): specs.4.8.gz, latest_specs.4.8.gz,
// prerelease_specs.4.8.gz, quick/Marshal.4.8/{gem}.gemspec.rz, gems/{file}, info/{gem}, versions;
// POST api/v1/gems (gem push), DELETE api/v1/gems/yank. Errors are plain text.

const specs = (which: 'specs' | 'latest' | 'prerelease', file: string) => async (req: Request, res: Response): Promise<void> => {
  const body = await gemSpecsIndex(req.ctx.db, packageOwner(req), which);
  res.type('application/octet-stream').setHeader('Content-Disposition', `attachment; filename="${file}"`);
  res.send(body);
};

async function quick(req: Request, res: Response): Promise<void> {
  const filename = String(req.params.filename);
  if (!filename.endsWith('.gemspec.rz')) { res.status(501).type('text/plain').send('Not Implemented'); return; }
  res.type('application/octet-stream').send(await quickGemspec(req.ctx.db, packageOwner(req), filename));
}

async function download(req: Request, res: Response): Promise<void> {
  const f = await gemFile(req.ctx.db, packageOwner(req), String(req.params.filename));
  if (req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix });
}

async function push(req: Request, res: Response): Promise<void> {
  const { blob } = await storeUpload(req, res, RUBYGEMS);
  await pushGem(req.ctx.h, { owner: packageOwner(req), doer: req.ctx.doer!, blob });
  res.status(201).type('text/plain').send('Successfully registered gem');
}

/** gem yank sends gem_name and version as a form (urlencoded); a query string works too. */
async function yank(req: Request, res: Response): Promise<void> {
  const form = new URLSearchParams((await readSmallBody(req, 64 * 1024)).toString('utf8'));
  const q = req.query as Record<string, unknown>;
  const name = form.get('gem_name') ?? String(q.gem_name ?? '');
  const version = form.get('version') ?? String(q.version ?? '');
  if (!name || !version) throw new BadRequestError('gem_name and version are required');
  await yankGem(req.ctx.h, req.ctx.doer!, packageOwner(req), name, version);
  res.status(200).type('text/plain').send(`Successfully yanked gem: ${name} (${version})`);
}

const text = (fn: (req: Request) => Promise<string>) => async (req: Request, res: Response): Promise<void> => {
  res.type('text/plain; charset=utf-8').send(await fn(req));
};

const router = express.Router();
router.get('/specs.4.8.gz', specs('specs', 'specs.4.8.gz'));
router.get('/latest_specs.4.8.gz', specs('latest', 'latest_specs.4.8.gz'));
router.get('/prerelease_specs.4.8.gz', specs('prerelease', 'prerelease_specs.4.8.gz'));
router.get('/quick/Marshal.4.8/:filename', quick);
router.get('/gems/:filename', download);
router.head('/gems/:filename', download);
router.get('/info/:name', text((req) => gemInfo(req.ctx.db, packageOwner(req), String(req.params.name))));
router.get('/versions', text((req) => gemVersionsIndex(req.ctx.db, packageOwner(req))));
router.post('/api/v1/gems', reqPackageAccess('write'), push);
router.delete('/api/v1/gems/yank', reqPackageAccess('write'), yank);

export const rubygemsRegistry: PackageRegistry = { router };
