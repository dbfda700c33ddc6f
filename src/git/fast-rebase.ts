import crypto from 'node:crypto';
import type { Signature } from './commit';
import { git, gitRun } from './exec';
import type { RawCommit } from './merge';

// A rebase whose commits touch only paths the base did not change since the fork point needs
// no three-way merges: each replayed commit is its own diff applied on the new base. All of
// them are written by one `git fast-import` instead of several processes per commit.

type Change = { mode: string; sha: string; path: string } | { path: string; deleted: true };

/** Raw diffs of each commit against its parent: one `git diff-tree --stdin` for all of them. */
async function diffsOf(dir: string, commits: RawCommit[]): Promise<Map<string, Change[]> | null> {
  const out = await git(['diff-tree', '--stdin', '-r', '--raw', '--no-renames', '--no-abbrev'], {
    gitDir: dir, input: `${commits.map((c) => c.sha).join('\n')}\n`,
  });
  const diffs = new Map<string, Change[]>();
  let current: Change[] | null = null;
  for (const line of out.split('\n')) {
    if (/^[0-9a-f]{40,64}$/.test(line)) {
      current = [];
      diffs.set(line, current);
    } else if (line.startsWith(':') && current) {
      const tab = line.indexOf('\t');
      const [, newMode, , newSha, status] = line.slice(1, tab).split(' ');
      const path = line.slice(tab + 1);
      if (path.startsWith('"')) return null; // quoted (unusual) paths: leave them to the slow path
      current.push(status === 'D' ? { path, deleted: true } : { mode: newMode!, sha: newSha!, path });
    }
  }
  return diffs;
}

const sig = (s: { name: string; email: string }, date: string) => `${s.name} <${s.email}> ${date}`;

/** The rebased tip, or null when a path overlaps the base's changes (use three-way merges). */
export async function fastRebase(
  dir: string, base: string, head: string, commits: RawCommit[], committer: Signature,
): Promise<string | null> {
  const forkPoint = (await git(['merge-base', base, head], { gitDir: dir })).trim();
  const baseChanged = new Set((await git(['diff', '--name-only', '-z', '--no-renames', forkPoint, base], { gitDir: dir })).split('\0').filter(Boolean));
  const diffs = await diffsOf(dir, commits);
  if (!diffs) return null;
  for (const changes of diffs.values()) if (changes.some((c) => baseChanged.has(c.path))) return null;
  const ref = `refs/hearth-tmp/${crypto.randomUUID()}`;
  const now = `${Math.floor((committer.date ?? new Date()).getTime() / 1000)} +0000`;
  let script = '';
  commits.forEach((c, n) => {
    const message = Buffer.from(c.message.endsWith('\n') ? c.message : `${c.message}\n`);
    script += `commit ${ref}\nauthor ${sig({ name: c.authorName, email: c.authorEmail }, c.authorDate)}\n`
      + `committer ${sig(committer, now)}\ndata ${message.length}\n${message.toString()}\n`;
    if (n === 0) script += `from ${base}\n`;
    for (const ch of diffs.get(c.sha) ?? []) script += 'deleted' in ch ? `D ${ch.path}\n` : `M ${ch.mode} ${ch.sha} ${ch.path}\n`;
    script += '\n';
  });
  const r = await gitRun(['fast-import', '--quiet', '--force'], { gitDir: dir, input: script });
  if (r.code !== 0) return null;
  const tip = (await git(['rev-parse', ref], { gitDir: dir })).trim();
  await git(['update-ref', '-d', ref], { gitDir: dir });
  return tip;
}
