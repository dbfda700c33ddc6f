import type { Config } from '../config/schema';
import type { Reaction, User } from '../db/schema';
import { isoTime } from '../lib/time';
import { toApiUser, type ApiUser } from './user';

export type ApiReaction = { user: ApiUser; content: string; created_at: string };

export const toApiReaction = (config: Config, r: Reaction, user: User, viewer: User | null): ApiReaction => ({
  user: toApiUser(config, user, viewer),
  content: r.type,
  created_at: isoTime(r.created_unix),
});
