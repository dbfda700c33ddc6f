import { as, createUser, json, type TestServer } from './server';

// Small builders shared by the issue dependency, pin, time, subscription and timeline tests.

import type { Creds } from './gitea-fixtures';

export type { Creds };

export { as };

export function issueApi(s: TestServer) {
  const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${path}`, init);
  return {
    api,
    async makeRepo(owner: Creds, name: string, extra: Record<string, unknown> = {}): Promise<void> {
      const res = await api('user/repos', { method: 'POST', auth: as(owner), json: { name, ...extra } });
      if (res.status !== 201) throw new Error(`repo ${name}: ${res.status} ${await res.text()}`);
    },
    async collaborator(owner: Creds, repo: string, user: Creds, permission: string): Promise<void> {
      const res = await api(`repos/${owner.username}/${repo}/collaborators/${user.username}`, { method: 'PUT', auth: as(owner), json: { permission } });
      if (res.status !== 204) throw new Error(`collaborator: ${res.status}`);
    },
    async issue(who: Creds, repoPath: string, title: string): Promise<number> {
      const res = await api(`repos/${repoPath}/issues`, { method: 'POST', auth: as(who), json: { title } });
      if (res.status !== 201) throw new Error(`issue: ${res.status} ${await res.text()}`);
      return (await json(res)).number as number;
    },
    async tracker(owner: Creds, repo: string, tracker: Record<string, boolean>): Promise<void> {
      const res = await api(`repos/${owner.username}/${repo}`, {
        method: 'PATCH', auth: as(owner),
        json: { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true, ...tracker } },
      });
      if (res.status !== 200) throw new Error(`tracker: ${res.status} ${await res.text()}`);
    },
  };
}

export { createUser, json };
