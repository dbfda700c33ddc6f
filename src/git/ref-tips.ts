import { git } from './exec';

// Every branch and tag with the commit it names, in ONE `git for-each-ref`: a page resolves its
// `{branch|tag}/{name}/{path}` URL and lists the branch switcher from the same read.

export type RefTips = {
  /** Branch name to its head commit, in ref order. */
  branches: Map<string, string>;
  /** Tag name to the commit it names (annotated tags peeled). */
  tags: Map<string, string>;
};

export async function readRefTips(dir: string): Promise<RefTips> {
  const out = await git(['for-each-ref', '--format=%(objectname)%00%(*objectname)%00%(refname)', 'refs/heads', 'refs/tags'], { gitDir: dir });
  const tips: RefTips = { branches: new Map(), tags: new Map() };
  for (const line of out.split('\n')) {
    const [id, peeled, ref] = line.split('\0');
    if (!ref) continue;
    if (ref.startsWith('refs/heads/')) tips.branches.set(ref.slice(11), id!);
    else if (ref.startsWith('refs/tags/')) tips.tags.set(ref.slice(10), peeled || id!);
  }
  return tips;
}
