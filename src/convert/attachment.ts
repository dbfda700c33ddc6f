import type { Config } from '../config/schema';
import type { Attachment } from '../db/schema';
import { isoTime } from '../lib/time';

export type ApiAttachment = {
  id: number; name: string; size: number; download_count: number; created_at: string; uuid: string; browser_download_url: string;
};

/** Gitea's ToAPIAttachment: the download URL is served outside the API, at /attachments/{uuid}. */
export const toApiAttachment = (config: Config, a: Attachment): ApiAttachment => ({
  id: a.id,
  name: a.name,
  size: a.size,
  download_count: a.download_count,
  created_at: isoTime(a.created_unix),
  uuid: a.uuid,
  browser_download_url: `${config.server.root_url}attachments/${a.uuid}`,
});
