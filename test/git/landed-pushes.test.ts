import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landedPushes } from '../../src/git/refs';

// Which updates of a git push landed, judged after the fact (its own node's sync, or another
// node adopting a dead node's intent): a later move that went on from a push keeps it landed; a
// refused update, a rewind or a deletion counts only as the ref is.

const ZERO = '0'.repeat(40);
let dir: string;
let a: string;
let b: string;
let c: string;

const git = (...args: string[]) => execFileSync('git', args, {
  cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir(), GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
}).trim();

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-landed-'));
  git('init', '-q', '--bare', '.');
  const tree = git('mktree');
  a = git('commit-tree', tree, '-m', 'a');
  b = git('commit-tree', tree, '-p', a, '-m', 'b');
  c = git('commit-tree', tree, '-p', b, '-m', 'c');
  git('update-ref', 'refs/heads/main', c);
  git('update-ref', 'refs/heads/old', a);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('landedPushes', () => {
  it('keeps an update whose ref is where it put it', async () => {
    const u = { ref: 'refs/heads/main', oldId: a, newId: c };
    expect(await landedPushes(dir, [u])).toEqual([u]);
  });

  it('keeps an update a later move went on from, and a new branch moved on since', async () => {
    const forward = { ref: 'refs/heads/main', oldId: a, newId: b };
    const created = { ref: 'refs/heads/main', oldId: ZERO, newId: a };
    expect(await landedPushes(dir, [forward, created])).toEqual([forward, created]);
  });

  it('drops a rewind the ref is not at, though its commit is under the tip', async () => {
    expect(await landedPushes(dir, [{ ref: 'refs/heads/main', oldId: c, newId: a }])).toEqual([]);
  });

  it('drops an update whose commits never reached the ref (refused), or on another ref', async () => {
    const stray = git('commit-tree', git('mktree'), '-m', 'refused');
    expect(await landedPushes(dir, [{ ref: 'refs/heads/main', oldId: c, newId: stray }])).toEqual([]);
    expect(await landedPushes(dir, [{ ref: 'refs/heads/old', oldId: a, newId: c }])).toEqual([]);
  });

  it('counts a deletion only when the ref is gone', async () => {
    const gone = { ref: 'refs/heads/gone', oldId: a, newId: ZERO };
    expect(await landedPushes(dir, [gone, { ref: 'refs/heads/old', oldId: a, newId: ZERO }])).toEqual([gone]);
  });
});
