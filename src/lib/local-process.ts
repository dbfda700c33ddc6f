import fs from 'node:fs';

// Whether a process id seen on this machine names a live process, and where such an id means
// anything: the pid lock (SQLite) and the node table (PostgreSQL) both judge a holder by it.

/** This boot of this machine (Linux): a pid written before a reboot names nobody now. */
export function readBootId(): string | null {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * Where this process's pid means something: this boot and this pid namespace (two containers
 * on one machine share the boot id but not their pids). '' where it cannot be told (not Linux):
 * then no pid read elsewhere is ever judged here.
 */
export function pidScope(): string {
  const boot = readBootId();
  let ns: string;
  try {
    ns = fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
  return boot ? `${boot}/${ns}` : '';
}

/** The process exists and is not a zombie (EPERM: it exists, owned by another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
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
