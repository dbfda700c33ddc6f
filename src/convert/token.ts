import type { AccessToken } from '../db/schema';
import { isoTime } from '../lib/time';

/** The plain token (`sha1`) is only known, and shown, right after creation. */
export const toApiToken = (token: AccessToken, plain = '') => ({
  id: token.id,
  name: token.name,
  sha1: plain,
  token_last_eight: token.token_last_eight,
  scopes: token.scope ? token.scope.split(',') : [],
  created_at: isoTime(token.created_unix),
  last_used_at: isoTime(token.updated_unix),
});
