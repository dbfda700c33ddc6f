import fs from 'node:fs';
import type { Config } from '../../config/schema';
import type { Repository } from '../../db/schema';
import { git } from '../../git/exec';
import type { Logger } from '../../lib/logger';
import { ensureWiki, wikiDir } from '../wiki/wiki-repo';
import type { CheckedRemote } from './remote-address';
import { remoteGit, remoteHead, type RemoteAuth } from './remote-git';

// `wiki: true`: the source's wiki comes along, as Gitea's MigrateRepositoryGitData does: the
// address with `.wiki.git` in place of `.git`, skipped (with a warning) when the source has none
// or it cannot be fetched; the repository itself is migrated all the same.

/** Gitea's WikiRemoteURL candidate: `.../repo(.git)` becomes `.../repo.wiki.git`. */
export function wikiAddress(address: string): string {
  const trimmed = address.replace(/\/+$/, '');
  return `${trimmed.endsWith('.git') ? trimmed.slice(0, -4) : trimmed}.wiki.git`;
}

export type WikiMigration = {
  config: Config; log: Logger; remote: CheckedRemote; auth: RemoteAuth; ownerName: string; repo: Repository; signal: AbortSignal;
};

export async function migrateWiki(m: WikiMigration): Promise<void> {
  const remote = { ...m.remote, address: wikiAddress(m.remote.address) };
  let head: string | null;
  try {
    head = await remoteHead(remote, m.auth, m.signal);
  } catch {
    m.log.info({ repo: m.repo.id }, 'migration: the source has no wiki');
    return;
  }
  const dir = await ensureWiki(m.config, m.ownerName, m.repo);
  try {
    await remoteGit(remote, m.auth, ['fetch', '--prune', '--no-write-fetch-head'], ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { gitDir: dir, signal: m.signal });
    if (head) await git(['symbolic-ref', 'HEAD', `refs/heads/${head}`], { gitDir: dir });
  } catch (err) {
    if (m.signal.aborted) throw err;
    m.log.warn({ repo: m.repo.id, err: (err as Error).message }, 'migration: cloning the wiki failed');
    fs.rmSync(wikiDir(m.config, m.ownerName, m.repo.name), { recursive: true, force: true });
  }
}

/**
 * A pull mirror's sync: its wiki, when it has one (migrated with `wiki: true`), follows the
 * source's as Gitea's mirror sync does; a failure leaves the wiki as it was.
 */
export async function syncMirrorWiki(
  config: Config, remote: CheckedRemote, auth: RemoteAuth, ownerName: string, repo: Repository, signal: AbortSignal,
): Promise<boolean> {
  const dir = wikiDir(config, ownerName, repo.name);
  if (!fs.existsSync(dir)) return false;
  const from = { ...remote, address: wikiAddress(remote.address) };
  try {
    await remoteGit(from, auth, ['fetch', '--prune', '--no-write-fetch-head'], ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { gitDir: dir, signal });
    return true;
  } catch {
    return false;
  }
}
