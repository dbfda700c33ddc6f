import fs from 'node:fs';
import path from 'node:path';

/** Another live process holds the lock: two servers on one data directory would corrupt it. */
export class PidLockHeldError extends Error {
  constructor(readonly file: string, readonly pid: number) {
    super(`${path.dirname(file)} is in use by another hearth (pid ${pid}): stop it first, `
      + `or remove ${file} if that process is not hearth`);
  }
}

/** `takenOver`: a lock left by a process that did not stop cleanly (killed, power lost) was taken. */
export type PidLock = { file: string; release: () => void; takenOver: boolean };

const held = new Set<string>();
let exitHookInstalled = false;

/**
 * Takes `file` for this process. The pid is written to a private file first and hard-linked
 * into place, so the lock never exists empty (a reader would not know whose it is) and
 * link() fails with EEXIST exactly when another holder exists. A lock whose process is gone
 * (killed, crashed machine) is taken over.
 */
export function acquirePidLock(file: string): PidLock {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${process.pid}\n`);
  let takenOver = false;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(tmp, file);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
      }
      const owner = readPid(file);
      if (owner !== null && isAlive(owner)) throw new PidLockHeldError(file, owner);
      // Re-read just before removing: a process that took it over meanwhile keeps it.
      if (readPid(file) === owner) fs.rmSync(file, { force: true });
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
  if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
}

/** A process exiting without a clean shutdown (process.exit, a fatal error) leaves no lock. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => { for (const file of [...held]) releasePidLock(file); });
}

function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A killed process whose parent never reaps it (an orphan under a container's init that does
 * not wait) stays a zombie: it answers kill(pid, 0) but holds nothing. CI met one: a server
 * killed with SIGKILL kept its stale lock from being taken over. Linux only; elsewhere false.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
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
  for (const d of missing) fs.mkdirSync(d);
  if (!fs.statSync(dir).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, '${dir}'`), { code: 'ENOTDIR', path: dir, syscall: 'mkdir' });
  }
}
