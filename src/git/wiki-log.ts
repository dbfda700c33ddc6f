import { gitRun } from './exec';

// History of one file of a wiki repository (the page revisions of Gitea's wiki API).

export type WikiCommit = {
  sha: string;
  author: { name: string; email: string; unix: number };
  committer: { name: string; email: string; unix: number };
  message: string;
};

const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };
const FORMAT = '--format=%x1e%H%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B';

function parse(out: string): WikiCommit[] {
  return out.split('\x1e').filter((r) => r.includes('\0')).map((r) => {
    const [sha, an, ae, at, cn, ce, ct, ...rest] = r.split('\0');
    // As Gitea's WikiCommit: the message as git stores it ("Add Home.md\n"); only the newline
    // that ends each record of the log's output is dropped.
    const message = rest.join('\0').replace(/\n$/, '');
    return {
      sha: sha!, author: { name: an!, email: ae!, unix: Number(at) },
      committer: { name: cn!, email: ce!, unix: Number(ct) }, message,
    };
  });
}

/** Commits of `rev` touching `file`, newest first (`skip`, `limit` page them). */
export async function fileCommits(dir: string, rev: string, file: string, skip = 0, limit = 1): Promise<WikiCommit[]> {
  const r = await gitRun(['log', FORMAT, `--skip=${skip}`, `--max-count=${limit}`, rev, '--', file], { gitDir: dir, env: LITERAL });
  return r.code === 0 ? parse(r.stdout.toString('utf8')) : [];
}

export async function countFileCommits(dir: string, rev: string, file: string): Promise<number> {
  const r = await gitRun(['rev-list', '--count', rev, '--', file], { gitDir: dir, env: LITERAL });
  return r.code === 0 ? Number(r.stdout.toString().trim()) : 0;
}

/** The branch HEAD names (a wiki's default branch), or null when HEAD is not symbolic. */
export async function headBranch(dir: string): Promise<string | null> {
  const r = await gitRun(['symbolic-ref', '--short', 'HEAD'], { gitDir: dir });
  return r.code === 0 ? r.stdout.toString().trim() : null;
}
