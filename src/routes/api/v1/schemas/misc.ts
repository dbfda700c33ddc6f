import * as z from 'zod';
import { bool, dateTime, freeObject, int, str } from './fields';
import { Repository } from './repos';

export const APIError = z.object({
  message: str,
  url: str,
}).partial();
export const ActivityPub = z.object({
  '@context': str,
}).partial();
export const Badge = z.object({
  description: str,
  id: int,
  image_url: str,
  slug: str,
}).partial();
export const Cron = z.object({
  exec_times: int,
  name: str,
  next: dateTime,
  prev: dateTime,
  schedule: str,
}).partial();
export const GeneralAPISettings = z.object({
  default_git_trees_per_page: int,
  default_max_blob_size: int,
  default_max_response_size: int,
  default_paging_num: int,
  max_response_items: int,
}).partial();
export const GeneralAttachmentSettings = z.object({
  allowed_types: str,
  enabled: bool,
  max_files: int,
  max_size: int,
}).partial();
export const GeneralRepoSettings = z.object({
  http_git_disabled: bool,
  lfs_disabled: bool,
  migrations_disabled: bool,
  mirrors_disabled: bool,
  stars_disabled: bool,
  time_tracking_disabled: bool,
}).partial();
export const GeneralUISettings = z.object({
  allowed_reactions: z.array(str),
  custom_emojis: z.array(str),
  default_theme: str,
}).partial();
export const GitignoreTemplateInfo = z.object({
  name: str,
  source: str,
}).partial();
export const LabelTemplate = z.object({
  color: str,
  description: str,
  exclusive: bool,
  name: str,
}).partial();
export const LicenseTemplateInfo = z.object({
  body: str,
  implementation: str,
  key: str,
  name: str,
  url: str,
}).partial();
export const LicensesTemplateListEntry = z.object({
  key: str,
  name: str,
  url: str,
}).partial();
export const MarkdownOption = z.object({
  Context: str,
  Mode: str,
  Text: str,
  Wiki: bool,
}).partial();
export const MarkupOption = z.object({
  Context: str,
  FilePath: str,
  Mode: str,
  Text: str,
  Wiki: bool,
}).partial();
export const NodeInfoServices = z.object({
  inbound: z.array(str),
  outbound: z.array(str),
}).partial();
export const NodeInfoSoftware = z.object({
  homepage: str,
  name: str,
  repository: str,
  version: str,
}).partial();
export const NodeInfoUsageUsers = z.object({
  activeHalfyear: int,
  activeMonth: int,
  total: int,
}).partial();
export const NodeInfoUsage = z.object({
  localComments: int,
  localPosts: int,
  users: NodeInfoUsageUsers,
}).partial();
export const NodeInfo = z.object({
  metadata: freeObject,
  openRegistrations: bool,
  protocols: z.array(str),
  services: NodeInfoServices,
  software: NodeInfoSoftware,
  usage: NodeInfoUsage,
  version: str,
}).partial();
export const SearchResults = z.object({
  data: z.array(Repository),
  ok: bool,
}).partial();
export const ServerVersion = z.object({
  version: str,
}).partial();
export const TopicName = z.object({
  topics: z.array(str),
}).partial();
export const TopicResponse = z.object({
  created: dateTime,
  id: int,
  repo_count: int,
  topic_name: str,
  updated: dateTime,
}).partial();
