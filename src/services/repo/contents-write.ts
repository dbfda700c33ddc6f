import type { User } from '../../db/schema';
import { applyPatchToTree, commitTree } from '../../git/apply';
import { blobBytes } from '../../git/blob';
import { writeCommit, type FileChange } from '../../git/commit';
import { signCrudAction } from '../signing/sign-rules';
import { readCommitMeta, type CommitMeta } from '../../git/last-commit';
import { entriesAt, type Entry } from '../../git/tree';
import { InvalidError, NotFoundError, PayloadTooLargeError } from '../../lib/errors';
import { contentsAt, type ContentItem } from './contents';
import {
  commitMessage, commitUnderLock, landCommit, prepareTarget, signatures, type CommitOptions,
} from './contents-commit';
import { checkTreePath, type RefCommit } from './contents-paths';
import type { RepoAccess } from './repos';
import type { Hearth } from '../../hearth';

// Creating, updating, renaming and deleting files over the API: one commit per request.

export type FileOperation = 'create' | 'update' | 'upload' | 'rename' | 'delete';
export type FileOp = { operation: FileOperation; path: string; fromPath?: string | null; content?: Buffer | null; sha?: string | null };
type CheckedOp = FileOp & { from: string; mode: '100644' | '100755' };

export type FilesResult = { ref: RefCommit; commit: CommitMeta; items: (ContentItem | null)[] };

const invalidPath = (p: string) => new InvalidError(`path contains a malformed path component [path: ${p}]`);

function checkPaths(files: FileOp[], maxBlob: number): CheckedOp[] {
  return files.map((f) => {
    if (checkTreePath(f.path) === null) throw invalidPath(f.path);
    if (f.fromPath && checkTreePath(f.fromPath) === null) throw invalidPath(f.fromPath);
    if (f.content && f.content.length > maxBlob) {
      throw new PayloadTooLargeError(`file is too large [path: ${f.path}, size: ${f.content.length}, max: ${maxBlob}]`);
    }
    return { ...f, from: f.fromPath || f.path, mode: '100644' };
  });
}

const prefixes = (p: string) => p.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));

/** Gitea's handleCheckErrors against the parent commit: the source exists and matches its sha, the target is free. */
function checkAgainstTree(op: CheckedOp, tree: Map<string, Entry>): void {
  if (op.operation !== 'create') {
    const from = tree.get(op.from);
    const isFile = from && from.kind === 'blob';
    if (!isFile && op.operation !== 'upload') throw new NotFoundError(`repository file does not exist [path: ${op.from}]`);
    if (op.sha && op.sha !== (isFile ? from.sha : '')) {
      throw new InvalidError(`sha does not match [given: ${op.sha}, expected: ${isFile ? from.sha : ''}]`);
    }
    if (isFile && from.mode === '100755') op.mode = '100755';
  }
  if (op.operation === 'delete') return;
  const parts = prefixes(op.path);
  for (const [i, sub] of parts.entries()) {
    const e = tree.get(sub);
    if (!e) break;
    const last = i === parts.length - 1;
    if (!last && e.kind !== 'tree') throw new InvalidError(`a file exists where you’re trying to create a subdirectory [path: ${sub}]`);
    if (!last) continue;
    if (e.mode === '120000') throw new InvalidError(`a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`);
    if (e.kind === 'tree') throw new InvalidError(`a directory exists where you’re trying to create a file [path: ${sub}]`);
    if (op.from !== op.path || op.operation === 'create') throw new InvalidError(`repository file already exists [path: ${op.path}]`);
  }
}

/** Index changes in order; a rename without content keeps the old bytes. */
async function changesOf(dir: string, ops: CheckedOp[], tree: Map<string, Entry>): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const op of ops) {
    if (op.operation === 'delete') {
      changes.push({ path: op.path, delete: true });
      continue;
    }
    if (op.from !== op.path && tree.has(op.from)) changes.push({ path: op.from, delete: true });
    let content = op.content ?? Buffer.alloc(0);
    const old = tree.get(op.from);
    if (op.operation === 'rename' && !op.content?.length && old) content = await blobBytes(dir, old.sha);
    changes.push({ path: op.path, content, mode: op.operation === 'rename' && old?.mode === '120000' ? '120000' : op.mode });
  }
  return changes;
}

/** Gitea's default message: "Add a, b", "Update c", "Delete d", one line each. */
export function defaultMessage(files: FileOp[]): string {
  const of = (ops: FileOperation[]) => files.filter((f) => ops.includes(f.operation)).map((f) => f.path).join(', ');
  const lines = [['Add', of(['create'])], ['Update', of(['update', 'upload', 'rename'])], ['Delete', of(['delete'])]];
  return lines.filter(([, list]) => list).map(([verb, list]) => `${verb} ${list}`).join('\n');
}

export async function changeFiles(
  h: Hearth, access: RepoAccess, doer: User, opts: CommitOptions, files: FileOp[],
): Promise<FilesResult> {
  if (!files.length) throw new InvalidError('[files]: at least one file operation is required', 'files');
  const ops = checkPaths(files, h.config.api.default_max_blob_size);
  return commitUnderLock(h, access, () => writeFiles(h, access, doer, opts, files, ops));
}

async function writeFiles(
  h: Hearth, access: RepoAccess, doer: User, opts: CommitOptions, files: FileOp[], ops: CheckedOp[],
): Promise<FilesResult> {
  const t = await prepareTarget(h, access, doer, opts, ops.map((o) => o.path), !ops.some((o) => o.operation === 'delete'));
  const needed = ops.flatMap((o) => [o.from, ...prefixes(o.path)]);
  const tree = t.parent ? await entriesAt(t.dir, t.parent, needed) : new Map<string, Entry>();
  if (t.parent) for (const op of ops) checkAgainstTree(op, tree);
  const { author, committer } = signatures(h.config, doer, opts);
  const message = commitMessage(opts, defaultMessage(files), committer);
  const changes = await changesOf(t.dir, ops, tree);
  const signer = await signCrudAction(h, doer, t.dir, t.parent);
  const commit = await writeCommit(t.dir, { parent: t.parent, changes, message, author, committer, signer });
  await landCommit(h, access, doer, t, commit);
  // As Gitea, the answer describes the files at the branch written to.
  const ref: RefCommit = { input: t.newBranch, kind: 'branch', name: t.newBranch, commit };
  const items = await contentsAt(h.config, t.dir, ref, ops.map((o) => o.path));
  return { ref, commit: await readCommitMeta(t.dir, commit), items };
}

/** POST diffpatch: a unified diff applied to the branch head in one commit (default message "apply-patch"). */
export function applyDiffPatch(
  h: Hearth, access: RepoAccess, doer: User, opts: CommitOptions, patch: string,
): Promise<CommitMeta> {
  return commitUnderLock(h, access, async () => {
    const t = await prepareTarget(h, access, doer, opts, [], false);
    const applied = await applyPatchToTree(t.dir, t.parent!, patch);
    if (!applied.ok) throw new InvalidError(`git apply error: ${applied.error}`);
    const { author, committer } = signatures(h.config, doer, opts);
    const message = commitMessage(opts, 'apply-patch', committer);
    const signer = await signCrudAction(h, doer, t.dir, t.parent);
    const commit = await commitTree(t.dir, { tree: applied.tree, parent: t.parent, message, author, committer, signer });
    await landCommit(h, access, doer, t, commit);
    return readCommitMeta(t.dir, commit);
  });
}
