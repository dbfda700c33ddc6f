import type { DB } from '../../db/connect';
import type { Repository } from '../../db/schema';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { getRepoById, updateRepo } from '../../models/repo';
import { searchTopics, touchTopics, type TopicRow } from '../../models/topic';
import { topicsOf } from './repo-settings';

export const MAX_TOPICS = 25;
const TOPIC = /^[a-z0-9][-.a-z0-9]*$/;

/** Gitea's 422 for topics: the body names the offending topics (`invalidTopics`). */
export class InvalidTopicsError extends InvalidError {
  constructor(message: string, readonly invalidTopics: string[] | string | null) {
    super(message, 'topics');
  }
}

export const isValidTopic = (t: string) => t.length <= 35 && TOPIC.test(t);

/** Lower-cased, trimmed, de-duplicated; empty names dropped (Gitea's SanitizeAndValidateTopics). */
export function sanitizeTopics(names: string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of names) {
    const t = raw.trim().toLowerCase();
    if (!t || valid.includes(t)) continue;
    (isValidTopic(t) ? valid : invalid).push(t);
  }
  return { valid, invalid };
}

/** Writes the repository's topic list (and registers the names) in one transaction. */
export async function saveTopics(db: DB, repo: Repository, topics: string[]): Promise<Repository> {
  return db.transaction().execute(async (trx) => {
    await touchTopics(trx, topics, nowUnix());
    await updateRepo(trx, repo.id, { topics: JSON.stringify(topics) });
    return (await getRepoById(trx, repo.id))!;
  });
}

/** PUT /repos/{owner}/{repo}/topics: replaces the whole list. */
export async function replaceTopics(db: DB, repo: Repository, names: string[]): Promise<void> {
  const { valid, invalid } = sanitizeTopics(names);
  if (valid.length > MAX_TOPICS) throw new InvalidTopicsError('Exceeding maximum number of topics per repo', null);
  if (invalid.length) throw new InvalidTopicsError('Topic names are invalid', invalid);
  await saveTopics(db, repo, valid);
}

const normalise = (name: string) => name.trim().toLowerCase();

export async function addTopic(db: DB, repo: Repository, name: string): Promise<void> {
  const topic = normalise(name);
  if (!isValidTopic(topic)) throw new InvalidTopicsError('Topic name is invalid', topic);
  const current = topicsOf(repo);
  if (current.includes(topic)) return;
  if (current.length >= MAX_TOPICS) throw new InvalidTopicsError('Exceeding maximum allowed topics per repo.', null);
  await saveTopics(db, repo, [...current, topic]);
}

export async function removeTopic(db: DB, repo: Repository, name: string): Promise<void> {
  const topic = normalise(name);
  if (!isValidTopic(topic)) throw new InvalidTopicsError('Topic name is invalid', topic);
  const current = topicsOf(repo);
  if (!current.includes(topic)) throw new NotFoundError();
  await saveTopics(db, repo, current.filter((t) => t !== topic));
}

/** A page of the repository's topics, by name. */
export function pageOfTopics(repo: Repository, page: { offset: number; limit: number }): { topics: string[]; total: number } {
  const all = [...topicsOf(repo)].sort();
  return { topics: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

export async function findTopics(db: DB, keyword: string, page: { offset: number; limit: number }): Promise<{ topics: TopicRow[]; total: number }> {
  return searchTopics(db, keyword.trim(), page.offset, page.limit);
}
