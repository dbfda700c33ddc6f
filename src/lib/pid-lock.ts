import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive, readBootId } from './local-process';

/** Another live process holds the lock: two servers on one data directory would corrupt it. */
export class PidLockHeldError extends Error {
  constructor(readonly file: string, readonly pid: number, readonly host?: string) {
    super(host
      ? `${path.dirname(file)} is in use by hearth pid ${pid} on host ${host}: a lock written by another host is never `
        + `taken over (on a shared file system that is another live node); stop that node first, or remove ${file} if it is gone`
      : `${path.dirname(file)} is in use by another hearth (pid ${pid}): stop it first, `
        + `or remove ${file} if that process is not hearth`);
  }
}

/** `takenOver`: a lock left by a process that did not stop cleanly (killed, power lost) was taken. */
export type PidLock = { file: string; release: () => void; takenOver: boolean };

/** Whose lock: `pid@host` on its first line, the host's boot id on its second (older locks hold the pid alone). */
type Owner = { pid: number; host: string | null; bootId: string | null };

const held = new Set<string>();
let exitHookInstalled = false;

const hostName = () => os.hostname();

/**
 * Takes `file` for this process. The owner is written to a private file first and hard-linked
 * into place, so the lock never exists empty (a reader would not know whose it is) and
 * link() fails with EEXIST exactly when another holder exists. A lock of this host whose process
 * is gone (killed, or from before a reboot) is taken over; one written by another host is not:
 * its pid means nothing here, and on a shared file system that host may well be alive.
 */
export function acquirePidLock(file: string): PidLock {
  const tmp = `${file}.${process.pid}.tmp`;
  const bootId = readBootId();
  fs.writeFileSync(tmp, `${process.pid}@${hostName()}\n${bootId ?? ''}\n`);
  let takenOver = false;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(tmp, file);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
      }
      const owner = readOwner(file);
      if (owner !== null && owner.host !== null && owner.host !== hostName()) throw new PidLockHeldError(file, owner.pid, owner.host);
      const sameBoot = owner?.bootId == null || bootId === null || owner.bootId === bootId;
      if (owner !== null && sameBoot && isAlive(owner.pid)) throw new PidLockHeldError(file, owner.pid);
      // Re-read just before removing: a process that took it over meanwhile keeps it.
      if (readOwner(file)?.pid === owner?.pid) fs.rmSync(file, { force: true });
      takenOver = true;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  held.add(file);
  installExitHook();
  return { file, release: () => releasePidLock(file), takenOver };
}

/** Removes the lock if it is still ours (never another process's). */
function releasePidLock(file: string): void {
  if (!held.delete(file)) return;
  const owner = readOwner(file);
  if (owner?.pid === process.pid && (owner.host === null || owner.host === hostName())) fs.rmSync(file, { force: true });
}

/** A process exiting without a clean shutdown (process.exit, a fatal error) leaves no lock. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => { for (const file of [...held]) releasePidLock(file); });
}

function readOwner(file: string): Owner | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const [first = '', second = ''] = text.split('\n');
  const m = /^(\d+)(?:@(.+))?$/.exec(first.trim());
  if (!m) return null;
  const pid = Number(m[1]);
  return pid > 0 ? { pid, host: m[2] ?? null, bootId: second.trim() || null } : null;
}

/**
 * mkdir -p that stops at the first failure with its own code (EACCES, EROFS, ENOTDIR):
 * Node's recursive mkdir never returns on some paths (under /proc).
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const d of missing) {
    try {
      fs.mkdirSync(d);
    } catch (err) {
      // Another node starting on the same shared directory may make it between the check and
      // here; what is there is checked below.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if (!fs.statSync(dir).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, '${dir}'`), { code: 'ENOTDIR', path: dir, syscall: 'mkdir' });
  }
}
