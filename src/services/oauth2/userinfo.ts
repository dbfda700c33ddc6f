import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { avatarUrl } from '../../convert/user';
import { listTeamsOfUser } from '../../models/team';
import { listOrgsOf } from '../org/orgs';
import type { OAuth2Caller } from './tokens';

// /login/oauth/userinfo (OpenID Connect's UserInfo), as Gitea answers it: the user's id, names,
// e-mail and avatar, and `groups`: each organization, and `org:team` for each of its teams the
// user is in (public organizations only when the grant is public-only).

export type UserInfo = { sub: string; name: string; preferred_username: string; email: string; picture: string; groups: string[] };

async function groupsOf(db: DB, user: User, publicOnly: boolean): Promise<string[]> {
  const { orgs } = await listOrgsOf(db, user, user, publicOnly, { offset: 0, limit: 1000 });
  const names = new Map(orgs.map((o) => [o.id, o.name]));
  const { teams } = await listTeamsOfUser(db, user.id, 0, 5000);
  const groups: string[] = [];
  for (const org of orgs) {
    groups.push(org.name);
    for (const t of teams) if (t.org_id === org.id) groups.push(`${names.get(org.id)}:${t.lower_name}`);
  }
  return groups;
}

export async function userInfo(db: DB, config: Config, caller: OAuth2Caller): Promise<UserInfo> {
  const { user } = caller;
  return {
    sub: String(user.id), name: user.full_name || user.name, preferred_username: user.name, email: user.email,
    picture: avatarUrl(config, user), groups: await groupsOf(db, user, caller.scopes.publicOnly),
  };
}
