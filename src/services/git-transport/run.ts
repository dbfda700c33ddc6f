import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Hearth } from '../../hearth';
import { installHooks, parseHookRequest } from '../../git/hooks';
import { spawnService } from '../../git/transport';
import { nodeTmpDir } from '../cluster/node-tmp';
import { finishPush } from '../repo/ref-intent';
import { refsMoved } from '../repo/refs-moved';
import { answerHook } from './hook-verdict';
import type { GitService, GitTarget } from './target';

export type GitSession = {
  service: GitService;
  target: GitTarget;
  /** HTTP: one request, one answer (--stateless-rpc); SSH: one conversation. */
  stateless: boolean;
  /** The client's GIT_PROTOCOL (version=2), passed on when git would accept it. */
  protocol?: string;
  input: Readable;
  output: Writable;
  /** git's own messages (SSH: the channel's stderr); dropped when absent. */
  errors?: Writable;
  /** Fires when the client went away: git is killed. */
  signal?: AbortSignal;
  requestId?: string;
  /** Bytes counted by the front end (its own metrics). */
  onBytes?: (direction: 'in' | 'out', bytes: number) => void;
};

/**
 * Runs one git service for a client, both front ends alike: a push goes through the pre-receive
 * verdict (protection rules, push intent) and, once git is done, the database follows the refs
 * (refs.moved: webhooks, feed, pull requests, Actions) before the client hears the push ended.
 * Answers git's exit code; the output is left open for the caller to end.
 */
/**
 * Several nodes (PostgreSQL): a push does not start git's automatic gc on whichever node took it;
 * repacks are the cron leader's git_gc_repos (`gc --auto`, daily by default there).
 */
const pushConfig = (h: Hearth): string[] => (h.config.database.driver === 'postgres' ? ['receive.autogc=false'] : []);

export async function runGitService(h: Hearth, s: GitSession): Promise<number> {
  const { service, target } = s;
  // A wiki push is no move of the repository's refs: no protection rules, no refs.moved.
  const pushing = service === 'receive-pack' && !target.wiki && target.pusher;
  const hookDir = pushing ? fs.mkdtempSync(path.join(nodeTmpDir(h), 'push-')) : null;
  const child = spawnService(service, target.dir, {
    protocol: s.protocol,
    stateless: s.stateless,
    env: hookDir ? { HEARTH_HOOK_DIR: hookDir } : {},
    // Written (when missing or changed) per push: a restore or a cleaned data directory may have
    // removed it, and a push without its hook would skip every protection rule.
    config: [...(hookDir ? [`core.hooksPath=${installHooks(h.config.server.data_dir)}`] : []), ...(service === 'receive-pack' ? pushConfig(h) : [])],
  });
  const hook = hookDir && target.pusher ? answerHook(h, target, target.pusher, hookDir, s.requestId) : null;
  const kill = () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); };
  s.signal?.addEventListener('abort', kill, { once: true });
  s.input.on('error', kill);
  if (s.onBytes) {
    s.input.on('data', (chunk: Buffer) => s.onBytes!('in', chunk.length));
    child.stdout!.on('data', (chunk: Buffer) => s.onBytes!('out', chunk.length));
  }
  s.input.pipe(child.stdin!);
  child.stdin!.on('error', () => { /* git stopped reading: it reports why on stdout */ });
  if (s.errors) child.stderr!.pipe(s.errors, { end: false });
  else child.stderr!.resume();
  child.stdout!.pipe(s.output, { end: false });
  const code = await new Promise<number>((resolve) => {
    child.on('error', () => resolve(128));
    child.on('close', (c) => resolve(c ?? 128));
  });
  s.signal?.removeEventListener('abort', kill);
  s.input.unpipe(child.stdin!);
  if (hookDir && hook) await afterPush(h, s, hookDir, await hook.stop());
  return code;
}

/** The database follows the refs that moved; what follows a push hangs on refs.moved. */
async function afterPush(h: Hearth, s: GitSession, hookDir: string, intent: number | null): Promise<void> {
  const request = path.join(hookDir, 'request');
  const updates = fs.existsSync(request) ? parseHookRequest(fs.readFileSync(request, 'utf8')).updates : [];
  fs.rmSync(hookDir, { recursive: true, force: true });
  const { access, dir, pusher } = s.target;
  await finishPush(h.db, intent, async () => {
    if (updates.length && pusher) await refsMoved(h.db, access.repo, pusher.user, dir, updates, 'push');
  }).catch((err: unknown) => h.log.error({ err, repo: access.repo.id, requestId: s.requestId }, 'sync after push failed'));
}

