import type { components } from '@octokit/openapi-types';
import type { Story, StoryComment, StoryIssue, StoryPull, StoryReaction, StoryUser } from './migrate-story';

// The story in GitHub's REST shapes, typed with GitHub's published OpenAPI description
// (@octokit/openapi-types): a field GitHub does not document, or one it requires and we left
// out, fails tsc. URLs point at the fake's API root.

type S = components['schemas'];

export class GithubShapes {
  constructor(private readonly api: string, private readonly web: string, private readonly story: Story) {}

  private get repoApi(): string { return `${this.api}repos/${this.story.owner}/${this.story.repo}`; }

  user(u: StoryUser): S['simple-user'] {
    const url = `${this.api}users/${u.login}`;
    return {
      login: u.login, id: u.id, node_id: `U_${u.id}`, avatar_url: '', gravatar_id: '', url, html_url: `${this.web}${u.login}`,
      followers_url: `${url}/followers`, following_url: `${url}/following{/other_user}`, gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`, subscriptions_url: `${url}/subscriptions`, organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`, events_url: `${url}/events{/privacy}`, received_events_url: `${url}/received_events`, type: 'User', site_admin: false,
    };
  }

  label(name: string): S['label'] {
    const l = this.story.labels.find((x) => x.name === name)!;
    return { id: this.story.labels.indexOf(l) + 1, node_id: `L_${name}`, url: `${this.repoApi}/labels/${name}`, name, description: l.description || null, color: l.color, default: false };
  }

  milestone(title: string | null): S['milestone'] | null {
    const m = this.story.milestones.find((x) => x.title === title);
    if (!m) return null;
    return {
      url: `${this.repoApi}/milestones/${m.id}`, html_url: `${this.web}milestone/${m.id}`, labels_url: `${this.repoApi}/milestones/${m.id}/labels`,
      id: m.id, node_id: `M_${m.id}`, number: m.id, state: m.state, title: m.title, description: m.description, creator: this.user(this.story.issues[0]!.user),
      open_issues: 0, closed_issues: 0, created_at: m.created_at, updated_at: m.closed_at ?? m.created_at, closed_at: m.closed_at, due_on: m.due_on,
    };
  }

  rollup(url: string, list: StoryReaction[]): S['reaction-rollup'] {
    const n = (c: string) => list.filter((r) => r.content === c).length;
    return {
      url, total_count: list.length, '+1': n('+1'), '-1': n('-1'), laugh: n('laugh'), confused: n('confused'), heart: n('heart'),
      hooray: n('hooray'), eyes: n('eyes'), rocket: n('rocket'),
    };
  }

  reactions(list: StoryReaction[]): S['reaction'][] {
    return list.map((r, i) => ({ id: i + 1, node_id: `R_${i}`, user: this.user(r.user), content: r.content as S['reaction']['content'], created_at: r.created_at }));
  }

  issue(i: StoryIssue, isPull = false): S['issue'] {
    const url = `${this.repoApi}/issues/${i.number}`;
    return {
      id: 9000 + i.number, node_id: `I_${i.number}`, url, repository_url: this.repoApi, labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`, events_url: `${url}/events`, html_url: `${this.web}issues/${i.number}`, number: i.number,
      state: i.state, title: i.title, body: i.body, user: this.user(i.user), labels: i.labels.map((l) => this.label(l)),
      assignee: null, milestone: this.milestone(i.milestone), locked: false, comments: i.comments.length,
      closed_at: i.closed_at, created_at: i.created_at, updated_at: i.updated_at, author_association: 'OWNER',
      reactions: this.rollup(`${url}/reactions`, i.reactions),
      ...(isPull ? { pull_request: { url: `${this.repoApi}/pulls/${i.number}`, html_url: null, diff_url: null, patch_url: null } } : {}),
    };
  }

  comment(issue: number, c: StoryComment): S['issue-comment'] {
    return {
      id: c.id, node_id: `C_${c.id}`, url: `${this.repoApi}/issues/comments/${c.id}`, body: c.body, html_url: `${this.web}issues/${issue}#c${c.id}`,
      user: this.user(c.user), created_at: c.created_at, updated_at: c.updated_at, issue_url: `${this.repoApi}/issues/${issue}`,
      author_association: 'CONTRIBUTOR', reactions: this.rollup(`${this.repoApi}/issues/comments/${c.id}/reactions`, c.reactions),
    };
  }

  repository(): S['repository'] {
    const r = this.repoApi;
    const owner = this.user({ id: 11, login: this.story.owner });
    return {
      id: 77, node_id: 'R_77', name: this.story.repo, full_name: `${this.story.owner}/${this.story.repo}`, license: null, forks: 0, owner,
      private: false, html_url: this.web, description: null, fork: false, url: r, archive_url: `${r}/{archive_format}{/ref}`,
      assignees_url: `${r}/assignees{/user}`, blobs_url: `${r}/git/blobs{/sha}`, branches_url: `${r}/branches{/branch}`,
      collaborators_url: `${r}/collaborators{/collaborator}`, comments_url: `${r}/comments{/number}`, commits_url: `${r}/commits{/sha}`,
      compare_url: `${r}/compare/{base}...{head}`, contents_url: `${r}/contents/{+path}`, contributors_url: `${r}/contributors`,
      deployments_url: `${r}/deployments`, downloads_url: `${r}/downloads`, events_url: `${r}/events`, forks_url: `${r}/forks`,
      git_commits_url: `${r}/git/commits{/sha}`, git_refs_url: `${r}/git/refs{/sha}`, git_tags_url: `${r}/git/tags{/sha}`,
      git_url: `git://example/${this.story.repo}.git`, issue_comment_url: `${r}/issues/comments{/number}`, issue_events_url: `${r}/issues/events{/number}`,
      issues_url: `${r}/issues{/number}`, keys_url: `${r}/keys{/key_id}`, labels_url: `${r}/labels{/name}`, languages_url: `${r}/languages`,
      merges_url: `${r}/merges`, milestones_url: `${r}/milestones{/number}`, notifications_url: `${r}/notifications`, pulls_url: `${r}/pulls{/number}`,
      releases_url: `${r}/releases{/id}`, ssh_url: 'git@example:x.git', stargazers_url: `${r}/stargazers`, statuses_url: `${r}/statuses/{sha}`,
      subscribers_url: `${r}/subscribers`, subscription_url: `${r}/subscription`, tags_url: `${r}/tags`, teams_url: `${r}/teams`,
      trees_url: `${r}/git/trees{/sha}`, clone_url: `${this.web}.git`, mirror_url: null, hooks_url: `${r}/hooks`, svn_url: this.web,
      homepage: null, language: null, forks_count: 0, stargazers_count: 0, watchers_count: 0, size: 1, default_branch: 'main',
      open_issues_count: 0, topics: this.story.topics, has_issues: true, has_projects: false, has_wiki: true, has_pages: false,
      has_downloads: true, archived: false, disabled: false, pushed_at: null, created_at: null, updated_at: null, open_issues: 0, watchers: 0,
    };
  }

  private branch(ref: string, sha: string): S['pull-request-simple']['head'] {
    return { label: `${this.story.owner}:${ref}`, ref, repo: this.repository(), sha, user: this.user({ id: 11, login: this.story.owner }) };
  }

  pull(p: StoryPull): S['pull-request-simple'] {
    const url = `${this.repoApi}/pulls/${p.number}`;
    const link = (href: string): S['link'] => ({ href });
    return {
      url, id: 8000 + p.number, node_id: `PR_${p.number}`, html_url: `${this.web}pull/${p.number}`, diff_url: `${url}.diff`, patch_url: `${url}.patch`,
      issue_url: `${this.repoApi}/issues/${p.number}`, commits_url: `${url}/commits`, review_comments_url: `${url}/comments`,
      review_comment_url: `${this.repoApi}/pulls/comments{/number}`, comments_url: `${this.repoApi}/issues/${p.number}/comments`,
      statuses_url: `${this.repoApi}/statuses/${p.headSha}`, number: p.number, state: p.state, locked: false, title: p.title,
      user: this.user(p.user), body: p.body, labels: p.labels.map((l) => ({ ...this.label(l), description: this.label(l).description ?? '' })),
      milestone: this.milestone(p.milestone), created_at: p.created_at, updated_at: p.updated_at, closed_at: p.closed_at,
      merged_at: p.merged_at, merge_commit_sha: p.merge_commit_sha, assignee: null,
      head: this.branch(p.head, p.headSha), base: this.branch(p.base, p.baseSha),
      _links: {
        comments: link(`${url}/comments`), commits: link(`${url}/commits`), statuses: link(`${url}/statuses`), html: link(`${this.web}pull/${p.number}`),
        issue: link(`${this.repoApi}/issues/${p.number}`), review_comments: link(`${url}/comments`), review_comment: link(`${url}/comments{/number}`), self: link(url),
      },
      author_association: 'OWNER', auto_merge: null,
    };
  }

  review(p: StoryPull, r: StoryPull['reviews'][number]): S['pull-request-review'] {
    const state = r.state === 'COMMENT' ? 'COMMENTED' : r.state;
    return {
      id: r.id, node_id: `PRR_${r.id}`, user: this.user(r.user), body: r.body, state, html_url: `${this.web}pull/${p.number}#r${r.id}`,
      pull_request_url: `${this.repoApi}/pulls/${p.number}`, _links: { html: { href: '' }, pull_request: { href: '' } },
      submitted_at: r.submitted_at, commit_id: p.headSha, author_association: 'COLLABORATOR',
    };
  }

  reviewComment(p: StoryPull, r: StoryPull['reviews'][number], i: number): S['review-comment'] {
    const c = r.lines[i]!;
    return {
      url: `${this.repoApi}/pulls/comments/${r.id * 10 + i}`, pull_request_review_id: r.id, id: r.id * 10 + i, node_id: `PRRC_${i}`,
      diff_hunk: c.diff_hunk, path: c.path, position: c.line, original_position: c.line, commit_id: p.headSha, original_commit_id: p.headSha,
      user: this.user(r.user), body: c.body, created_at: c.created_at, updated_at: c.created_at, html_url: '', pull_request_url: `${this.repoApi}/pulls/${p.number}`,
      author_association: 'COLLABORATOR', _links: { self: { href: '' }, html: { href: '' }, pull_request: { href: '' } }, side: 'RIGHT', line: c.line, original_line: c.line,
    };
  }

  release(): S['release'] {
    const rel = this.story.release;
    const url = `${this.repoApi}/releases/${rel.id}`;
    const asset: S['release-asset'] = {
      url: `${this.repoApi}/releases/assets/${rel.asset.id}`, browser_download_url: `${this.web}releases/download/${rel.tag}/${rel.asset.name}`,
      id: rel.asset.id, node_id: 'RA_1', name: rel.asset.name, label: null, state: 'uploaded', content_type: 'text/plain', size: rel.asset.bytes.length,
      digest: null, download_count: rel.asset.downloads, created_at: rel.created_at, updated_at: rel.created_at, uploader: this.user(rel.author),
    };
    return {
      url, html_url: `${this.web}releases/tag/${rel.tag}`, assets_url: `${url}/assets`, upload_url: `${url}/assets{?name,label}`,
      tarball_url: null, zipball_url: null, id: rel.id, node_id: 'RE_1', tag_name: rel.tag, target_commitish: 'main', name: rel.name,
      body: rel.body, draft: false, prerelease: false, created_at: rel.created_at, published_at: rel.created_at, author: this.user(rel.author), assets: [asset],
    };
  }

  topics(): S['topic'] { return { names: this.story.topics }; }
}
