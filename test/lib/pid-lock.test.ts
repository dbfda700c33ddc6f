import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { acquirePidLock, makeDirectory, PidLockHeldError } from '../../src/lib/pid-lock';

// The data-directory lock: a live holder refuses, a dead one is taken over; a lock of another
// host (or of this host before its reboot) is judged by its host and boot id, not its pid alone.

const bootId = () => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
const mine = () => `${process.pid}@${os.hostname()}`;

const tmpFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-lock-')), 'hearth.pid');

describe('pid lock', () => {
  it('refuses while a live process holds it, and is released', () => {
    const file = tmpFile();
    fs.writeFileSync(file, `${process.ppid}\n`);
    expect(() => acquirePidLock(file)).toThrow(PidLockHeldError);
    fs.rmSync(file);
    const lock = acquirePidLock(file);
    expect(fs.readFileSync(file, 'utf8').split('\n')[0]).toBe(mine());
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')('takes over a lock whose process is a zombie (bug: CI saw a SIGKILLed server never reaped, and the restart refused)', async () => {
    // `sh` forks `sleep 0`, then becomes `sleep 5`, which never waits: the child stays a zombie.
    const holder = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number((await new Promise<Buffer>((r) => holder.stdout!.once('data', r))).toString().trim());
      for (let i = 0; i < 100 && !/\) Z/.test(fs.readFileSync(`/proc/${zombie}/stat`, 'utf8')); i++) await new Promise((r) => setTimeout(r, 20));
      expect(fs.readFileSync(`/proc/${zombie}/stat`, 'utf8')).toMatch(/\) Z /);
      expect(() => process.kill(zombie, 0)).not.toThrow();
      const file = tmpFile();
      fs.writeFileSync(file, `${zombie}\n`);
      const lock = acquirePidLock(file);
      expect(fs.readFileSync(file, 'utf8').split('\n')[0]).toBe(mine());
      lock.release();
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it.skipIf(process.platform !== 'linux')('records pid@host and the boot id', () => {
    const file = tmpFile();
    const lock = acquirePidLock(file);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${mine()}\n${bootId()}\n`);
    lock.release();
  });

  it('never takes over a lock written by another host, even one whose pid is dead here', () => {
    const file = tmpFile();
    const dead = spawnSync('true').pid!;
    fs.writeFileSync(file, `${dead}@other-node.example\nsome-boot\n`);
    let err: unknown;
    try { acquirePidLock(file); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(PidLockHeldError);
    expect((err as Error).message).toMatch(new RegExp(`pid ${dead} on host other-node\\.example.*another host is never taken over`));
    expect(fs.readFileSync(file, 'utf8')).toBe(`${dead}@other-node.example\nsome-boot\n`);
  });

  it.skipIf(process.platform !== 'linux')('takes over a lock of this host written before its last boot, even if its pid is alive now', () => {
    const file = tmpFile();
    fs.writeFileSync(file, `${process.ppid}@${os.hostname()}\nan-earlier-boot\n`);
    const lock = acquirePidLock(file);
    expect(lock.takenOver).toBe(true);
    expect(fs.readFileSync(file, 'utf8').split('\n')[0]).toBe(mine());
    lock.release();
  });

  it.skipIf(process.platform !== 'linux')('refuses a live holder of this host and boot', () => {
    const file = tmpFile();
    fs.writeFileSync(file, `${process.ppid}@${os.hostname()}\n${bootId()}\n`);
    expect(() => acquirePidLock(file)).toThrow(new RegExp(`another hearth \\(pid ${process.ppid}\\)`));
  });
});

describe('makeDirectory', () => {
  it('goes on when another process makes the directory between its check and its mkdir (bug: two nodes starting on one shared directory, one refused with EEXIST)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-mkdir-'));
    const dir = path.join(root, 'repositories');
    // The other node wins the race: the directory appears right after this one looked.
    const seen = vi.spyOn(fs, 'existsSync').mockImplementationOnce((p) => {
      fs.mkdirSync(p as string);
      return false;
    });
    try {
      expect(() => makeDirectory(dir)).not.toThrow();
    } finally {
      seen.mockRestore();
    }
    expect(fs.statSync(dir).isDirectory()).toBe(true);
  });

  it('still refuses a file where the directory should be', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-mkdir-'));
    fs.writeFileSync(path.join(root, 'repositories'), '');
    expect(() => makeDirectory(path.join(root, 'repositories'))).toThrow(/ENOTDIR/);
  });
});
