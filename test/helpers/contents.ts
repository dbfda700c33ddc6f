import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { git, remoteUrl, workTree } from './git';
import type { TestServer } from './server';
import { expectShape } from './swagger';

// Fixtures and shape checks shared by the contents API tests.

/**
 * ContentsResponse against the reference. Gitea sends null for fields that do not apply to
 * the entry type (content, encoding, target, submodule_git_url, urls of submodules), which
 * the reference does not mark nullable: those nulls are let through.
 */
export function expectContentsShape(body: unknown): void {
  const strip = (c: Record<string, unknown>) => {
    const copy = { ...c };
    for (const [k, v] of Object.entries(copy)) if (v === null) delete copy[k];
    const links = { ...(copy._links as Record<string, unknown>) };
    for (const [k, v] of Object.entries(links)) if (v === null) delete links[k];
    copy._links = links;
    return copy;
  };
  if (Array.isArray(body)) {
    expectShape(body.filter((b) => b !== null).map(strip), '[ContentsResponse]');
  } else expectShape(strip(body as Record<string, unknown>), 'ContentsResponse');
}

/** FileResponse / FilesResponse / FileDeleteResponse with the same allowance for nulls. */
export function expectWriteShape(body: Record<string, unknown>, def: 'FileResponse' | 'FilesResponse' | 'FileDeleteResponse'): void {
  const copy = { ...body };
  if (def === 'FilesResponse') {
    expectContentsShape(copy.files);
    copy.files = [];
  } else if (copy.content !== null) {
    expectContentsShape(copy.content);
    delete copy.content;
  }
  if (copy.content === null) delete copy.content;
  expectShape(copy, def);
}

export const GITMODULES = '[submodule "lib"]\n\tpath = mods/lib\n\turl = https://example.com/lib.git\n';
export const EDITORCONFIG = [
  'root = true', '', '[*]', 'end_of_line = lf', 'charset = utf-8', '', '[*.{js,ts}]', 'indent_style = space',
  'indent_size = 2', '', '[docs/**.md]', 'indent_style = tab', '', '[Makefile]', 'indent_style = tab', '',
  '[file{1..3}.txt]', 'indent_size = 8',
].join('\n');

export type Seeded = { c1: string; c2: string; dev: string; work: string };

/**
 * Pushes a history to `owner/repo`: c1 with files, an executable, a symlink, a submodule and
 * a binary; c2 changing docs/a.md; tag v1 at c1; branch dev one commit ahead of c2.
 */
export async function seedRepo(s: TestServer, user: { username: string; password: string }, owner: string, repo: string): Promise<Seeded> {
  const work = await workTree({
    'README.md': '# Hello\n', 'docs/a.md': 'a\n', 'docs/sub/b.txt': 'b\n', 'run.sh': '#!/bin/sh\necho hi\n',
    '.editorconfig': EDITORCONFIG, '.gitmodules': GITMODULES, 'big.txt': 'x'.repeat(5000), 'bin.dat': '\0\x01\x02binary',
  });
  fs.chmodSync(path.join(work, 'run.sh'), 0o755);
  await git(work, 'add', 'run.sh');
  fs.symlinkSync('README.md', path.join(work, 'link'));
  await git(work, 'add', 'link');
  const empty = (await git(work, 'hash-object', '-t', 'tree', '/dev/null')).trim();
  const sub = (await git(work, 'commit-tree', empty, '-m', 'sub')).trim();
  await git(work, 'update-index', '--add', '--cacheinfo', `160000,${sub},mods/lib`);
  await git(work, 'commit', '-q', '--amend', '-m', 'first');
  const c1 = (await git(work, 'rev-parse', 'HEAD')).trim();
  fs.writeFileSync(path.join(work, 'docs/a.md'), 'a2\n');
  await git(work, 'add', 'docs/a.md');
  await git(work, 'commit', '-q', '-m', 'second');
  const c2 = (await git(work, 'rev-parse', 'HEAD')).trim();
  await git(work, 'tag', 'v1', c1);
  await git(work, 'checkout', '-q', '-b', 'dev');
  fs.writeFileSync(path.join(work, 'dev.txt'), 'dev\n');
  await git(work, 'add', 'dev.txt');
  await git(work, 'commit', '-q', '-m', 'dev work');
  const dev = (await git(work, 'rev-parse', 'HEAD')).trim();
  await git(work, 'checkout', '-q', 'main');
  await git(work, 'push', '-q', remoteUrl(s, owner, repo, user.username, user.password), 'main', 'dev', 'v1');
  return { c1, c2, dev, work };
}

export async function ok(res: Response, status = 200): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : undefined;
}
