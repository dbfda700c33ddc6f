// `[actions] embedded_runner = true`: the server runs hearth's runner in-process, labelled
// `hearth`, for a one-machine setup. It registers once with an instance registration token made
// directly (no HTTP round trip for the token), keeps its registration in the data directory, and
// talks to this server over loopback like any runner. Jobs run on this host as the server's user.

import fs from 'node:fs';
import path from 'node:path';
import type { Hearth } from '../../hearth';
import type { RunningRunner } from '../../runner/daemon';
import { readRunnerFile, writeRunnerFile, type RunnerFile } from '../../runner/runner-file';
import { registrationToken } from './registration-tokens';

export const EMBEDDED_RUNNER_LABELS = ['hearth'];
const NAME = 'hearth-embedded';

async function registration(hearth: Hearth, file: string, localUrl: string, fresh: boolean): Promise<RunnerFile> {
  if (!fresh && fs.existsSync(file)) {
    try {
      return readRunnerFile(file);
    } catch {
      /* unreadable: register again */
    }
  }
  const token = await registrationToken(hearth.db, { ownerId: 0, repoId: 0 });
  const { registerRunner } = await import('../../runner/client');
  const runner = await registerRunner(localUrl, token.token, NAME, EMBEDDED_RUNNER_LABELS);
  const reg: RunnerFile = {
    id: Number(runner.id), uuid: runner.uuid, name: runner.name || NAME, token: runner.token,
    address: localUrl, labels: EMBEDDED_RUNNER_LABELS, ephemeral: false,
  };
  writeRunnerFile(file, reg);
  return reg;
}

/** Starts the embedded runner when configured; null otherwise. `localUrl` is this server on loopback. */
export async function startEmbeddedRunner(hearth: Hearth, localUrl: string): Promise<RunningRunner | null> {
  const { config, log } = hearth;
  if (!config.actions.enabled || !config.actions.embedded_runner) return null;
  const dir = path.join(config.server.data_dir, 'actions-runner');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, '.runner');
  // The runner and its protocol client load only when it is configured.
  const { startRunner } = await import('../../runner/daemon');
  const start = (reg: RunnerFile) => startRunner({
    instance: localUrl, uuid: reg.uuid, token: reg.token, name: reg.name, labels: EMBEDDED_RUNNER_LABELS,
    workDir: path.join(dir, 'work'),
    log: (msg, fields) => log.debug({ ...fields, runner: reg.name }, `embedded runner: ${msg}`),
  });
  try {
    try {
      return await start(await registration(hearth, file, localUrl, false));
    } catch {
      // the stored registration was refused (runner deleted by an admin): register anew
      return await start(await registration(hearth, file, localUrl, true));
    }
  } catch (err) {
    log.error({ err }, 'the embedded Actions runner could not start');
    return null;
  }
}
