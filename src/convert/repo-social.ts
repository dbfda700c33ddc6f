import type { Config } from '../config/schema';
import type { Team, User } from '../db/schema';
import { isoTime } from '../lib/time';
import type { TopicRow } from '../models/topic';
import { accessName } from '../services/permissions';
import type { PendingTransfer } from '../services/repo/transfer';
import { repoUrls } from './repo';
import { toApiUser } from './user';

/** WatchInfo of a subscribed caller. */
export function toWatchInfo(config: Config, ownerName: string, repoName: string, sinceUnix: number) {
  const { url } = repoUrls(config, ownerName, repoName);
  return {
    subscribed: true, ignored: false, reason: null, created_at: isoTime(sinceUnix),
    url: `${url}/subscription`, repository_url: url,
  };
}

export function toTopicResponse(t: TopicRow) {
  return { id: t.id, topic_name: t.name, repo_count: t.repo_count, created: isoTime(t.created_unix), updated: isoTime(t.updated_unix) };
}

/** RepoCollaboratorPermission: Gitea sends the mode's name as both permission and role. */
export function toCollaboratorPermission(config: Config, user: User, mode: number, viewer: User | null) {
  const name = accessName(mode);
  return { permission: name, role_name: name, user: toApiUser(config, user, viewer) };
}

const UNIT_NAMES = ['repo.code', 'repo.issues', 'repo.ext_issues', 'repo.wiki', 'repo.pulls', 'repo.releases', 'repo.projects', 'repo.ext_wiki'];

/** A team as a pending transfer lists it (without its organization, as Gitea's ToTeams without loading). */
function toTransferTeam(team: Team) {
  const permission = accessName(team.authorize);
  return {
    id: team.id, name: team.name, description: team.description, organization: null,
    includes_all_repositories: team.includes_all_repositories === 1, permission,
    units: UNIT_NAMES, units_map: Object.fromEntries(UNIT_NAMES.map((u) => [u, permission])),
    can_create_org_repo: team.can_create_org_repo === 1,
  };
}

export function toApiRepoTransfer(config: Config, t: PendingTransfer, viewer: User | null) {
  return {
    doer: toApiUser(config, t.doer, viewer),
    recipient: toApiUser(config, t.recipient, viewer),
    teams: t.teams.map(toTransferTeam),
  };
}
