import { getRepoById } from '../../../models/repo';
import { MAX_TOPICS, sanitizeTopics, saveTopics } from '../../repo/topics';
import type { ImportContext } from './context';

// Topics (Gitea's GetTopics / CreateTopics): the source's valid names, at most the limit here.

export async function importTopics(ctx: ImportContext): Promise<number> {
  const { valid, invalid } = sanitizeTopics(await ctx.source.getTopics());
  if (invalid.length) ctx.log.warn({ repo: ctx.repo.id, invalid }, 'migration: invalid topics left out');
  const topics = valid.slice(0, MAX_TOPICS);
  if (!topics.length) return 0;
  const repo = (await getRepoById(ctx.db, ctx.repo.id)) ?? ctx.repo;
  await saveTopics(ctx.db, repo, topics);
  ctx.log.info({ repo: ctx.repo.id, topics: topics.length }, 'migration: topics imported');
  return topics.length;
}
