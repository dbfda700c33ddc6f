import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquirePidLock, PidLockHeldError } from '../../src/lib/pid-lock';

// The data-directory lock: a live holder refuses, a dead one is taken over.

const tmpFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-lock-')), 'hearth.pid');

describe('pid lock', () => {
  it('refuses while a live process holds it, and is released', () => {
    const file = tmpFile();
    fs.writeFileSync(file, `${process.ppid}\n`);
    expect(() => acquirePidLock(file)).toThrow(PidLockHeldError);
    fs.rmSync(file);
    const lock = acquirePidLock(file);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
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
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
      lock.release();
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
