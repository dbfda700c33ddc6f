import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Times are unix seconds, as Gitea stores them; convert/ renders ISO 8601.

export type UserType = 0 | 1; // 0 individual, 1 organization
export type Visibility = 0 | 1 | 2; // public, limited, private

export interface UserTable {
  id: Generated<number>;
  lower_name: string;
  name: string;
  full_name: Generated<string>;
  email: string;
  keep_email_private: Generated<number>;
  passwd: Generated<string>;
  passwd_hash_algo: Generated<string>;
  must_change_password: Generated<number>;
  login_source: Generated<number>;
  login_name: Generated<string>;
  type: Generated<number>;
  location: Generated<string>;
  website: Generated<string>;
  description: Generated<string>;
  language: Generated<string>;
  theme: Generated<string>;
  diff_view_style: Generated<string>;
  is_active: Generated<number>;
  is_admin: Generated<number>;
  is_restricted: Generated<number>;
  prohibit_login: Generated<number>;
  allow_git_hook: Generated<number>;
  allow_import_local: Generated<number>;
  allow_create_organization: Generated<number>;
  hide_activity: Generated<number>;
  visibility: Generated<number>;
  max_repo_creation: Generated<number>;
  num_followers: Generated<number>;
  num_following: Generated<number>;
  num_stars: Generated<number>;
  num_repos: Generated<number>;
  created_unix: number;
  updated_unix: number;
  last_login_unix: Generated<number>;
}

export interface EmailAddressTable {
  id: Generated<number>;
  uid: number;
  email: string;
  lower_email: string;
  is_activated: Generated<number>;
  is_primary: Generated<number>;
}

export interface AccessTokenTable {
  id: Generated<number>;
  uid: number;
  name: string;
  token_hash: string;
  token_last_eight: string;
  scope: string;
  created_unix: number;
  updated_unix: number;
}

export interface Database {
  user: UserTable;
  email_address: EmailAddressTable;
  access_token: AccessTokenTable;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type EmailAddress = Selectable<EmailAddressTable>;
export type AccessToken = Selectable<AccessTokenTable>;
