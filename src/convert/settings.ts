import type { Config } from '../config/schema';

export const toApiSettings = (config: Config) => ({
  api: {
    default_paging_num: config.api.default_paging_num,
    max_response_items: config.api.max_response_items,
    default_git_trees_per_page: config.api.default_git_trees_per_page,
    default_max_blob_size: config.api.default_max_blob_size,
    default_max_response_size: config.api.default_max_response_size,
  },
  attachment: {
    enabled: config.attachment.enabled,
    allowed_types: config.attachment.allowed_types,
    max_size: config.attachment.max_size,
    max_files: config.attachment.max_files,
  },
  repository: {
    mirrors_disabled: config.repository.disable_mirrors,
    http_git_disabled: config.repository.disable_http_git,
    migrations_disabled: config.repository.disable_migrations,
    stars_disabled: config.repository.disable_stars,
    time_tracking_disabled: !config.repository.enable_time_tracking,
    lfs_disabled: !config.server.lfs_start_server,
  },
  ui: {
    default_theme: config.ui.default_theme,
    allowed_reactions: config.ui.reactions,
    custom_emojis: config.ui.custom_emojis,
  },
});
