import express, { type Request, type Response } from 'express';
import { UnauthorizedError } from '../../lib/errors';
import { createPackageToken } from '../../services/packages/auth-token';
import {
  CONAN, conanFile, deleteConanFiles, filesOf, packageRevisions, recipeRevisions, searchPackages, searchRecipes, uploadConanFile, type Target,
} from '../../services/packages/conan/conan';
import { checkRevision, DEFAULT_REVISION, orUnderscore, recipeRef, refString, type RecipeRef } from '../../services/packages/conan/reference';
import { incrementDownloadCount } from '../../services/packages/queries';
import { packageOwner, reqPackageAccess } from './access';
import { sendPackageBlob } from './send-blob';
import { storeUploadBody } from './upload-body';
import type { PackageRegistry } from './index';

// Gitea's Conan registry (routers/api/packages/conan): the v1 protocol (revision "0", upload and
// download URLs handed out per file) and v2 (revisions listed, files addressed directly). The
// token users/authenticate hands out is a signed package token. Errors are JSON {message}.

const p = (req: Request, k: string) => String(req.params[k] ?? '');
const refOf = (req: Request) => recipeRef(p(req, 'name'), p(req, 'version'), p(req, 'user'), p(req, 'channel'));
const write = reqPackageAccess('write');
const base = (req: Request) => `${req.ctx.config.server.root_url}api/packages/${encodeURIComponent(packageOwner(req).name)}/conan`;
const refPath = (r: RecipeRef) => `${r.name}/${r.version}/${orUnderscore(r.user)}/${orUnderscore(r.channel)}`;
/** The v1 file URL of a recipe or package file (revision "0"). */
const v1FileUrl = (req: Request, r: RecipeRef, pref: string | undefined, name: string) =>
  `${base(req)}/v1/files/${refPath(r)}/${DEFAULT_REVISION}/${pref === undefined ? 'recipe' : `package/${pref}/${DEFAULT_REVISION}`}/${name}`;

function ping(_req: Request, res: Response): void {
  res.setHeader('X-Conan-Server-Capabilities', 'revisions');
  res.status(200).end();
}

function authenticateUser(req: Request, res: Response): void {
  if (!req.ctx.doer) throw new UnauthorizedError();
  res.status(200).type('text/plain').send(createPackageToken(req.ctx.secret, req.ctx.doer, req.ctx.scopes));
}

function checkCredentials(req: Request, res: Response): void {
  if (!req.ctx.doer) throw new UnauthorizedError();
  res.status(200).end();
}

async function search(req: Request, res: Response): Promise<void> {
  res.json({ results: await searchRecipes(req.ctx.db, packageOwner(req), String(req.query.q ?? '')) });
}

/** v1 snapshot / digest / download URLs of the recipe or of one package (revision "0"). */
async function v1Files(req: Request, res: Response, mode: 'snapshot' | 'digest' | 'urls'): Promise<void> {
  const ref = refOf(req);
  const pref = req.params.package_reference ? checkRevision(p(req, 'package_reference')) : undefined;
  const files = await filesOf(req.ctx.db, packageOwner(req), ref, { rrev: DEFAULT_REVISION, pref, prev: pref && DEFAULT_REVISION });
  const out: Record<string, string> = {};
  for (const f of files) {
    if (mode === 'digest' && f.file.name !== 'conanmanifest.txt') continue;
    out[f.file.name] = mode === 'snapshot' ? f.blob.hash_md5 : v1FileUrl(req, ref, pref, f.file.name);
  }
  res.json(out);
}

async function v1UploadUrls(req: Request, res: Response): Promise<void> {
  const ref = refOf(req);
  const pref = req.params.package_reference ? checkRevision(p(req, 'package_reference')) : undefined;
  const wanted = (req.body && typeof req.body === 'object' ? Object.keys(req.body as object) : []);
  const out: Record<string, string> = {};
  for (const name of wanted) out[name] = v1FileUrl(req, ref, pref, name);
  res.json(out);
}

const targetOf = (req: Request): Target => ({
  rrev: checkRevision(p(req, 'recipe_revision')),
  pref: req.params.package_reference ? checkRevision(p(req, 'package_reference')) : undefined,
  prev: req.params.package_revision ? checkRevision(p(req, 'package_revision')) : undefined,
});

async function uploadFile(req: Request, res: Response): Promise<void> {
  const ref = refOf(req);
  const target = targetOf(req);
  const blob = await storeUploadBody(req, CONAN);
  await uploadConanFile(req.ctx.h, { owner: packageOwner(req), creator: req.ctx.doer!, ref, target, filename: p(req, 'filename'), blob });
  res.status(201).end();
}

async function downloadFile(req: Request, res: Response): Promise<void> {
  const f = await conanFile(req.ctx.db, packageOwner(req), refOf(req), targetOf(req), p(req, 'filename'));
  if (f.file.is_lead && req.method === 'GET') await incrementDownloadCount(req.ctx.db, f.version);
  await sendPackageBlob(req, res, { blob: f.blob, filename: f.file.name, lastModified: f.file.created_unix });
}

async function listFiles(req: Request, res: Response): Promise<void> {
  const files = await filesOf(req.ctx.db, packageOwner(req), refOf(req), targetOf(req));
  res.json({ files: Object.fromEntries(files.map((f) => [f.file.name, {}])) });
}

async function recipeRevisionList(req: Request, res: Response, latest: boolean): Promise<void> {
  const ref = refOf(req);
  const list = await recipeRevisions(req.ctx.db, packageOwner(req), ref);
  res.json(latest ? list[0] : { reference: refString(ref), revisions: list });
}

async function packageRevisionList(req: Request, res: Response, latest: boolean): Promise<void> {
  const ref = refOf(req);
  const t = targetOf(req);
  const list = await packageRevisions(req.ctx.db, packageOwner(req), ref, t.rrev, t.pref!);
  res.json(latest ? list[0] : { package_reference: `${refString(ref)}#${t.rrev}:${t.pref}`, revisions: list });
}

async function packagesSearch(req: Request, res: Response, v2: boolean): Promise<void> {
  const ref = refOf(req);
  const rrev = req.params.recipe_revision ? checkRevision(p(req, 'recipe_revision')) : v2 ? (await recipeRevisions(req.ctx.db, packageOwner(req), ref))[0]!.revision : DEFAULT_REVISION;
  res.json(await searchPackages(req.ctx.db, packageOwner(req), ref, rrev));
}

/** Deletes what the path names: the recipe, a recipe revision, its packages, one package, one package revision. */
async function remove(req: Request, res: Response): Promise<void> {
  const ref = refOf(req);
  const rrev = req.params.recipe_revision ? checkRevision(p(req, 'recipe_revision')) : undefined;
  const pref = req.params.package_reference ? checkRevision(p(req, 'package_reference')) : undefined;
  const prev = req.params.package_revision ? checkRevision(p(req, 'package_revision')) : undefined;
  const packagesOnly = req.path.endsWith('/packages') || pref !== undefined;
  await deleteConanFiles(req.ctx.h, req.ctx.doer!, packageOwner(req), ref, (k) =>
    (rrev === undefined || k.rrev === rrev) && (!packagesOnly || k.kind === 'package') && (pref === undefined || k.pref === pref) && (prev === undefined || k.prev === prev));
  res.status(200).end();
}

/** v1: POST packages/delete {package_ids: [...]} (all packages when empty). */
async function v1DeletePackages(req: Request, res: Response): Promise<void> {
  const ids = ((req.body as { package_ids?: unknown } | undefined)?.package_ids ?? []) as string[];
  await deleteConanFiles(req.ctx.h, req.ctx.doer!, packageOwner(req), refOf(req), (k) => k.kind === 'package' && (!ids.length || ids.includes(k.pref!)));
  res.status(200).end();
}

const REF = '/conans/:name/:version/:user/:channel';
const router = express.Router();
for (const v of ['v1', 'v2']) {
  router.get(`/${v}/ping`, ping);
  router.get(`/${v}/users/authenticate`, authenticateUser);
  router.get(`/${v}/users/check_credentials`, checkCredentials);
  router.get(`/${v}/conans/search`, search);
}
// v1
const json = express.json({ limit: '1mb' });
router.get(`/v1${REF}`, (req, res) => v1Files(req, res, 'snapshot'));
router.delete(`/v1${REF}`, write, remove);
router.get(`/v1${REF}/search`, (req, res) => packagesSearch(req, res, false));
router.get(`/v1${REF}/digest`, (req, res) => v1Files(req, res, 'digest'));
router.get(`/v1${REF}/download_urls`, (req, res) => v1Files(req, res, 'urls'));
router.post(`/v1${REF}/upload_urls`, write, json, v1UploadUrls);
router.post(`/v1${REF}/packages/delete`, write, json, v1DeletePackages);
router.get(`/v1${REF}/packages/:package_reference`, (req, res) => v1Files(req, res, 'snapshot'));
router.get(`/v1${REF}/packages/:package_reference/digest`, (req, res) => v1Files(req, res, 'digest'));
router.get(`/v1${REF}/packages/:package_reference/download_urls`, (req, res) => v1Files(req, res, 'urls'));
router.post(`/v1${REF}/packages/:package_reference/upload_urls`, write, json, v1UploadUrls);
const FILES = '/v1/files/:name/:version/:user/:channel/:recipe_revision';
router.get(`${FILES}/recipe/:filename`, downloadFile);
router.put(`${FILES}/recipe/:filename`, write, uploadFile);
router.get(`${FILES}/package/:package_reference/:package_revision/:filename`, downloadFile);
router.put(`${FILES}/package/:package_reference/:package_revision/:filename`, write, uploadFile);
// v2
const RREV = `/v2${REF}/revisions/:recipe_revision`;
const PREV = `${RREV}/packages/:package_reference/revisions/:package_revision`;
router.delete(`/v2${REF}`, write, remove);
router.get(`/v2${REF}/search`, (req, res) => packagesSearch(req, res, true));
router.get(`/v2${REF}/latest`, (req, res) => recipeRevisionList(req, res, true));
router.get(`/v2${REF}/revisions`, (req, res) => recipeRevisionList(req, res, false));
router.delete(RREV, write, remove);
router.get(`${RREV}/search`, (req, res) => packagesSearch(req, res, true));
router.get(`${RREV}/files`, listFiles);
router.get(`${RREV}/files/:filename`, downloadFile);
router.put(`${RREV}/files/:filename`, write, uploadFile);
router.delete(`${RREV}/packages`, write, remove);
router.delete(`${RREV}/packages/:package_reference`, write, remove);
router.get(`${RREV}/packages/:package_reference/latest`, (req, res) => packageRevisionList(req, res, true));
router.get(`${RREV}/packages/:package_reference/revisions`, (req, res) => packageRevisionList(req, res, false));
router.delete(PREV, write, remove);
router.get(`${PREV}/files`, listFiles);
router.get(`${PREV}/files/:filename`, downloadFile);
router.put(`${PREV}/files/:filename`, write, uploadFile);

export const conanRegistry: PackageRegistry = {
  router,
  replyError: (_req, res, status, message) => { res.status(status).json({ message }); },
};
