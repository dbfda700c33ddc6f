import { git } from './exec';

// The commits of a push with the files each touched, as webhook payloads list them (Gitea's
// PayloadCommit: added, removed, modified), read in one `git log`.

export type PushCommit = {
  id: string; message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  added: string[]; removed: string[]; modified: string[];
};

const FORMAT = '%x1e%H%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00';

function parseRecord(record: string): PushCommit {
  const parts = record.split('\0');
  const [id, an, ae, ad, cn, ce, cd, message] = parts as string[];
  const files = parts.slice(8).join('\0').replace(/^\0*\n?/, '').split('\0').filter((x) => x !== '');
  const c: PushCommit = {
    id: id!, message: message ?? '', author: { name: an!, email: ae!, date: ad! }, committer: { name: cn!, email: ce!, date: cd! },
    added: [], removed: [], modified: [],
  };
  for (let i = 0; i + 1 < files.length; i += 2) {
    const status = files[i]!.trim();
    const list = status === 'A' ? c.added : status === 'D' ? c.removed : c.modified;
    list.push(files[i + 1]!);
  }
  return c;
}

/**
 * The newest `limit` commits of `from..to` (all of `to`'s history when `from` is null), newest
 * first, and how many there are in all. Both ids must be resolved object ids.
 */
export async function pushCommits(dir: string, from: string | null, to: string, limit: number): Promise<{ commits: PushCommit[]; total: number }> {
  const range = from ? [`${from}..${to}`] : [to];
  const [log, count] = await Promise.all([
    git(['log', '-z', '--no-renames', '--name-status', `--format=${FORMAT}`, `--max-count=${limit}`, ...range, '--'], { gitDir: dir }),
    git(['rev-list', '--count', ...range, '--'], { gitDir: dir }),
  ]);
  const commits = log.split('\x1e').filter((r) => r.length > 1).map(parseRecord);
  return { commits, total: Number(count.trim()) || 0 };
}
