import type { Request, Response } from 'express';
import * as z from 'zod';
import { contentsConverter, toContentsList, toFileCommitResponse, toFileResponse, toFilesResponse, UNSIGNED } from '../../../convert/contents';
import { BadRequestError, InvalidError } from '../../../lib/errors';
import { getContents, getContentsWithLfs, getFileContents, lastCommitMessages, type ContentItem } from '../../../services/repo/contents';
import type { CommitOptions } from '../../../services/repo/contents-commit';
import { getEditorconfig, getMediaFile, getRawFile } from '../../../services/repo/contents-raw';
import { applyDiffPatch, changeFiles, type FileOp } from '../../../services/repo/contents-write';
import { doerOf, repoOf } from '../../context';
import { queryString } from '../../query';
import { pathParam } from '../../table';
import { formatted, named, parseBody } from '../../validate';
import { sendRawFile } from './contents-raw';

const filepathOf = (req: Request) => pathParam(req, 'filepath');
const refOf = (req: Request) => queryString(req, 'ref')?.trim() || undefined;

// GET contents, contents/{filepath}

export async function get(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const view = await getContentsWithLfs(req.ctx.h, access, filepathOf(req), refOf(req));
  if ('empty' in view) {
    res.json([]);
    return;
  }
  const conv = contentsConverter(req.ctx.config, access, view.ref);
  res.json('file' in view ? conv(view.file) : view.dir.map(conv));
}

// file-contents (POST body, or GET with the same JSON in ?body=)

export const getFilesSchema = named('GetFilesOptions', z.object({ files: z.array(z.string()).nullish() }));

async function fileContents(req: Request, res: Response, body: unknown): Promise<void> {
  const access = repoOf(req);
  const { files } = parseBody(getFilesSchema, body);
  const { ref, items } = await getFileContents(req.ctx.config, access, files ?? [], refOf(req), req.ctx.h);
  res.json(toContentsList(req.ctx.config, access, ref, items));
}

export const fileContentsPost = (req: Request, res: Response) => fileContents(req, res, req.body);

export async function fileContentsGet(req: Request, res: Response): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(queryString(req, 'body') ?? '');
  } catch {
    throw new BadRequestError('invalid body parameter');
  }
  await fileContents(req, res, body);
}

// Writes

const identity = named('Identity', z.object({
  name: z.string().max(100).nullish(), email: formatted('email', z.string().max(254)).nullish(),
})).nullish();
const date = formatted('date-time', z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'invalid date-time'));
const commitFields = {
  branch: z.string().max(100).nullish(),
  new_branch: z.string().max(100).nullish(),
  message: z.string().nullish(),
  author: identity,
  committer: identity,
  dates: named('CommitDateOptions', z.object({ author: date.nullish(), committer: date.nullish() })).nullish(),
  signoff: z.boolean().nullish(),
};
const filePath = z.string().min(1).max(500);

export const createSchema = named('CreateFileOptions', z.object({ ...commitFields, content: z.string().nullish() }));
export const updateSchema = named('UpdateFileOptions', z.object({ ...commitFields, content: z.string().nullish(), sha: z.string().min(1), from_path: filePath.nullish() }));
export const deleteSchema = named('DeleteFileOptions', z.object({ ...commitFields, sha: z.string().min(1) }));
export const changeFilesSchema = named('ChangeFilesOptions', z.object({
  ...commitFields,
  files: z.array(named('ChangeFileOperation', z.object({
    operation: z.enum(['create', 'update', 'upload', 'rename', 'delete']),
    path: filePath,
    content: z.string().nullish(),
    sha: z.string().nullish(),
    from_path: filePath.nullish(),
  }))).min(1),
}));
export const diffPatchSchema = named('ApplyDiffPatchFileOptions', z.object({ ...commitFields, content: z.string() }));

type CommitBody = z.infer<z.ZodObject<typeof commitFields>>;

function commitOptions(b: CommitBody): CommitOptions {
  const when = (s?: string | null) => (s ? new Date(s) : null);
  return {
    branch: b.branch, newBranch: b.new_branch, message: b.message, author: b.author, committer: b.committer,
    dates: { author: when(b.dates?.author), committer: when(b.dates?.committer) }, signoff: b.signoff,
  };
}

/** Go's base64.StdEncoding: padded, newlines ignored, anything else refused (422). */
function decodeBase64(s: string | null | undefined, field: string): Buffer {
  const text = (s ?? '').replace(/[\r\n]/g, '');
  const bad = text.search(/[^A-Za-z0-9+/=]|=[^=]|={3}/);
  if (bad >= 0 || text.length % 4 !== 0) {
    throw new InvalidError(`[${field}]: illegal base64 data at input byte ${bad >= 0 ? bad : text.length}`, field);
  }
  return Buffer.from(text, 'base64');
}

async function writeOne(req: Request, res: Response, status: number, body: CommitBody, op: FileOp): Promise<void> {
  const access = repoOf(req);
  const result = await changeFiles(req.ctx.h, access, doerOf(req), commitOptions(body), [op]);
  res.status(status).json(toFileResponse(req.ctx.config, access, result));
}

export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(createSchema, req.body);
  const op: FileOp = { operation: 'create', path: filepathOf(req), content: decodeBase64(body.content, 'content') };
  await writeOne(req, res, 201, body, op);
}

export async function update(req: Request, res: Response): Promise<void> {
  const body = parseBody(updateSchema, req.body);
  const op: FileOp = {
    operation: 'update', path: filepathOf(req), content: decodeBase64(body.content, 'content'), sha: body.sha, fromPath: body.from_path,
  };
  await writeOne(req, res, 200, body, op);
}

export async function remove(req: Request, res: Response): Promise<void> {
  const body = parseBody(deleteSchema, req.body);
  await writeOne(req, res, 200, body, { operation: 'delete', path: filepathOf(req), sha: body.sha });
}

export async function changeMany(req: Request, res: Response): Promise<void> {
  const body = parseBody(changeFilesSchema, req.body);
  const ops = body.files.map((f, i): FileOp => ({
    operation: f.operation, path: f.path, sha: f.sha, fromPath: f.from_path,
    content: decodeBase64(f.content, `files.${i}.content`),
  }));
  const access = repoOf(req);
  const result = await changeFiles(req.ctx.h, access, doerOf(req), commitOptions(body), ops);
  res.status(201).json(toFilesResponse(req.ctx.config, access, result));
}

export async function diffPatch(req: Request, res: Response): Promise<void> {
  const body = parseBody(diffPatchSchema, req.body);
  const access = repoOf(req);
  const commit = await applyDiffPatch(req.ctx.h, access, doerOf(req), commitOptions(body), body.content);
  res.json({ content: null, commit: toFileCommitResponse(req.ctx.config, access, commit), verification: UNSIGNED });
}

// raw, media, editorconfig

export async function raw(req: Request, res: Response): Promise<void> {
  const file = await getRawFile(req.ctx.config, repoOf(req), filepathOf(req), refOf(req));
  await sendRawFile(req, res, file);
}

/** GET media/{filepath}: the LFS object when the file is the pointer of one, else the blob. */
export async function media(req: Request, res: Response): Promise<void> {
  const file = await getMediaFile(req.ctx.h, repoOf(req), filepathOf(req), refOf(req));
  await sendRawFile(req, res, file);
}

export async function editorconfig(req: Request, res: Response): Promise<void> {
  res.json(await getEditorconfig(req.ctx.config, repoOf(req), filepathOf(req), refOf(req)));
}

// contents-ext: Gitea 1.25's combined answer, exactly one of file_contents / dir_contents.

const EXT_INCLUDES = new Set(['file_content', 'lfs_metadata', 'commit_metadata', 'commit_message']);

export async function getExt(req: Request, res: Response): Promise<void> {
  const includes = (queryString(req, 'includes') ?? '').split(',').filter((s) => s !== '');
  const unknown = includes.find((s) => !EXT_INCLUDES.has(s));
  if (unknown !== undefined) throw new BadRequestError(`unknown include option "${unknown}"`);
  const access = repoOf(req);
  const raw = filepathOf(req);
  const filepath = raw === '.' || raw === '/' ? '' : raw;
  const content = includes.includes('file_content');
  const view = includes.includes('lfs_metadata')
    ? await getContentsWithLfs(req.ctx.h, access, filepath, refOf(req), content)
    : await getContents(req.ctx.config, access, filepath, refOf(req), content);
  if ('empty' in view) {
    res.json({ dir_contents: [] });
    return;
  }
  const items = 'file' in view ? [view.file] : view.dir;
  const messages = includes.includes('commit_message') ? await lastCommitMessages(req.ctx.config, access, items) : null;
  const conv = contentsConverter(req.ctx.config, access, view.ref);
  // As Gitea 1.25: the last commit's id and dates only with commit_metadata, its message with commit_message.
  const one = (item: ContentItem) => {
    const out: Record<string, unknown> = conv(item);
    if (!includes.includes('commit_metadata')) {
      for (const k of ['last_commit_sha', 'last_committer_date', 'last_author_date']) delete out[k];
    }
    if (messages && item.last) out.last_commit_message = messages.get(item.last.sha) ?? '';
    return out;
  };
  res.json('file' in view ? { file_contents: one(view.file) } : { dir_contents: view.dir.map(one) });
}
