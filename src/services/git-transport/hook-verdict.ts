import fs from 'node:fs';
import path from 'node:path';
import type { Hearth } from '../../hearth';
import { parseHookRequest } from '../../git/hooks';
import { checkRefUpdates } from '../repo/push-rules';
import { recordAcceptedPush } from '../repo/ref-intent';
import type { GitPusher, GitTarget } from './target';

/**
 * Watches the per-push directory for the pre-receive hook's request and writes the verdict; an
 * accepted push is recorded as an intent first (push-intent). stop() answers the intent's id.
 */
export function answerHook(
  h: Hearth, target: GitTarget, pusher: GitPusher, hookDir: string, requestId?: string,
): { stop: () => Promise<number | null> } {
  let answered = false;
  let intent: number | null = null;
  let verdict: Promise<unknown> = Promise.resolve();
  const { access, dir } = target;
  const check = () => {
    if (answered || !fs.existsSync(path.join(hookDir, 'request'))) return;
    answered = true;
    const { quarantine, updates } = parseHookRequest(fs.readFileSync(path.join(hookDir, 'request'), 'utf8'));
    verdict = checkRefUpdates(h.db, access, pusher.user, dir, quarantine, updates, { deployKey: pusher.deployKey })
      .catch((err: unknown) => {
        h.log.error({ err, requestId }, 'pre-receive check failed');
        return 'internal error while checking the push';
      })
      .then(async (checked) => {
        let refusal = checked;
        if (!refusal) {
          intent = await recordAcceptedPush(h.db, access.repo.id, pusher.user.id, updates)
            .catch((err: unknown) => { h.log.error({ err, requestId }, 'recording the push failed'); return null; });
          if (intent === null) refusal = 'internal error while accepting the push';
        }
        if (refusal) fs.writeFileSync(path.join(hookDir, 'message'), `${refusal}\n`);
        fs.writeFileSync(path.join(hookDir, 'verdict.tmp'), refusal ? '1' : '0');
        fs.renameSync(path.join(hookDir, 'verdict.tmp'), path.join(hookDir, 'verdict'));
      })
      .catch(() => { /* push already finished */ });
  };
  const watcher = fs.watch(hookDir, check);
  const timer = setInterval(check, 100);
  return {
    stop: async () => {
      watcher.close();
      clearInterval(timer);
      await verdict;
      return intent;
    },
  };
}
