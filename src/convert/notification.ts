import type { Config } from '../config/schema';
import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import { NOTIFY_SOURCE, NOTIFY_STATUS } from '../models/notification';
import type { NotificationView } from '../services/notification/notifications';
import { issueApiUrl, issueHtmlUrl } from './issue';
import { repoUrls, toApiRepo } from './repo';


type Subject = {
  title: string; url: string; html_url: string; latest_comment_url: string; latest_comment_html_url: string;
  type: string; state: string;
};

function issueSubject(config: Config, v: NotificationView, type: string): Subject {
  const { issue, owner, repo, lastComment } = v;
  const s: Subject = { title: '', url: '', html_url: '', latest_comment_url: '', latest_comment_html_url: '', type, state: '' };
  if (!issue) return s;
  s.title = issue.title;
  s.url = issueApiUrl(config, owner, repo, issue);
  s.html_url = issueHtmlUrl(config, owner, repo, issue);
  s.state = v.merged ? 'merged' : issue.is_closed ? 'closed' : 'open';
  if (lastComment) {
    s.latest_comment_url = `${repoUrls(config, owner.name, repo.name).url}/issues/comments/${lastComment.id}`;
    s.latest_comment_html_url = `${s.html_url}#issuecomment-${lastComment.id}`;
  }
  return s;
}

/** Gitea's ToNotificationThread: the subject by source; the repository without permissions. */
function subjectOf(config: Config, v: NotificationView): Subject {
  const urls = repoUrls(config, v.owner.name, v.repo.name);
  const blank = { latest_comment_url: '', latest_comment_html_url: '', state: '' };
  switch (v.n.source) {
    case NOTIFY_SOURCE.issue: return issueSubject(config, v, 'Issue');
    case NOTIFY_SOURCE.pull: return issueSubject(config, v, 'Pull');
    case NOTIFY_SOURCE.commit: {
      const url = `${urls.html_url}/commit/${encodeURIComponent(v.n.commit_id)}`;
      return { ...blank, type: 'Commit', title: v.n.commit_id, url, html_url: url };
    }
    default: {
      const path = `/${encodeURIComponent(v.owner.name)}/${encodeURIComponent(v.repo.name)}`;
      return { ...blank, type: 'Repository', title: `${v.owner.name}/${v.repo.name}`, url: path, html_url: urls.html_url };
    }
  }
}

export function toApiNotification(config: Config, v: NotificationView, viewer: User | null) {
  const { permissions: _omitted, ...repository } = toApiRepo(config, { repo: v.repo, owner: v.owner, mode: 1 }, viewer);
  return {
    id: v.n.id,
    repository,
    subject: subjectOf(config, v),
    unread: v.n.status === NOTIFY_STATUS.unread,
    pinned: v.n.status === NOTIFY_STATUS.pinned,
    updated_at: isoTime(v.n.updated_unix),
    url: `${config.server.root_url}api/v1/notifications/threads/${v.n.id}`,
  };
}
