import fs from 'node:fs';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import { moveRepoDir, repoDir } from '../../git/repo';
import { crashPoint } from '../../lib/crash-point';
import { clearIntent, recordIntent, type IntentKind } from '../recovery/intent';
import { wikiDir } from '../wiki/wiki-repo';

// Directory moves that go with a database change (rename, transfer, owner rename, delete): the
// intent (paths from and to) is committed first, the directories move inside the transaction
// after the rows changed, and the intent is cleared by the commit. A crash in between leaves the
// intent, and the next start (recovery/repo-move-recovery.ts) makes the disk match the rows.

export type DirMove = { from: string; to: string };

/** The repository directory and its wiki, from one owner/name to another. */
export function repoAndWikiMoves(config: Config, fromOwner: string, fromName: string, toOwner: string, toName: string): DirMove[] {
  return [
    { from: repoDir(config.repository.root, fromOwner, fromName), to: repoDir(config.repository.root, toOwner, toName) },
    { from: wikiDir(config, fromOwner, fromName), to: wikiDir(config, toOwner, toName) },
  ];
}

const isEmptyDir = (dir: string) => {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch {
    return false;
  }
};

/**
 * Moves `from` to `to` when `from` is there and `to` is free (an empty directory, as a deleted
 * owner leaves, counts as free); true when it moved. Used forwards, backwards and by recovery.
 */
export function moveIfPresent(from: string, to: string): boolean {
  if (from === to || !fs.existsSync(from)) return false;
  if (fs.existsSync(to) && isEmptyDir(to)) fs.rmdirSync(to);
  moveRepoDir(from, to);
  return true;
}

/** Moves back what `moved` moved, last first. */
export function undoMoves(moved: DirMove[]): void {
  for (const m of [...moved].reverse()) moveIfPresent(m.to, m.from);
}

export type StagedMoves = {
  kind: IntentKind;
  /** What recovery needs besides the moves (ids the rows are found by). */
  payload: object;
  moves: DirMove[];
  /** The crash point between the moves and the commit. */
  crashAt: string;
  /** Keep the intent past the commit (the caller clears it once its cleanup after the commit is done). */
  keepIntent?: boolean;
};

/**
 * Runs `rows` in a transaction and then, in the same transaction, the moves, under an intent
 * recorded before. On an ordinary failure the moves are undone and the intent cleared (if the
 * undo itself fails the intent stays, for the next start). Returns the intent's id when kept.
 */
export async function inTransactionWithMoves<T>(
  db: DB, staged: StagedMoves, rows: (trx: DB) => Promise<T>,
): Promise<{ value: T; intent: number | null }> {
  const moves = staged.moves.filter((m) => m.from !== m.to);
  if (!moves.length && !staged.keepIntent) return { value: await db.transaction().execute(rows), intent: null };
  const intent = await recordIntent(db, staged.kind, { ...staged.payload, moves });
  const moved: DirMove[] = [];
  let value: T;
  try {
    value = await db.transaction().execute(async (trx) => {
      const result = await rows(trx);
      for (const m of moves) if (moveIfPresent(m.from, m.to)) moved.push(m);
      crashPoint(staged.crashAt);
      if (!staged.keepIntent) await clearIntent(trx, intent);
      return result;
    });
  } catch (err) {
    undoMoves(moved);
    await clearIntent(db, intent);
    throw err;
  }
  return { value, intent: staged.keepIntent ? intent : null };
}
