import * as z from 'zod';
import { extension } from '../../../validate';
import { bool, dateTime, email, int, str } from './fields';

export const AccessToken = z.object({
  created_at: dateTime,
  id: int,
  last_used_at: dateTime,
  name: str,
  scopes: z.array(str),
  sha1: str,
  token_last_eight: str,
}).partial();
export const Email = z.object({
  email: email,
  primary: bool,
  user_id: int,
  username: str,
  verified: bool,
}).partial();
export const GPGKeyEmail = z.object({
  email: str,
  verified: bool,
}).partial();
export const GPGKey = z.object({
  can_certify: bool,
  can_encrypt_comms: bool,
  can_encrypt_storage: bool,
  can_sign: bool,
  created_at: dateTime,
  emails: z.array(GPGKeyEmail),
  expires_at: dateTime,
  id: int,
  key_id: str,
  primary_key_id: str,
  public_key: str,
  get subkeys(): z.ZodOptional<z.ZodArray<typeof GPGKey>> { return z.array(GPGKey).optional(); },
  verified: bool,
}).partial();
export const NotifySubjectType = z.string();
export const OAuth2Application = z.object({
  client_id: str,
  client_secret: str,
  confidential_client: bool,
  created: dateTime,
  id: int,
  name: str,
  redirect_uris: z.array(str),
  skip_secondary_authorization: bool,
}).partial();
export const Organization = z.object({
  avatar_url: str,
  description: str,
  email: str,
  full_name: str,
  id: int,
  location: str,
  name: str,
  repo_admin_change_team_access: bool,
  username: str,
  visibility: str,
  website: str,
}).partial();
export const OrganizationPermissions = z.object({
  can_create_repository: bool,
  can_read: bool,
  can_write: bool,
  is_admin: bool,
  is_owner: bool,
}).partial();
export const User = z.object({
  active: bool,
  avatar_url: str,
  created: dateTime,
  description: str,
  email: email,
  followers_count: int,
  following_count: int,
  full_name: str,
  html_url: str,
  id: int,
  is_admin: bool,
  language: str,
  last_login: dateTime,
  location: str,
  login: str,
  login_name: str,
  prohibit_login: bool,
  restricted: bool,
  source_id: int,
  starred_repos_count: int,
  visibility: str,
  website: str,
  /** The login again, as Gitea's JSON has it (its swagger leaves it out). */
  username: extension(z.string()),
}).partial();
export const PublicKey = z.object({
  created_at: dateTime,
  fingerprint: str,
  id: int,
  key: str,
  key_type: str,
  last_used_at: dateTime,
  read_only: bool,
  title: str,
  url: str,
  user: User,
}).partial();
export const Secret = z.object({
  created_at: dateTime,
  description: str,
  name: str,
}).partial();
export const StateType = z.string();
export const Team = z.object({
  can_create_org_repo: bool,
  description: str,
  id: int,
  includes_all_repositories: bool,
  name: str,
  organization: Organization.nullable(),
  permission: z.enum(['none','read','write','admin','owner']),
  units: z.array(str),
  units_map: z.record(z.string(), str),
}).partial();
export const TimeStamp = z.int();
export const UserHeatmapData = z.object({
  contributions: int,
  timestamp: TimeStamp,
}).partial();
export const UserSettings = z.object({
  description: str,
  diff_view_style: str,
  full_name: str,
  hide_activity: bool,
  hide_email: bool,
  language: str,
  location: str,
  theme: str,
  website: str,
}).partial();
