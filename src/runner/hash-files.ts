// hashFiles(patterns...) on the runner: the SHA-256 of the SHA-256s of the workspace files the
// patterns match (sorted by path; `!pattern` excludes), '' when none match, as GitHub computes it.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compileGlob } from '../lib/glob';

function* walk(root: string, rel = ''): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name !== '.git') yield* walk(root, p);
    } else if (e.isFile()) {
      yield p;
    }
  }
}

function matcher(pattern: string): (p: string) => boolean {
  const clean = pattern.replace(/^\.\//, '');
  const re = compileGlob(clean, '/');
  // `**/x` also matches `x` at the top
  const top = clean.startsWith('**/') ? compileGlob(clean.slice(3), '/') : null;
  return (p) => re.test(p) || (top?.test(p) ?? false);
}

export function hashFiles(workspace: string, patterns: string[]): string {
  const include = patterns.filter((p) => !p.startsWith('!')).map(matcher);
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => matcher(p.slice(1)));
  const files = [...walk(workspace)].filter((p) => include.some((m) => m(p)) && !exclude.some((m) => m(p))).sort();
  if (files.length === 0) return '';
  const all = crypto.createHash('sha256');
  for (const f of files) all.update(crypto.createHash('sha256').update(fs.readFileSync(path.join(workspace, f))).digest());
  return all.digest('hex');
}
