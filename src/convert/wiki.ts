import type { Config } from '../config/schema';
import type { WikiCommit } from '../git/wiki-log';
import { isoTime } from '../lib/time';
import { webPathToUserTitle } from '../lib/wiki-path';
import type { WikiPageMeta, WikiPageView } from '../services/wiki/wiki';
import { repoUrls } from './repo';

// Gitea's WikiCommit, WikiPageMetaData, WikiPage and WikiCommitList (the "commiter" typo is the reference's).

type RepoNames = { owner: { name: string }; repo: { name: string } };

export function toWikiCommit(c: WikiCommit) {
  return {
    sha: c.sha,
    author: { name: c.author.name, email: c.author.email, date: isoTime(c.author.unix) },
    commiter: { name: c.committer.name, email: c.committer.email, date: isoTime(c.committer.unix) },
    message: c.message,
  };
}

export function toWikiPageMeta(config: Config, a: RepoNames, m: WikiPageMeta) {
  return {
    title: webPathToUserTitle(m.name),
    html_url: `${repoUrls(config, a.owner.name, a.repo.name).html_url}/wiki/${m.name}`,
    sub_url: m.name,
    last_commit: m.last ? toWikiCommit(m.last) : null,
  };
}

export function toWikiPage(config: Config, a: RepoNames, p: WikiPageView) {
  return {
    ...toWikiPageMeta(config, a, p),
    content_base64: p.content, commit_count: p.commitCount, sidebar: p.sidebar, footer: p.footer,
  };
}

export const toWikiCommitList = (commits: WikiCommit[], count: number) => ({ commits: commits.map(toWikiCommit), count });
