// `[actions] embedded_runner = true`: the server runs hearth's runner in-process, labelled
// `hearth`, for a one-machine setup. It registers once with an instance registration token made
// directly (no HTTP round trip for the token), keeps its registration in the data directory, and
// talks to this server over loopback like any runner. Jobs run on this host as the server's user.
// With several nodes on one PostgreSQL (and one shared data directory) each node is a runner of
// its own: its registration, name and work directory are its host's and port's, so two nodes
// never poll as one runner (stealing each other's task reports, overwriting its last-seen).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dialectOf } from '../../db/dialect';
import type { Hearth } from '../../hearth';
import type { RunningRunner } from '../../runner/daemon';
import { nowUnix } from '../../lib/time';
import { getRunnerByUuid, runnersWithRunningTask, softDeleteRunner } from '../../models/actions-runners';
import { readRunnerFile, writeRunnerFile, type RunnerFile } from '../../runner/runner-file';
import { registrationToken } from './registration-tokens';
import { RUNNER_OFFLINE_SECONDS } from './runners';

export const EMBEDDED_RUNNER_LABELS = ['hearth'];
const NAME = 'hearth-embedded';

/** Where a node keeps its runner and what the runner is called. */
type Identity = { dir: string; name: string };

/**
 * One node alone (SQLite): <data>/actions-runner, as before. A cluster node: a directory and name
 * of its host and listening port, stable across its restarts (two nodes on one host cannot share
 * a port), so a restarted node takes its own registration back rather than another node's.
 */
const runnersRoot = (hearth: Pick<Hearth, 'config'>) => path.join(hearth.config.server.data_dir, 'actions-runner');

export function embeddedRunnerIdentity(hearth: Pick<Hearth, 'config' | 'db'>, localUrl: string): Identity {
  const root = runnersRoot(hearth);
  if (dialectOf(hearth.db).engine !== 'postgres') return { dir: root, name: NAME };
  const node = `${os.hostname()}-${new URL(localUrl).port}`.replace(/[^A-Za-z0-9._-]/g, '_');
  return { dir: path.join(root, 'nodes', node), name: `${NAME}-${node}` };
}

async function registration(hearth: Hearth, file: string, localUrl: string, name: string, fresh: boolean): Promise<RunnerFile> {
  if (!fresh && fs.existsSync(file)) {
    try {
      return readRunnerFile(file);
    } catch {
      /* unreadable: register again */
    }
  }
  const token = await registrationToken(hearth.db, { ownerId: 0, repoId: 0 });
  const { registerRunner } = await import('../../runner/client');
  const runner = await registerRunner(localUrl, token.token, name, EMBEDDED_RUNNER_LABELS);
  const reg: RunnerFile = {
    id: Number(runner.id), uuid: runner.uuid, name: runner.name || name, token: runner.token,
    address: localUrl, labels: EMBEDDED_RUNNER_LABELS, ephemeral: false,
  };
  writeRunnerFile(file, reg);
  return reg;
}

/**
 * A cluster node's start after a move from one node (`admin db copy` from SQLite, or an earlier
 * version on PostgreSQL): the one-node runner registered in <data>/actions-runner/.runner no longer
 * polls (each node runs its own), and its row would stay in the runner lists, offline, for good.
 * It is deleted once offline and idle (a node of the earlier version still running it keeps it),
 * and its registration file goes with it.
 */
async function retireOneNodeRunner(hearth: Hearth, root: string): Promise<void> {
  const file = path.join(root, '.runner');
  if (!fs.existsSync(file)) return;
  let reg: RunnerFile;
  try { reg = readRunnerFile(file); } catch { return; }
  const row = await getRunnerByUuid(hearth.db, reg.uuid);
  if (row && row.name !== NAME) return;
  if (row) {
    const offline = nowUnix() - row.last_online_unix > RUNNER_OFFLINE_SECONDS;
    if (!offline || (await runnersWithRunningTask(hearth.db, [row.id])).has(row.id)) return;
    await softDeleteRunner(hearth.db, row.id, nowUnix());
    hearth.log.info({ runner: row.name, id: row.id }, 'the one-node embedded runner, replaced by one per node, was removed');
  }
  fs.rmSync(file, { force: true });
}

/** Starts the embedded runner when configured; null otherwise. `localUrl` is this server on loopback. */
export async function startEmbeddedRunner(hearth: Hearth, localUrl: string): Promise<RunningRunner | null> {
  const { config, log } = hearth;
  if (!config.actions.enabled || !config.actions.embedded_runner) return null;
  const { dir, name } = embeddedRunnerIdentity(hearth, localUrl);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (name !== NAME) await retireOneNodeRunner(hearth, runnersRoot(hearth)).catch((err: unknown) => log.warn({ err }, 'the one-node embedded runner could not be retired'));
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
      return await start(await registration(hearth, file, localUrl, name, false));
    } catch {
      // the stored registration was refused (runner deleted by an admin): register anew
      return await start(await registration(hearth, file, localUrl, name, true));
    }
  } catch (err) {
    log.error({ err }, 'the embedded Actions runner could not start');
    return null;
  }
}
